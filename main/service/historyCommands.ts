import { journalPath } from '../../journal/location';
import { HISTORY_PAGE_MAX, type CommandResult, type HistoryEntry, type HistoryPage, type RaceRecord } from '../../protocol/contract';
import { historyCsv, historyJson } from '../../replay/historyExport';
import type { RaceSpans } from './raceSpans';
import type { Session } from '../../replay/session';
import { ok, refused } from './failures';
import type { Kernel } from './kernel';
import { readRaceRecord } from './raceRecord';

/** The confirmed races as the screens and the floor supervisor read them: pages, a race's full record, the exports. */
export class HistoryCommands {
  constructor(
    private readonly kernel: Kernel,
    private readonly dataDir: string,
    private readonly raceSpans: RaceSpans,
    private readonly session: () => Session,
  ) {}

  history(): readonly HistoryEntry[] {
    return this.session().history;
  }

  exportHistory(format: 'csv' | 'json'): Promise<CommandResult<string>> {
    return this.kernel.serial(async () => ok(format === 'csv' ? historyCsv(this.history(), this.kernel.journalReport) : historyJson(this.history(), this.kernel.journalReport)));
  }

  /** Confirmed races before index `before` (null: the latest), at most `count` of them. */
  historyPage(before: number | null, count: number): Promise<CommandResult<HistoryPage>> {
    return this.kernel.serial(async () => {
      const history = this.history();
      const end = before === null ? history.length : before;
      if (!Number.isInteger(end) || end < 0 || end > history.length) return refused('before', { key: 'service.history.before', params: { total: history.length, got: String(before) } });
      if (!Number.isInteger(count) || count < 1 || count > HISTORY_PAGE_MAX) return refused('count', { key: 'command.wholeRange', params: { min: 1, max: HISTORY_PAGE_MAX } });
      const start = Math.max(0, end - count);
      return ok({ total: history.length, start, entries: history.slice(start, end) });
    });
  }

  /** A race's full record, read back from the journal at the lines its span index knows. */
  raceRecord(raceId: string): Promise<CommandResult<RaceRecord>> {
    return this.kernel.serial(async () => {
      const span = this.raceSpans.of(raceId);
      const record = span === undefined ? null : await readRaceRecord(journalPath(this.dataDir), raceId, span, this.kernel.journalReport);
      return record === null ? refused('race', { key: 'service.notInJournal', params: { race: raceId } }) : ok(record);
    });
  }
}
