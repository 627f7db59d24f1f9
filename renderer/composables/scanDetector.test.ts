import { describe, expect, it } from 'vitest';
import { characterOf, QUICK_KEY_WINDOW_MS, ScanDetector, SCAN_KEY_GAP_MS, type KeyPress, type Verdict } from './scanDetector';

/** A key position and what it types, as a `KeyboardEvent` would carry them. */
type Key = Omit<KeyPress, 'time'>;

const US = (char: string): Key => {
  if (/^[a-z]$/.test(char)) return { code: `Key${char.toUpperCase()}`, key: char };
  if (/^[A-Z]$/.test(char)) return { code: `Key${char}`, key: char, shiftKey: true };
  if (/^\d$/.test(char)) return { code: `Digit${char}`, key: char };
  const named: Record<string, Key> = { ']': { code: 'BracketRight', key: ']' }, '-': { code: 'Minus', key: '-' }, '/': { code: 'Slash', key: '/' }, ' ': { code: 'Space', key: ' ' } };
  const key = named[char];
  if (key === undefined) throw new Error(`no US key for ${char}`);
  return key;
};

/** The Russian (ЙЦУКЕН) layout's characters on the letter positions a card code uses. */
const RUSSIAN: Record<string, string> = { KeyA: 'ф', KeyC: 'с', KeyD: 'в', KeyE: 'у', KeyH: 'р', KeyJ: 'о', KeyK: 'л', KeyQ: 'й', KeyS: 'ы', KeyT: 'е' };
const ru = (char: string): Key => {
  const us = US(char);
  const letter = RUSSIAN[us.code];
  if (letter === undefined) return us;
  return { ...us, key: us.shiftKey === true ? letter.toUpperCase() : letter };
};

const ENTER: Key = { code: 'Enter', key: 'Enter' };
const TAB: Key = { code: 'Tab', key: 'Tab' };
const SHIFT: Key = { code: 'ShiftLeft', key: 'Shift', shiftKey: true };

/** Presses keys `every` ms apart from `start`; returns each key's verdict. */
function typeKeys(detector: ScanDetector, keys: readonly Key[], every: number, start = 1000): Verdict[] {
  return keys.map((key, index) => detector.keydown({ ...key, time: start + index * every }));
}

const scanOf = (verdicts: readonly Verdict[]) => verdicts.find((verdict) => verdict.scan !== undefined)?.scan;

