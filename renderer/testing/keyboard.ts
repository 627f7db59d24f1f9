/**
 * A keyboard for the DOM tests: key presses dispatched at the focused element, on a clock the test
 * moves, with the browser's own default actions played out where nothing prevented them (a
 * character typed into a text field, Enter or Space pressing a focused button) — happy-dom plays
 * none itself. A scanner is this keyboard typing a few ms a key; a person, a hundred or more.
 */

export interface KeyInit {
  readonly code: string;
  readonly key: string;
  readonly shiftKey?: boolean;
}

/** The layouts a station may have active: the characters a key position types there. */
export type Layout = 'us' | 'ru';

const RUSSIAN: Readonly<Record<string, string>> = {
  KeyQ: 'й', KeyW: 'ц', KeyE: 'у', KeyR: 'к', KeyT: 'е', KeyY: 'н', KeyU: 'г', KeyI: 'ш', KeyO: 'щ', KeyP: 'з',
  KeyA: 'ф', KeyS: 'ы', KeyD: 'в', KeyF: 'а', KeyG: 'п', KeyH: 'р', KeyJ: 'о', KeyK: 'л', KeyL: 'д',
  KeyZ: 'я', KeyX: 'ч', KeyC: 'с', KeyV: 'м', KeyB: 'и', KeyN: 'т', KeyM: 'ь',
};

const US_NAMED: Readonly<Record<string, KeyInit>> = {
  ']': { code: 'BracketRight', key: ']' },
  '-': { code: 'Minus', key: '-' },
  '/': { code: 'Slash', key: '/' },
  ' ': { code: 'Space', key: ' ' },
  '\n': { code: 'Enter', key: 'Enter' },
  '\t': { code: 'Tab', key: 'Tab' },
};

/** The key a US-layout scanner presses for a character, as the active layout reports it. */
export function keyFor(char: string, layout: Layout = 'us'): KeyInit {
  let key: KeyInit;
  if (/^[a-z]$/.test(char)) key = { code: `Key${char.toUpperCase()}`, key: char };
  else if (/^[A-Z]$/.test(char)) key = { code: `Key${char}`, key: char, shiftKey: true };
  else if (/^\d$/.test(char)) key = { code: `Digit${char}`, key: char };
  else {
    const named = US_NAMED[char];
    if (named === undefined) throw new Error(`no key for ${JSON.stringify(char)}`);
    key = named;
  }
  const letter = layout === 'ru' ? RUSSIAN[key.code] : undefined;
  if (letter !== undefined) key = { ...key, key: key.shiftKey === true ? letter.toUpperCase() : letter };
  return key;
}

export const ENTER: KeyInit = { code: 'Enter', key: 'Enter' };
export const TAB: KeyInit = { code: 'Tab', key: 'Tab' };
export const SPACE: KeyInit = { code: 'Space', key: ' ' };

function isTextField(element: Element | null): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && ['text', 'number', 'search', ''].includes(element.type));
}

export class TestKeyboard {
  private clock = 10_000;

  /**
   * `advance`: moves the clock the page itself reads (for a screen that installs its scanner on
   * the browser's clock, as App.vue does: a test fakes `performance` and passes
   * `vi.advanceTimersByTime`), by as much as this keyboard's clock moves. Without it a key's time is
   * when the test's process got round to dispatching it, which a busy machine stretches past a
   * burst's gap.
   */
  constructor(private readonly advance: (ms: number) => void = () => undefined) {}

  /** For `installScanner`: the event's time and now are this keyboard's clock. */
  readonly timeOf = (): number => this.clock;
  readonly now = (): number => this.clock;

  /** Moves the clock on. */
  wait(ms: number): void {
    this.clock += ms;
    this.advance(ms);
  }

  /** One key press (down and up) at the focused element, `after` ms after the last; the browser's default where not prevented. */
  press(init: KeyInit, after = 0): { down: KeyboardEvent; up: KeyboardEvent } {
    this.wait(after);
    const target = document.activeElement ?? document.body;
    const options = { code: init.code, key: init.key, shiftKey: init.shiftKey === true, bubbles: true, cancelable: true };
    const down = new KeyboardEvent('keydown', options);
    target.dispatchEvent(down);
    if (!down.defaultPrevented) {
      if ([...init.key].length === 1 && isTextField(target)) {
        // A number field has no selection: the character goes at the end.
        if (target.type === 'number') target.value = `${target.value}${init.key}`;
        else target.setRangeText(init.key, target.selectionStart ?? target.value.length, target.selectionEnd ?? target.value.length, 'end');
        target.dispatchEvent(new Event('input', { bubbles: true }));
      } else if (init.key === 'Enter' && target instanceof HTMLButtonElement) target.click();
    }
    const up = new KeyboardEvent('keyup', options);
    target.dispatchEvent(up);
    if (!up.defaultPrevented && !down.defaultPrevented && init.key === ' ' && target instanceof HTMLButtonElement) target.click();
    return { down, up };
  }

  /** Types the text, `every` ms a key (the first `every` ms after the last key), in a layout. */
  type(text: string, every: number, layout: Layout = 'us'): KeyboardEvent[] {
    return [...text].map((char) => this.press(keyFor(char, layout), every).down);
  }

  /** A keyboard-wedge scanner: the text 5 ms a key, then Enter (or Tab). */
  scan(text: string, options: { every?: number; end?: KeyInit; layout?: Layout } = {}): KeyboardEvent[] {
    const every = options.every ?? 5;
    this.wait(1000);
    const downs = this.type(text, every, options.layout);
    downs.push(this.press(options.end ?? ENTER, every).down);
    return downs;
  }
}
