import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../engine/errors';
import { seatCountDrafts, textOf } from '../../protocol/argumentChecks';
import type { SeatCount, SeatCountDraft, TableSettings } from '../../protocol/contract';
import { object, parse, type Infer } from '../../protocol/schema';
import { writeFileAtomically } from './atomicWrite';

/** The file in the data folder that keeps the counts being typed for the next race across a restart. */
export const COUNT_DRAFTS_FILE = 'count-drafts.json';

/**
 * The count-draft file: the race they are for (the next race's id), the table they were typed at
 * (countsTableKey) and the counts, read by the same schema as saveCountDrafts' argument.
 */
const COUNT_DRAFTS_FILE_SHAPE = object({ race: textOf(64), table: textOf(4096), counts: seatCountDrafts }, { key: 'command.notObject' });
type CountDraftsFile = Infer<typeof COUNT_DRAFTS_FILE_SHAPE>;

/** What makes typed counts meaningless when it changes: the seats in play and the chips raced. */
export const countsTableKey = (table: TableSettings): string => JSON.stringify({ seats: table.seats.map((seat) => seat.seat), removed: table.removed, next: table.next });

/**
 * The counts being typed for the table's next race, empty fields (null) included: kept for every
 * window (the state carries them) and across a restart (COUNT_DRAFTS_FILE, written atomically).
 * They are the dealer's notes, not a record of the race: the journal gets the counts the race
 * starts with, in its race-start; a race abandoned gives them back (restore) for its re-race. A disk that refuses the file only loses them over a restart.
 */
export class CountDrafts {
  private drafts: readonly SeatCountDraft[] = [];

  constructor(private readonly dataDir: string) {}

  /** The counts typed; the same object until they change. */
  get current(): readonly SeatCountDraft[] {
    return this.drafts;
  }

  /**
   * The counts kept in the data folder, when they are still for this table's next race (a file left
   * from before a race started, or a table since changed, is not); anything else read there: none.
   */
  async load(nextRace: string, table: TableSettings): Promise<void> {
    try {
      const file = parse(COUNT_DRAFTS_FILE_SHAPE, JSON.parse(await readFile(join(this.dataDir, COUNT_DRAFTS_FILE), 'utf8')));
      if (file.race !== nextRace || file.table !== countsTableKey(table)) return;
      const drafts = file.counts;
      if (drafts.every((draft) => table.seats.some((seat) => seat.seat === draft.seat))) this.drafts = drafts;
    } catch {
      // none kept, none readable, or refused by its schema: nothing typed yet
    }
  }

  /** Keeps the counts typed for `nextRace` at `table` (a seat not at the table is refused); whether they changed. */
  async save(counts: readonly SeatCountDraft[], nextRace: string, table: TableSettings): Promise<boolean> {
    counts.forEach((count, index) => {
      if (!table.seats.some((seat) => seat.seat === count.seat)) throw new InputError(`counts[${index}].seat`, { key: 'service.seatNotAtTable', params: { seat: count.seat, seats: table.seats.map((seat) => seat.seat).join(', ') } });
    });
    const drafts = [...counts].sort((a, b) => a.seat - b.seat).map(({ seat, chips, hasOther }) => ({ seat, chips, hasOther }));
    if (JSON.stringify(drafts) === JSON.stringify(this.drafts)) return false;
    this.drafts = drafts;
    const file: CountDraftsFile = { race: nextRace, table: countsTableKey(table), counts: drafts };
    await writeFileAtomically(join(this.dataDir, COUNT_DRAFTS_FILE), `${JSON.stringify(file)}\n`).catch(() => undefined);
    return true;
  }

  /**
   * The counts of a race just abandoned, back as the drafts for its re-race (`nextRace`): the
   * dealer corrects the one that was wrong instead of typing them all again (issue 41). Seats no
   * longer at the table are left out. Whether they changed.
   */
  async restore(counts: readonly SeatCount[], nextRace: string, table: TableSettings): Promise<boolean> {
    const atTable = counts.filter((count) => table.seats.some((seat) => seat.seat === count.seat));
    return this.save(atTable.map(({ seat, chips, hasOther }) => ({ seat, chips, hasOther })), nextRace, table);
  }

  /** The counts are a race's now, or another table's: gone, here and on disk. */
  async clear(): Promise<void> {
    if (this.drafts.length === 0) return;
    this.drafts = [];
    await rm(join(this.dataDir, COUNT_DRAFTS_FILE), { force: true }).catch(() => undefined);
  }
}
