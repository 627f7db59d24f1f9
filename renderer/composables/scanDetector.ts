/**
 * Tells a keyboard-wedge barcode scanner from a person at the keyboard. Pure logic (no DOM): it is
 * fed key presses with their times and says what to do with each; `scanner.ts` wires it to the
 * window.
 *
 * The rule: a **burst** is at least `SCAN_MIN_LENGTH` characters, each key pressed within
 * `SCAN_KEY_GAP_MS` of the one before, ended by Enter (or the keypad's Enter) or Tab within that
 * gap of the last character. A burst is a scan. A person types slower than that (fast typists
 * still leave 60–150 ms between keys); a held-down key repeats (`repeat`) and never counts.
 *
 * The first character of a burst arrives before anyone can know it starts one: it goes through
 * to where it was going (a text field types it; a button does nothing with a letter) unless the
 * caller asks for it to be held (a select would jump to an option). From the second quick
 * character on, the keys are kept back (the caller prevents their default and stops them). When the
 * Enter or Tab comes, the burst is a scan, and the first character, if it went through, is taken
 * back (`reclaim`). If it does not come (the run stops, or another key ends it), the kept
 * characters are handed back (`release`) to be typed where they were headed: a fast pair of keys
 * from a person is delayed, never lost.
 *
 * Characters come from the key's position (`code`) read on a US layout, not from `key`: a scanner
 * speaks US key positions whatever layout the station has active (with a Russian layout the key
 * `KeyA` types 'ф'; the scanner meant 'a').
 */

/** The longest time between two keys of one burst (and between its last character and the Enter or Tab). */
export const SCAN_KEY_GAP_MS = 35;
/** The fewest characters a scan has (no card code is shorter). */
export const SCAN_MIN_LENGTH = 2;
/**
 * A key pressed this soon after a character, with nothing in between (no other key, no pointer),
 * is no deliberate press of a button (Enter or Space on a focused Confirm): a person who means to
 * confirm does not type a character just before; a scanner that sends one character, or keys
 * slowed by a busy machine, does.
 */
export const QUICK_KEY_WINDOW_MS = 500;

/** What the detector needs of a key press (a `KeyboardEvent`'s fields, and when it happened). */
export interface KeyPress {
  readonly code: string;
  readonly key: string;
  readonly shiftKey?: boolean;
  readonly ctrlKey?: boolean;
  readonly altKey?: boolean;
  readonly metaKey?: boolean;
  readonly repeat?: boolean;
  readonly isComposing?: boolean;
  /** Milliseconds, on any clock that only moves forward (the event's `timeStamp`). */
  readonly time: number;
}

export interface Verdict {
  /** `pass`: let the key do what it does; `keep`: keep it back (prevent its default, stop it). */
  readonly action: 'pass' | 'keep';
  /** This character may start a burst: remember the focused field as it is before the key lands. */
  readonly first?: boolean;
  /** Characters kept back from a run that was no scan: type them where they were headed, before this key. */
  readonly release?: string;
  /** A scan: the burst's text, ended by this key. */
  readonly scan?: string;
  /** With `scan`: the burst's first character went through to the focused field; take it back. */
  readonly reclaim?: boolean;
}

/** The characters of the US layout, by key position: unshifted, shifted. */
const US_LAYOUT: Readonly<Record<string, readonly [string, string]>> = (() => {
  const map: Record<string, readonly [string, string]> = {};
  for (const letter of 'abcdefghijklmnopqrstuvwxyz') map[`Key${letter.toUpperCase()}`] = [letter, letter.toUpperCase()];
  const shiftedDigits = ')!@#$%^&*(';
  for (let digit = 0; digit <= 9; digit += 1) {
    map[`Digit${digit}`] = [String(digit), shiftedDigits[digit] as string];
    map[`Numpad${digit}`] = [String(digit), String(digit)];
  }
  const punctuation: Record<string, readonly [string, string]> = {
    Minus: ['-', '_'],
    Equal: ['=', '+'],
    BracketLeft: ['[', '{'],
    BracketRight: [']', '}'],
    Backslash: ['\\', '|'],
    IntlBackslash: ['\\', '|'],
    Semicolon: [';', ':'],
    Quote: ["'", '"'],
    Backquote: ['`', '~'],
    Comma: [',', '<'],
    Period: ['.', '>'],
    Slash: ['/', '?'],
    Space: [' ', ' '],
    NumpadDecimal: ['.', '.'],
    NumpadAdd: ['+', '+'],
    NumpadSubtract: ['-', '-'],
    NumpadMultiply: ['*', '*'],
    NumpadDivide: ['/', '/'],
  };
  return { ...map, ...punctuation };
})();

const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'OS', 'CapsLock', 'NumLock', 'ScrollLock', 'Fn', 'FnLock', 'Hyper', 'Super', 'Symbol']);
const TERMINATOR_CODES = new Set(['Enter', 'NumpadEnter', 'Tab']);

/** Shift, Control … on their own: no character, and no end to a burst (a scanner presses Shift for capitals). */
function isModifier(press: KeyPress): boolean {
  return MODIFIER_KEYS.has(press.key) || /^(Shift|Control|Alt|Meta|OS)(Left|Right)$/.test(press.code) || press.code === 'CapsLock';
}

/** Enter, the keypad's Enter or Tab (not Shift+Tab): what a scanner sends after the code. */
function isTerminator(press: KeyPress): boolean {
  if (press.shiftKey === true) return false;
  return TERMINATOR_CODES.has(press.code) || ((press.code === '' || press.code === 'Unidentified') && (press.key === 'Enter' || press.key === 'Tab'));
}