describe('the scan detector: what is a burst', () => {
  it('takes characters 5 ms apart ended by Enter as a scan: the first goes through, the rest and the Enter are kept back', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('K'), US('c'), ENTER], 5);
    expect(verdicts).toEqual([
      { action: 'pass', first: true },
      { action: 'keep' },
      { action: 'keep', scan: 'Kc', reclaim: true },
    ]);
    expect(detector.pending).toBe(false);
  });

  it('ends a scan with Tab as well (never moving the focus)', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('1'), US('0'), US('h'), TAB], 4);
    expect(verdicts.at(-1)).toEqual({ action: 'keep', scan: '10h', reclaim: true });
  });

  it('allows each key up to 35 ms after the one before, and no more', () => {
    expect(SCAN_KEY_GAP_MS).toBe(35);
    expect(scanOf(typeKeys(new ScanDetector(), [US('a'), US('s'), ENTER], 35))).toBe('as');
    const slow = new ScanDetector();
    const verdicts = typeKeys(slow, [US('a'), US('s'), ENTER], 36);
    expect(scanOf(verdicts)).toBeUndefined();
    expect(verdicts.map((verdict) => verdict.action)).toEqual(['pass', 'pass', 'pass']);
  });

  it('needs two characters: one character and a quick Enter is no scan', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('7'), ENTER], 3);
    expect(verdicts).toEqual([{ action: 'pass', first: true }, { action: 'pass' }]);
  });

  it('lets a person typing slowly type: every key goes through, Enter included', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('a'), US('h'), ENTER], 140);
    expect(verdicts).toEqual([{ action: 'pass', first: true }, { action: 'pass', first: true }, { action: 'pass' }]);
    expect(detector.pending).toBe(false);
  });

  it('keeps the keyup of every key it kept back (a kept Space must not press a button on its way up)', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('K'), US(' '), US('c'), ENTER], 5);
    expect(detector.keyup('KeyK')).toBe('pass');
    expect(detector.keyup('Space')).toBe('keep');
    expect(detector.keyup('KeyC')).toBe('keep');
    expect(detector.keyup('Enter')).toBe('keep');
    expect(detector.keyup('Enter')).toBe('pass');
  });

  it('never starts a burst with a space (on a focused button it presses it, as always)', () => {
    const detector = new ScanDetector();
    expect(typeKeys(detector, [US(' '), US('a')], 3)).toEqual([{ action: 'pass' }, { action: 'pass', first: true }]);
  });

  it('never counts a held-down key: its repeats go through', () => {
    const detector = new ScanDetector();
    const verdicts = [1000, 1030, 1060].map((time, index) => detector.keydown({ ...US('a'), repeat: index > 0, time }));
    verdicts.push(detector.keydown({ ...ENTER, time: 1070 }));
    expect(verdicts.map((verdict) => verdict.action)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(verdicts.some((verdict) => verdict.scan !== undefined)).toBe(false);
  });

  it('ignores Shift on its own (a scanner presses it for capitals) and reads the capital', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [SHIFT, US('K'), SHIFT, US('D'), ENTER], 2);
    expect(verdicts[0]).toEqual({ action: 'pass' });
    expect(scanOf(verdicts)).toBe('KD');
  });

  it('does not take a shortcut (Ctrl, Alt, Meta) as part of a burst', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('a'), { ...US('c'), ctrlKey: true }, US('s'), ENTER], 3);
    expect(verdicts.map((verdict) => verdict.action)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(scanOf(verdicts)).toBeUndefined();
  });
});

describe('the scan detector: a fast run that is no scan is never lost', () => {
  it('hands back what it kept once the run stops, for the field it was headed to', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('a'), US('s')], 20);
    expect(detector.pending).toBe(true);
    expect(detector.expire(1020 + SCAN_KEY_GAP_MS)).toBeUndefined();
    // The first character went through; the second was kept and now goes where it was headed.
    expect(detector.expire(1020 + SCAN_KEY_GAP_MS + 1)).toBe('s');
    expect(detector.pending).toBe(false);
  });

  it('hands back a held first character too (a select: its type-ahead)', () => {
    const detector = new ScanDetector();
    expect(detector.keydown({ ...US('2'), time: 0 }, true)).toEqual({ action: 'keep', first: true });
    expect(detector.expire(100)).toBe('2');
  });

  it('hands back the kept characters before the key that ends the run (a Backspace, an arrow)', () => {
    const detector = new ScanDetector();
    const verdicts = typeKeys(detector, [US('a'), US('s'), US('d'), { code: 'Backspace', key: 'Backspace' }], 10);
    expect(verdicts.at(-1)).toEqual({ action: 'pass', release: 'sd' });
  });

  it('hands back a stopped run when the next key comes late', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('a'), US('s')], 10);
    expect(detector.keydown({ ...US('d'), time: 1200 })).toEqual({ action: 'pass', first: true, release: 's' });
  });

  it('hands back on flush (the pointer is used)', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('q'), US('s')], 10);
    expect(detector.flush()).toBe('s');
    expect(detector.flush()).toBeUndefined();
  });
});

