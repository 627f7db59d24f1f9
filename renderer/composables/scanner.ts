import { ScanDetector, type KeyPress } from './scanDetector';

/**
 * The keyboard-wedge scanner, wherever the focus is: the window's key presses, in the capture
 * phase (before any field or button sees them), go through the `ScanDetector`. A burst's keys never
 * reach the page: its characters do not land in a field, its Enter or Tab activates no button and
 * moves no focus; its text goes to `onScan`. Everything else reaches the page as it always has.
 *
 * The first character of a burst is let through to a text field (and taken back if a scan
 * follows), so a person typing there sees every key at once; on a select it is held back (a select
 * would jump to an option) and typed there, as a select's type-ahead, if no scan follows.
 * Characters held back from a run that was no scan are typed into the field they were headed for:
 * once the run stops, before a key that ends it, or at once when the pointer is used or the focus
 * moves elsewhere.
 */

/** How long after a run's last key its held-back characters are handed back (if no key has come since). */
export const RELEASE_AFTER_MS = 200;

export interface ScannerOptions {
  /** The scanned text (a burst's characters, without its Enter or Tab). */
  readonly onScan: (text: string) => void;
  readonly target?: Window;
  /** When an event happened, in ms (default: its `timeStamp`). */
  readonly timeOf?: (event: Event) => number;
  /** Now, in ms on the same clock (default: `performance.now()`). */
  readonly now?: () => number;
}

/** A field as it was before a run's first key landed in it. */
type Field =
  | { readonly kind: 'text'; readonly element: HTMLInputElement | HTMLTextAreaElement; readonly value: string; readonly start: number | null; readonly end: number | null }
  | { readonly kind: 'select'; readonly element: HTMLSelectElement }
  | { readonly kind: 'other' };

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number']);

function isTextField(element: Element | null): element is HTMLInputElement | HTMLTextAreaElement {
  if (element === null) return false;
  if (element.tagName === 'TEXTAREA') return !(element as HTMLTextAreaElement).readOnly && !(element as HTMLTextAreaElement).disabled;
  if (element.tagName !== 'INPUT') return false;
  const input = element as HTMLInputElement;
  return TEXT_INPUT_TYPES.has((input.getAttribute('type') ?? '').toLowerCase()) && !input.readOnly && !input.disabled;
}

function isSelect(element: Element | null): element is HTMLSelectElement {
  return element !== null && element.tagName === 'SELECT';
}

/** The selection of a text field, where it has one (a number field has none). */
function selectionOf(element: HTMLInputElement | HTMLTextAreaElement): { start: number | null; end: number | null } {
  try {
    return { start: element.selectionStart, end: element.selectionEnd };
  } catch {
    return { start: null, end: null };
  }
}

function snapshot(element: Element | null): Field {
  if (isTextField(element)) return { kind: 'text', element, value: element.value, ...selectionOf(element) };
  if (isSelect(element)) return { kind: 'select', element };
  return { kind: 'other' };
}

function announceInput(element: Element, data: string | null): void {
  const InputEventClass = element.ownerDocument.defaultView?.InputEvent;
  const event = InputEventClass !== undefined ? new InputEventClass('input', { bubbles: true, inputType: 'insertText', data }) : new Event('input', { bubbles: true });
  element.dispatchEvent(event);
}

/** Types `text` into a field at its caret (replacing a selection), as the keys would have. */
function typeInto(element: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const { start, end } = selectionOf(element);
  if (start !== null && end !== null) element.setRangeText(text, start, end, 'end');
  else element.value = `${element.value}${text}`;
  announceInput(element, text);
}

