import type { CDPSession, Page } from '@playwright/test';

/**
 * A keyboard-wedge barcode scanner and a person at the keyboard, as the console tells them apart:
 * a scanner types each key within a few ms of the last, then Enter or Tab; a person leaves far
 * more than the 35 ms the console allows between the keys of a burst.
 */

/** A scanner's pace: 5 ms a key. */
export const SCANNER_KEY_DELAY_MS = 5;
/** A person's pace (a fast one): 80 ms a key. */
export const HUMAN_KEY_DELAY_MS = 80;

/** Types as a person does, wherever the focus is (Enter, if wanted, pressed after it by the caller). */
export async function typeAsPerson(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: HUMAN_KEY_DELAY_MS });
}

/** What a Russian (ЙЦУКЕН) layout types on the key positions a card code uses. */
const RUSSIAN: Readonly<Record<string, string>> = {
  KeyA: 'ф', KeyC: 'с', KeyD: 'в', KeyE: 'у', KeyH: 'р', KeyJ: 'о', KeyK: 'л', KeyQ: 'й', KeyS: 'ы', KeyT: 'е', KeyX: 'ч', BracketRight: 'ъ',
};

/** The keyboard layout active at the station while the scanner (always a US keyboard) types. */
export type Layout = 'us' | 'ru';

interface Key {
  readonly code: string;
  readonly virtualKey: number;
  readonly shift: boolean;
  /** What the layout types: the event's `key` and the text the key inserts. */
  readonly text: string;
}

function keyOf(char: string, layout: Layout): Key {
  let code: string;
  let virtualKey: number;
  if (/^[a-z]$/i.test(char)) {
    code = `Key${char.toUpperCase()}`;
    virtualKey = char.toUpperCase().charCodeAt(0);
  } else if (/^\d$/.test(char)) {
    code = `Digit${char}`;
    virtualKey = char.charCodeAt(0);
  } else if (char === ']') {
    code = 'BracketRight';
    virtualKey = 221;
  } else throw new Error(`no key for ${JSON.stringify(char)}`);
  const shift = /^[A-Z]$/.test(char);
  const local = layout === 'ru' ? RUSSIAN[code] : undefined;
  const text = local === undefined ? char : shift ? local.toUpperCase() : local;
  return { code, virtualKey, shift, text };
}

const SHIFT = 8;
const END_KEYS = {
  Enter: { key: 'Enter', code: 'Enter', text: '\r', unmodifiedText: '\r', windowsVirtualKeyCode: 13 },
  Tab: { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 },
} as const;

const sessions = new WeakMap<Page, CDPSession>();

async function sessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (session === undefined) {
    session = await page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/**
 * A keyboard-wedge scanner: real (trusted) key presses sent through the DevTools protocol, as the
 * scanner presses them — Shift for a capital, the US key position (`code: 'KeyA'`) — with the
 * character the station's active layout makes of each (`key: 'ф'` on a Russian one), 5 ms a key,
 * then Enter (or Tab), wherever the focus is. Each press carries the time it happened, 5 ms after
 * the one before, as the operating system stamps a scanner's keys: the protocol's own round trips
 * (10–20 ms a key on a quiet machine, tens of ms on a busy one) would otherwise space them like a
 * person's, and the test would be about the machine's load.
 */
export async function scan(page: Page, text: string, options: { end?: 'Enter' | 'Tab'; layout?: Layout } = {}): Promise<void> {
  const cdp = await sessionOf(page);
  const layout = options.layout ?? 'us';
  let at = Date.now() / 1000;
  const send = async (event: Record<string, unknown>, after: number): Promise<void> => {
    at += after / 1000;
    await cdp.send('Input.dispatchKeyEvent', { ...event, timestamp: at } as never);
  };
  for (const char of text) {
    const key = keyOf(char, layout);
    const modifiers = key.shift ? SHIFT : 0;
    if (key.shift) await send({ type: 'rawKeyDown', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16, modifiers: SHIFT }, 1);
    await send({ type: 'keyDown', key: key.text, code: key.code, text: key.text, unmodifiedText: key.text, windowsVirtualKeyCode: key.virtualKey, modifiers }, SCANNER_KEY_DELAY_MS);
    await send({ type: 'keyUp', key: key.text, code: key.code, windowsVirtualKeyCode: key.virtualKey, modifiers }, 1);
    if (key.shift) await send({ type: 'keyUp', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16 }, 1);
  }
  const end = END_KEYS[options.end ?? 'Enter'];
  await send({ type: 'keyDown', ...end }, SCANNER_KEY_DELAY_MS);
  await send({ type: 'keyUp', key: end.key, code: end.code, windowsVirtualKeyCode: end.windowsVirtualKeyCode }, 1);
}