describe('the scan detector: deliberate key presses', () => {
  it('takes a single Enter (on a focused button) as deliberate', () => {
    const detector = new ScanDetector();
    expect(detector.keydown({ ...ENTER, time: 5000 })).toEqual({ action: 'pass' });
    expect(detector.deliberate(5000)).toBe(true);
  });

  it('takes an Enter on the heels of a character as no deliberate press (a one-character scan; a slow scanner)', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('x'), ENTER], 3);
    expect(detector.deliberate(1003)).toBe(false);
    // Keys slowed past the burst's gap (a busy machine): still no deliberate press.
    typeKeys(detector, [US('5'), US('s'), ENTER], 60, 2000);
    expect(detector.deliberate(2120)).toBe(false);
    // Half a second after the last character, Enter is the dealer's again.
    detector.keydown({ ...ENTER, time: 2060 + QUICK_KEY_WINDOW_MS + 1 });
    expect(detector.deliberate(2060 + QUICK_KEY_WINDOW_MS + 1)).toBe(true);
  });

  it('takes an Enter as deliberate when another key or the pointer came between it and the character', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('d'), TAB, ENTER], 100);
    expect(detector.deliberate(1200)).toBe(true);
    typeKeys(detector, [US('d')], 0, 3000);
    detector.flush();
    detector.keydown({ ...ENTER, time: 3100 });
    expect(detector.deliberate(3100)).toBe(true);
  });

  it('takes a Space on a focused button as deliberate, and a second one straight after too', () => {
    const detector = new ScanDetector();
    detector.keydown({ ...US(' '), time: 5000 });
    expect(detector.deliberate(5000)).toBe(true);
    detector.keydown({ ...US(' '), time: 5100 });
    expect(detector.deliberate(5100)).toBe(true);
  });

  it('takes nothing as deliberate while a burst is under way', () => {
    const detector = new ScanDetector();
    typeKeys(detector, [US('K'), US('c')], 4);
    expect(detector.bursting).toBe(true);
    expect(detector.deliberate(1005)).toBe(false);
  });
});

describe('the scan detector: key positions on a US layout, whatever layout is active', () => {
  it('reads a Russian layout by position: key "л" on KeyK is k, Shift makes it K', () => {
    const detector = new ScanDetector();
    expect(scanOf(typeKeys(detector, [ru('K'), ru('c'), ENTER], 5))).toBe('Kc');
    expect(scanOf(typeKeys(detector, [ru('a'), ru('s'), ENTER], 5, 5000))).toBe('as');
    expect(scanOf(typeKeys(detector, [ru('Q'), ru('H'), ENTER], 5, 9000))).toBe('QH');
  });

  it('reads a symbology prefix and digits on a Finnish layout (] is a dead key there, / types -)', () => {
    const detector = new ScanDetector();
    const finnish: Key[] = [
      { code: 'BracketRight', key: 'Dead' },
      { code: 'KeyE', key: 'E', shiftKey: true },
      { code: 'Digit0', key: '0' },
      { code: 'Digit1', key: '1' },
      { code: 'Digit0', key: '0' },
      { code: 'KeyH', key: 'H', shiftKey: true },
      ENTER,
    ];
    expect(scanOf(typeKeys(detector, finnish, 3))).toBe(']E010H');
    expect(characterOf({ code: 'Slash', key: '-' })).toBe('/');
    expect(characterOf({ code: 'Minus', key: '+' })).toBe('-');
    expect(characterOf({ code: 'Digit2', key: '"', shiftKey: true })).toBe('@');
  });

  it('keeps the case a US key types (Caps Lock), and reads Shift where the layout differs', () => {
    expect(characterOf({ code: 'KeyK', key: 'K' })).toBe('K');
    expect(characterOf({ code: 'KeyK', key: 'k', shiftKey: true })).toBe('k');
    expect(characterOf({ code: 'KeyA', key: 'ф' })).toBe('a');
    expect(characterOf({ code: 'KeyA', key: 'Ф', shiftKey: true })).toBe('A');
    expect(characterOf({ code: 'Space', key: ' ' })).toBe(' ');
  });

  it('types no character for keys that type none', () => {
    expect(characterOf({ code: 'ArrowLeft', key: 'ArrowLeft' })).toBeNull();
    expect(characterOf({ code: 'Backspace', key: 'Backspace' })).toBeNull();
    expect(characterOf({ code: 'F5', key: 'F5' })).toBeNull();
    // The keypad with Num Lock off.
    expect(characterOf({ code: 'Numpad1', key: 'End' })).toBeNull();
    expect(characterOf({ code: 'Numpad1', key: '1' })).toBe('1');
  });

  it('falls back on the character when a key has no position (some virtual keyboards)', () => {
    expect(characterOf({ code: '', key: 'K' })).toBe('K');
    expect(characterOf({ code: '', key: 'Enter' })).toBeNull();
  });
});