/**
 * The character a key press types on a US layout, or null for a key that types none (arrows,
 * Backspace, F1 …). A key whose `key` is already one of its two US characters keeps it (that carries
 * Caps Lock); any other layout's character is replaced by the US one, shifted or not. A key with no
 * position (`code` empty: some virtual keyboards) types its `key`, if that is one character.
 */
export function characterOf(press: Pick<KeyPress, 'code' | 'key' | 'shiftKey'>): string | null {
  const { code, key } = press;
  const named = [...key].length > 1 && key !== 'Dead' && key !== 'Unidentified';
  const pair = US_LAYOUT[code];
  if (pair !== undefined) {
    if (key === pair[0] || key === pair[1]) return key;
    // A named key on a character's position: the keypad with Num Lock off (End, ArrowUp …).
    if (named) return null;
    return press.shiftKey === true ? pair[1] : pair[0];
  }
  if (code === '' || code === 'Unidentified') return !named && [...key].length === 1 ? key : null;
  return null;
}

export class ScanDetector {
  /** The characters of the current run of quick keys (the first included). */
  private chars: string[] = [];
  /** When the run's last character was pressed. */
  private last = 0;
  /** Whether the run's first character was kept back (the caller asked) rather than let through. */
  private firstHeld = false;
  /** Key positions kept back on their way down: their release (keyup) is kept back too. */
  private readonly kept = new Set<string>();
  /** When the last key was pressed, if it was a character (null: it was another key, or the pointer was used since). */
  private lastChar: number | null = null;
  /** When the last key was pressed, if it came straight after a character, within `QUICK_KEY_WINDOW_MS` (null: it did not). */
  private quickAt: number | null = null;

  constructor(
    private readonly gap = SCAN_KEY_GAP_MS,
    private readonly minLength = SCAN_MIN_LENGTH,
  ) {}

  /** A run is under way: characters that may yet be a scan (the caller should call `expire` once it stops). */
  get pending(): boolean {
    return this.chars.length > 0;
  }

  /** At least two quick characters: a burst recognised, its keys being kept back. */
  get bursting(): boolean {
    return this.chars.length >= this.minLength;
  }

  /**
   * A key went down. `holdFirst`: should this key start a run, keep it back rather than let it
   * through (the caller will type it itself if no scan follows).
   */
  keydown(press: KeyPress, holdFirst = false): Verdict {
    if (isModifier(press)) return { action: 'pass' };
    const stale = this.chars.length > 0 && press.time - this.last > this.gap ? this.end() : undefined;
    // Straight on the heels of a character: whatever this key is, it is no deliberate press of a button.
    this.quickAt = this.lastChar !== null && press.time - this.lastChar <= QUICK_KEY_WINDOW_MS ? press.time : null;
    this.lastChar = null;
    if (press.ctrlKey === true || press.altKey === true || press.metaKey === true || press.repeat === true || press.isComposing === true) {
      return withRelease({ action: 'pass' }, stale, this.end());
    }
    if (isTerminator(press)) {
      if (this.bursting) {
        const scan = this.chars.join('');
        const reclaim = !this.firstHeld;
        this.reset();
        this.kept.add(press.code);
        return { action: 'keep', scan, reclaim };
      }
      return withRelease({ action: 'pass' }, stale, this.end());
    }
    const char = characterOf(press);
    if (char === null) return withRelease({ action: 'pass' }, stale, this.end());
    if (char !== ' ') this.lastChar = press.time;
    if (this.chars.length === 0) {
      // A space never starts a burst: on a focused button it presses it, as it always has.
      if (char === ' ') return withRelease({ action: 'pass' }, stale);
      this.chars = [char];
      this.last = press.time;
      this.firstHeld = holdFirst;
      if (holdFirst) {
        this.kept.add(press.code);
        return withRelease({ action: 'keep', first: true }, stale);
      }
      return withRelease({ action: 'pass', first: true }, stale);
    }
    this.chars.push(char);
    this.last = press.time;
    this.kept.add(press.code);
    return { action: 'keep' };
  }

  /** A key went up: kept back if its press was. */
  keyup(code: string): 'pass' | 'keep' {
    return this.kept.delete(code) ? 'keep' : 'pass';
  }

  /** Called once no key has come for a while: a run that has stopped hands back what it kept. */
  expire(now: number): string | undefined {
    if (this.chars.length === 0 || now - this.last <= this.gap) return undefined;
    return this.end();
  }

  /** Ends any run now (the pointer is used, the focus moved), handing back what it kept. */
  flush(): string | undefined {
    this.lastChar = null;
    return this.end();
  }

  /** The window lost focus: no key kept back on its way down will come up here. */
  forgetKeys(): void {
    this.kept.clear();
  }

  /**
   * Whether a keyboard press of a button now is the dealer's own: no burst under way, and the
   * last key (the Enter or Space that presses the button; its click comes within the same key
   * press) did not come within `QUICK_KEY_WINDOW_MS` of a character.
   */
  deliberate(now: number): boolean {
    if (this.bursting && now - this.last <= this.gap) return false;
    return this.quickAt === null || now - this.quickAt > QUICK_KEY_WINDOW_MS;
  }

  /** Ends the run: the characters kept back, to be typed where they were headed (none: undefined). */
  private end(): string | undefined {
    if (this.chars.length === 0) return undefined;
    const text = (this.firstHeld ? this.chars : this.chars.slice(1)).join('');
    this.reset();
    return text === '' ? undefined : text;
  }

  private reset(): void {
    this.chars = [];
    this.firstHeld = false;
  }
}

function withRelease(verdict: Verdict, ...parts: readonly (string | undefined)[]): Verdict {
  const release = parts.filter((part): part is string => part !== undefined).join('');
  return release === '' ? verdict : { ...verdict, release };
}