/** A select's type-ahead: the next option whose label starts with the text. */
function typeAhead(select: HTMLSelectElement, text: string): void {
  const wanted = text.toLowerCase();
  const options = [...select.options];
  const count = options.length;
  for (let step = 1; step <= count; step += 1) {
    const index = (select.selectedIndex + step + count) % count;
    const option = options[index];
    if (option === undefined || option.disabled || !option.text.trim().toLowerCase().startsWith(wanted)) continue;
    if (index === select.selectedIndex) return;
    select.selectedIndex = index;
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
}

let active: { readonly detector: ScanDetector; readonly now: () => number } | null = null;

/**
 * Whether a key press being handled now is the dealer's own, not a scanner's: no burst under way
 * and no key on the heels of another. True when no scanner is listening.
 */
export function keyboardIsDeliberate(): boolean {
  return active === null || active.detector.deliberate(active.now());
}

/**
 * For the click handler of a button that starts or settles something (confirm the race, the next
 * deal, start the race): a pointer click or tap always counts; a click from the keyboard (Enter or
 * Space on the focused button) counts only if it is deliberate — no burst under way, and no
 * character key in the half second before it — never a scanner's Enter.
 */
export function isDeliberate(event?: Event): boolean {
  if (event !== undefined && 'detail' in event && typeof event.detail === 'number' && event.detail > 0) return true;
  return keyboardIsDeliberate();
}

function pressOf(event: KeyboardEvent, time: number): KeyPress {
  return {
    code: event.code ?? '',
    key: event.key ?? '',
    shiftKey: event.shiftKey,
    ctrlKey: event.ctrlKey,
    altKey: event.altKey,
    metaKey: event.metaKey,
    repeat: event.repeat,
    isComposing: event.isComposing,
    time,
  };
}

/** Listens at the window (capture phase) for scans; returns the function that stops it. */
export function installScanner(options: ScannerOptions): () => void {
  const target = options.target ?? window;
  const timeOf = options.timeOf ?? ((event: Event) => event.timeStamp);
  const now = options.now ?? (() => performance.now());
  const detector = new ScanDetector();
  const mine = { detector, now };
  active = mine;
  let field: Field | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function release(text: string | undefined): void {
    const where = field;
    field = null;
    if (text === undefined || where === null) return;
    if (where.kind === 'text' && where.element.isConnected) typeInto(where.element, text);
    else if (where.kind === 'select' && where.element.isConnected) typeAhead(where.element, text);
  }

  /** Takes the burst's first character back out of the field it went into. */
  function reclaim(): void {
    const where = field;
    field = null;
    if (where === null || where.kind !== 'text' || !where.element.isConnected) return;
    const { element } = where;
    if (element.value === where.value) return;
    element.value = where.value;
    if (where.start !== null && where.end !== null) {
      try {
        element.setSelectionRange(where.start, where.end);
      } catch {
        // A field without a selection: the value alone.
      }
    }
    announceInput(element, null);
  }

  function disarm(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function arm(): void {
    disarm();
    timer = setTimeout(() => {
      timer = null;
      if (!detector.pending) return;
      const text = detector.expire(now());
      if (detector.pending) arm();
      else release(text);
    }, RELEASE_AFTER_MS);
  }

  function onKeydown(event: KeyboardEvent): void {
    const focused = event.target instanceof Element ? event.target : null;
    const verdict = detector.keydown(pressOf(event, timeOf(event)), isSelect(focused));
    if (verdict.release !== undefined || (verdict.first === true && field !== null)) release(verdict.release);
    if (verdict.first === true) field = snapshot(focused);
    if (verdict.scan !== undefined) {
      if (verdict.reclaim === true) reclaim();
      field = null;
    }
    if (verdict.action === 'keep') {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    if (detector.pending) arm();
    else {
      disarm();
      if (verdict.scan === undefined && verdict.first !== true) field = null;
    }
    if (verdict.scan !== undefined) options.onScan(verdict.scan);
  }

  function onKeyup(event: KeyboardEvent): void {
    if (detector.keyup(event.code ?? '') === 'keep') {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }

  /** The pointer ends a run at once: what it held back goes where it was headed, before the click. */
  function onPointerdown(): void {
    disarm();
    release(detector.flush());
  }

  /**
   * The focus moved elsewhere during a run (a script moved it; a click or Tab would have ended the
   * run already): what was held back belongs to the field it was headed for, typed there now.
   */
  function onFocusin(event: FocusEvent): void {
    if (!detector.pending) return;
    if (field !== null && field.kind !== 'other' && field.element === event.target) return;
    disarm();
    release(detector.flush());
  }

  function onBlur(): void {
    onPointerdown();
    detector.forgetKeys();
  }

  target.addEventListener('keydown', onKeydown, { capture: true });
  target.addEventListener('keyup', onKeyup, { capture: true });
  target.addEventListener('pointerdown', onPointerdown, { capture: true });
  target.addEventListener('focusin', onFocusin, { capture: true });
  target.addEventListener('blur', onBlur);
  return () => {
    disarm();
    target.removeEventListener('keydown', onKeydown, { capture: true });
    target.removeEventListener('keyup', onKeyup, { capture: true });
    target.removeEventListener('pointerdown', onPointerdown, { capture: true });
    target.removeEventListener('focusin', onFocusin, { capture: true });
    target.removeEventListener('blur', onBlur);
    if (active === mine) active = null;
  };
}
