import type { StationView } from './ports';
import { journalPath } from '../../journal/location';
import { HISTORY_PAGE_MAX, type ChipExchangeNote, type CommandResult, type FloorDecisionNote, type HistoryEntry, type HistoryPage, type RaceFloorFacts, type RaceRecord } from '../../protocol/contract';
import { historyCsvChunks, historyJsonChunks } from '../../replay/historyExport';
import { csvLanguage, decisionWordIn, separatorFor, type CsvSeparator, type OffsetOf } from '../../replay/csv';
import type { RaceSpans } from './raceSpans';
import { writeChunksAtomically } from './atomicWrite';
import { ok, refused } from './failures';
import type { Kernel } from './kernel';
import { readRaceRecord } from './raceRecord';

export type ExportFormat = 'csv' | 'json';

/** Where an export was saved (null: the dealer closed the dialog without choosing a file). */
export type ExportSaved = { readonly file: string } | null;

/** How the station asks the dealer where to save an export (Electron's save dialog), given the file name it suggests; null: cancelled. */
export type ChooseExportFile = (suggested: string, format: ExportFormat) => Promise<string | null>;

/** About how many characters each piece of an export holds: pages of races rather than one race a write. */
export const EXPORT_PIECE_CHARS = 64 * 1024;

/** The history's export as streamed: its pieces, and the file name it is offered under. */
export interface HistoryExport {
  readonly file: string;
  readonly pieces: Iterable<string>;
}

/** What the station's journal keeps on a race beside the race's own records: the slip and the exports carry them. */
export interface BesideRace {
  /** The director's decisions on a race (replay/floorDecisions.ts). */
  readonly floorDecisions: { forRace(raceId: string): readonly FloorDecisionNote[] };
  /** A race's chips found after it and exchanged (replay/chipExchange.ts). */
  readonly chipExchanges: { forRace(raceId: string): readonly ChipExchangeNote[] };
  /** The floor's facts in force at a journal line (station/service/floorFacts.ts): a race's record says those it started under. */
  readonly floorFacts: { at(seq: number): RaceFloorFacts | undefined };
}

const NOTHING_BESIDE: BesideRace = { floorDecisions: { forRace: () => [] }, chipExchanges: { forRace: () => [] }, floorFacts: { at: () => undefined } };

/** A race's entry or record with what is kept beside it, each only when there is some (absent when none, as before either was kept). */
function withBeside<T extends HistoryEntry | RaceRecord>(race: T, beside: BesideRace): T {
  const decisions = beside.floorDecisions.forRace(race.id);
  const exchanges = beside.chipExchanges.forRace(race.id);
  if (decisions.length === 0 && exchanges.length === 0) return race;
  return { ...race, ...(decisions.length === 0 ? {} : { floorDecisions: decisions }), ...(exchanges.length === 0 ? {} : { chipExchanges: exchanges }) };
}

/** The first `count` entries of a history that only grows, one at a time: the export's snapshot without copying it. */
function* firstOf(history: readonly HistoryEntry[], count: number): Generator<HistoryEntry, void, undefined> {
  for (let index = 0; index < count; index++) yield history[index] as HistoryEntry;
}

/** Small pieces joined into pieces of about `size` characters (the last may be shorter). */
export function* paged(pieces: Iterable<string>, size = EXPORT_PIECE_CHARS): Generator<string, void, undefined> {
  let page: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    page.push(piece);
    length += piece.length;
    if (length >= size) {
      yield page.join('');
      page = [];
      length = 0;
    }
  }
  if (page.length > 0) yield page.join('');
}

/** The confirmed races as the screens and the floor supervisor read them: pages, a race's full record, the exports. */
export class HistoryCommands {
  constructor(
    private readonly kernel: Kernel,
    private readonly dataDir: string,
    private readonly raceSpans: RaceSpans,
    /** The station as it stands: the session's history, and the station's language (the CSV's separator). */
    private readonly view: Pick<StationView, 'session' | 'settings'>,
    private readonly exports: {
      readonly clock?: (() => Date) | undefined;
      readonly chooseExportFile?: ChooseExportFile | undefined;
      /** The local-time columns' time zone (the station's own unless told: tests pin it). */
      readonly offsetOf?: OffsetOf | undefined;
    } = {},
    private readonly beside: BesideRace = NOTHING_BESIDE,
  ) {}

  /** Each entry with what is kept beside it (one at a time, as the export reads them). */
  private *withBeside(entries: Iterable<HistoryEntry>): Generator<HistoryEntry, void, undefined> {
    for (const entry of entries) yield withBeside(entry, this.beside);
  }

  history(): readonly HistoryEntry[] {
    return this.view.session().history;
  }

  /**
   * The history's export as it stands now (the races confirmed so far, the journal's report now),
   * produced piece by piece as it is read: a page of races at a time, each race's summary made for
   * its row and let go, so what the export holds stays one page however long the history. The
   * snapshot is taken between commands; the reading runs beside them (the history only grows, and
   * a confirmed race's lines never change). The CSV starts with a byte-order mark and is separated
   * by `separator`, else as the station's language's office expects (replay/csv.ts).
   */
  async historyExport(format: ExportFormat, separator?: CsvSeparator): Promise<HistoryExport> {
    let made: HistoryExport | null = null;
    await this.kernel.serial(async () => {
      const history = this.history();
      const races = this.withBeside(firstOf(history, history.length));
      const journal = this.kernel.journalReport;
      const stamp = (this.exports.clock?.() ?? new Date()).toISOString().slice(0, 10);
      // The station's language: the CSV's separator (',' for en, ';' for fi and ru) unless an export asks for one.
      const language = this.view.settings().language;
      // The decisions in the station's words, as its screens and slip say them (the JSON keeps the keys beside words: historyJsonChunks).
      const csv = { separator: separator ?? separatorFor(language), offsetOf: this.exports.offsetOf, decisionWord: decisionWordIn(csvLanguage(language)) };
      made = { file: `chip-races-${stamp}.${format}`, pieces: paged(format === 'csv' ? historyCsvChunks(races, journal, csv) : historyJsonChunks(races, journal)) };
      return ok(undefined);
    });
    if (made === null) throw new Error('the history could not be read for its export');
    return made;
  }

  /**
   * The export written to a file the dealer chooses (the Electron window's save dialog), streamed
   * and atomically (the file appears whole or not at all, its owner's only); browser mode has no
   * dialog here: its page downloads the export from /export/history.{csv,json} (station/web/exportRoute.ts).
   */
  async exportHistory(format: ExportFormat): Promise<CommandResult<ExportSaved>> {
    const choose = this.exports.chooseExportFile;
    if (choose === undefined) return refused('format', { key: 'service.history.exportNoDialog' });
    const { file, pieces } = await this.historyExport(format);
    const path = await choose(file, format);
    if (path === null) return ok(null);
    try {
      await writeChunksAtomically(path, pieces);
    } catch (error) {
      return refused('file', { key: 'service.history.exportRefused', params: { file: path, why: (error as Error).message } });
    }
    return ok({ file: path });
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
      const damaged = this.history().find((entry) => entry.id === raceId)?.damaged;
      const record = span === undefined ? null : await readRaceRecord(journalPath(this.dataDir), raceId, span, this.kernel.journalReport, damaged);
      if (record === null) return refused('race', { key: 'service.notInJournal', params: { race: raceId } });
      const floorFacts = this.beside.floorFacts.at(record.seqs.first);
      return ok(withBeside(floorFacts === undefined ? record : { ...record, floorFacts }, this.beside));
    });
  }
}
