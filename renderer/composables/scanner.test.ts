// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENTER, SPACE, TAB, TestKeyboard } from '../testing/keyboard';
import { installScanner, isDeliberate, keyboardIsDeliberate, RELEASE_AFTER_MS } from './scanner';

let keyboard: TestKeyboard;
let scans: string[];
let stop: () => void;

beforeEach(() => {
  document.body.innerHTML = '';
  keyboard = new TestKeyboard();
  scans = [];
  stop = installScanner({ onScan: (text) => scans.push(text), timeOf: keyboard.timeOf, now: keyboard.now });
});

afterEach(() => {
  stop();
  vi.useRealTimers();
});

function button(): { element: HTMLButtonElement; clicks: number[] } {
  const element = document.createElement('button');
  element.type = 'button';
  const clicks: number[] = [];
  element.addEventListener('click', (event) => clicks.push(event.detail));
  document.body.append(element);
  element.focus();
  return { element, clicks };
}

function input(value = ''): { element: HTMLInputElement; enters: number; inputs: string[] } {
  const element = document.createElement('input');
  element.type = 'text';
  element.value = value;
  document.body.append(element);
  element.focus();
  element.setSelectionRange(value.length, value.length);
  const seen = { element, enters: 0, inputs: [] as string[] };
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') seen.enters += 1;
  });
  element.addEventListener('input', () => seen.inputs.push(element.value));
  return seen;
}

describe('the scanner at the window', () => {
  it('takes a burst on a focused button as a scan: the button is not pressed', () => {
    const { clicks } = button();
    const downs = keyboard.scan('Kc');
    expect(scans).toEqual(['Kc']);
    expect(clicks).toEqual([]);
    // The first key went through (a letter does nothing on a button); the rest were kept back.
    expect(downs.map((event) => event.defaultPrevented)).toEqual([false, true, true]);
  });

  it('takes a burst in the entry field back out of it: the field keeps what the dealer had typed', () => {
    const field = input('q');
    keyboard.scan('10h');
    expect(scans).toEqual(['10h']);
    expect(field.element.value).toBe('q');
    // The field's own Enter handler never saw the burst's Enter.
    expect(field.enters).toBe(0);
    // The first character landed, then was taken back.
    expect(field.inputs).toEqual(['q1', 'q']);
  });

  it('reads a scan by key position while a Russian layout is active (KeyA types "ф" there)', () => {
    const field = input();
    const downs = keyboard.scan('As', { layout: 'ru' });
    expect(downs.map((event) => event.key)).toEqual(['Ф', 'ы', 'Enter']);
    expect(scans).toEqual(['As']);
    expect(field.element.value).toBe('');
  });

  it('ends a scan with Tab without moving on: the Tab is kept back', () => {
    const { element } = button();
    const downs = keyboard.scan('QS', { end: TAB });
    expect(scans).toEqual(['QS']);
    expect(downs.at(-1)?.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(element);
  });

  it('lets a person type slowly into the field and press Enter there, as always', () => {
    const field = input();
    keyboard.type('ah', 150);
    const { down } = keyboard.press(ENTER, 150);
    expect(scans).toEqual([]);
    expect(field.element.value).toBe('ah');
    expect(field.enters).toBe(1);
    expect(down.defaultPrevented).toBe(false);
  });

  it('lets a single Enter or Space on a focused button press it, deliberately', () => {
    const { element, clicks } = button();
    element.addEventListener('click', (event) => expect(isDeliberate(event)).toBe(true));
    keyboard.press(ENTER, 2000);
    keyboard.press(SPACE, 2000);
    expect(clicks).toEqual([0, 0]);
    expect(scans).toEqual([]);
  });

  it('does not take an Enter on the heels of one character as deliberate (the button may ignore it)', () => {
    const { element } = button();
    const verdicts: boolean[] = [];
    element.addEventListener('click', (event) => verdicts.push(isDeliberate(event)));
    keyboard.wait(1000);
    keyboard.type('x', 3);
    keyboard.press(ENTER, 3);
    expect(verdicts).toEqual([false]);
    expect(scans).toEqual([]);
    // A pointer click (detail 1) always counts.
    expect(isDeliberate(new MouseEvent('click', { detail: 1 }))).toBe(true);
  });

  it('types a fast pair that is no scan (no Enter follows) into the field it was headed for', () => {
    vi.useFakeTimers();
    const field = input();
    keyboard.type('as', 10);
    expect(field.element.value).toBe('a');
    keyboard.wait(RELEASE_AFTER_MS);
    vi.advanceTimersByTime(RELEASE_AFTER_MS);
    expect(field.element.value).toBe('as');
    expect(scans).toEqual([]);
  });

  it('types what it held back before a key that ends the run (Backspace still deletes the last character)', () => {
    const field = input();
    keyboard.type('as', 10);
    keyboard.press({ code: 'Backspace', key: 'Backspace' }, 10);
    // The Backspace itself is the browser's (not played out here): the kept "s" was typed first.
    expect(field.element.value).toBe('as');
  });

  it('types what it held back into its field at once when the focus moves elsewhere: the next key is no part of it', () => {
    const field = input();
    const { element, clicks } = button();
    field.element.focus();
    keyboard.type('20', 5);
    element.focus();
    expect(field.element.value).toBe('20');
    keyboard.press(ENTER, 5);
    expect(clicks).toEqual([0]);
    expect(scans).toEqual([]);
  });

  it('holds back the first key on a select (it would jump to an option) and types it there if no scan follows', () => {
    vi.useFakeTimers();
    const select = document.createElement('select');
    for (const value of ['10', '25', '100']) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      select.append(option);
    }
    document.body.append(select);
    select.focus();
    const changes: string[] = [];
    select.addEventListener('change', () => changes.push(select.value));
    const [first] = keyboard.scan('2c');
    expect(first?.defaultPrevented).toBe(true);
    expect(scans).toEqual(['2c']);
    expect(select.value).toBe('10');
    expect(changes).toEqual([]);
    keyboard.type('2', 1000);
    keyboard.wait(RELEASE_AFTER_MS);
    vi.advanceTimersByTime(RELEASE_AFTER_MS);
    expect(select.value).toBe('25');
    expect(changes).toEqual(['25']);
  });

  it('stops listening when stopped', () => {
    stop();
    const { clicks } = button();
    keyboard.scan('Kc');
    expect(scans).toEqual([]);
    expect(clicks).toEqual([0]);
    expect(keyboardIsDeliberate()).toBe(true);
  });
});
