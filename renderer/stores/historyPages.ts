import { ref, shallowRef } from 'vue';
import type { ConsoleState, HistoryEntry, RaceRecord } from '../../protocol/contract';
import type { CommandRunner } from './commandRunner';
import type { Outcome } from './outcomes';

/** Races fetched per history page. */
export const HISTORY_PAGE = 25;

/**
 * The history as the history screen pages through it: the confirmed races fetched so far, a race
 * confirmed since added as it arrives, and the race record open as a slip.
 */
export function useHistoryPages(run: CommandRunner) {
  /** The confirmed races fetched so far (oldest first), from `historyStart` to the latest. */
  const historyEntries = shallowRef<readonly HistoryEntry[]>([]);
  const historyStart = ref(0);
  const historyLoaded = ref(false);
  /** The race record open on the history screen (the slip), if any. */
  const record = shallowRef<RaceRecord | null>(null);

  /** A race confirmed since the pages were fetched arrives as the state's `latest`: added, not fetched again. */
  function followHistory(next: ConsoleState, previous: ConsoleState | null): void {
    if (!historyLoaded.value) return;
    const { total, latest } = next.history;
    const had = historyStart.value + historyEntries.value.length;
    if (total === had) return;
    if (total === had + 1 && latest !== null && previous !== null) historyEntries.value = [...historyEntries.value, latest];
    else {
      // Out of step (a reconnect to a restarted service): fetch afresh when next shown.
      historyLoaded.value = false;
      historyEntries.value = [];
      historyStart.value = 0;
    }
  }

  /** Fetches the latest page of the history (when the history screen opens), or the page before the oldest fetched. */
  async function loadHistory(older = false): Promise<Outcome> {
    const before = older ? historyStart.value : null;
    if (older && before === 0) return { ok: true, value: null };
    const outcome = await run('historyPage', before, HISTORY_PAGE);
    if (!outcome.ok) return outcome;
    const page = outcome.value;
    historyEntries.value = older ? [...page.entries, ...historyEntries.value] : page.entries;
    historyStart.value = page.start;
    historyLoaded.value = true;
    return { ok: true, value: null };
  }

  /** Opens a race's full record (read back from the journal), or closes it (null). */
  async function openRecord(raceId: string | null): Promise<Outcome> {
    if (raceId === null) {
      record.value = null;
      return { ok: true, value: null };
    }
    const outcome = await run('raceRecord', raceId);
    if (!outcome.ok) return outcome;
    record.value = outcome.value;
    return { ok: true, value: null };
  }

  return { historyEntries, historyStart, historyLoaded, record, followHistory, loadHistory, openRecord };
}
