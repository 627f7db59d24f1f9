import { defineStore } from 'pinia';
import { computed, shallowRef, toRaw, watch } from 'vue';
import type { Card } from '../../engine/cards';
import type { ConsoleState } from '../../protocol/contract';
import { useConsoleStore } from './console';
import type { Outcome, UiError } from './outcomes';
import { cardsTaken, sameRefusal } from './stateChanges';

/**
 * Where a scan lands: `deal` — the race screen with a race open (dealing, tie-break or its
 * result) or the points game with a game open: it is dealt; anywhere else it is not: `counts` —
 * the counts screen, before the race starts; `elsewhere` — another screen while a race or game is
 * open; `closed` — no race or game is open.
 */
export type ScanPlace = 'deal' | 'counts' | 'elsewhere' | 'closed';

/**
 * A card read that the service refused, from the keyboard-wedge scanner, the shoe or the card entry
 * (the refusal is `errors.dealCard`, shown while it is the latest): the headline itself says what
 * was refused.
 */
export interface ScanRefusal {
  readonly raw: string;
  readonly error: UiError;
  readonly from: 'scan' | 'shoe' | 'typed';
}

/** A scan that was not dealt because it came on a screen that deals no card: the dealer must scan it again. */
export interface ScanAway {
  readonly raw: string;
  readonly place: Exclude<ScanPlace, 'deal'>;
  /** The card the service read it as by the scanner's profile (readScan), or null: no card, or not known. */
  readonly card: Card | null;
}

/**
 * The card reads the screens answer: a keyboard-wedge scan dealt where the screen deals cards or
 * kept as not dealt, and the read the service refused last (a scan's, or the shoe's from the state).
 */
export const useScanStore = defineStore('scans', () => {
  const consoleStore = useConsoleStore();
  const scanRefusal = shallowRef<ScanRefusal | null>(null);
  const scanAway = shallowRef<ScanAway | null>(null);

  function follow(next: ConsoleState | null, previous: ConsoleState | null | undefined): void {
    if (next === null) return;
    // A card from the shoe refused: shown where a typed card's refusal is, until the next card is taken.
    const refusal = next.shoeRefusal;
    if (refusal !== null && !sameRefusal(refusal, previous?.shoeRefusal ?? null)) {
      const error: UiError = refusal.said === undefined ? { field: refusal.field, message: refusal.message } : { field: refusal.field, message: refusal.message, said: refusal.said };
      consoleStore.errors.dealCard = error;
      scanRefusal.value = { raw: refusal.card, error, from: 'shoe' };
    }
    // A card taken (from anywhere) settles a scan that was not dealt: the dealer has dealt again.
    const before = cardsTaken(previous ?? null);
    const after = cardsTaken(next);
    if (after.id !== null && after.id === before.id && after.cards > before.cards) scanAway.value = null;
  }

  watch(() => consoleStore.state, follow, { flush: 'sync', immediate: true });

  /** Where a scan would land now (see `ScanPlace`). */
  const scanPlace = computed<ScanPlace>(() => {
    if (consoleStore.state === null) return 'closed';
    const { view, race, game } = consoleStore;
    if (view === 'race') return race !== null ? 'deal' : 'counts';
    if (view === 'points' && game !== null) return 'deal';
    return race !== null || game !== null ? 'elsewhere' : 'closed';
  });

  /** The scan the service refused last, while its refusal is the one shown (no card taken or tried since). */
  const scanRefused = computed<ScanRefusal | null>(() => {
    const refusal = scanRefusal.value;
    const shown = consoleStore.errors.dealCard;
    return refusal !== null && shown != null && toRaw(shown) === toRaw(refusal.error) ? refusal : null;
  });

  /** What a keyboard-wedge scanner typed: the service decodes it as it decodes a frame from the shoe. */
  async function dealScan(raw: string): Promise<Outcome> {
    const outcome = await consoleStore.run('dealScan', raw);
    if (outcome.ok) scanAway.value = null;
    else scanRefusal.value = { raw, error: outcome.error, from: 'scan' };
    return outcome;
  }

  /**
   * A scan from the keyboard-wedge scanner: dealt to the open race or game where the screen deals
   * cards; anywhere else kept as `scanAway` (not dealt, not lost: the dealer is told to scan it again).
   */
  async function scanned(raw: string): Promise<Outcome> {
    const place = scanPlace.value;
    if (place === 'deal') return dealScan(raw);
    // Named by the service's reading (the scanner's profile), never one of the screen's own: shown at once, named when read.
    const away: ScanAway = { raw, place, card: null };
    scanAway.value = away;
    const reading = await consoleStore.run('readScan', raw);
    if (reading.ok && reading.value.card !== null && scanAway.value === away) scanAway.value = { ...away, card: reading.value.card };
    return { ok: false, error: { field: 'scan', message: 'scanned where no card is dealt', key: 'errors.nothingOpen' } };
  }

  /** A card typed in the entry and refused (by the service, or as no card at all): the headline says it too, until the next card. */
  function typedRefused(raw: string, error: UiError): void {
    consoleStore.errors.dealCard = error;
    scanRefusal.value = { raw, error, from: 'typed' };
  }

  function dismissScanAway(): void {
    scanAway.value = null;
  }

  return { scanPlace, scanRefused, scanAway, dealScan, scanned, typedRefused, dismissScanAway };
});

export type ScanStore = ReturnType<typeof useScanStore>;
