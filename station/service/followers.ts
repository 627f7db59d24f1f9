import type { ColorUpLog } from '../../replay/colorUps';
import type { ColourUpReading } from '../../replay/colourUpReading';
import { Followers, type JournalFollower } from '../../replay/follower';
import type { ChipExchanges } from '../../replay/chipExchange';
import { StationClock, type ClockTimers } from './clock';
import type { FloorDecisions } from '../../replay/floorDecisions';
import { FloorFacts } from './floorFacts';
import { raceRecall } from './raceRecall';
import { RaceSpans } from './raceSpans';
import type { SessionProjection } from '../../replay/sessionProjection';
import { TableProjection } from '../../replay/tableProjection';

/**
 * The station's journal followers: the one list that start-up (each line as the journal is read)
 * and every write feed alike, so what a restarted console knows is what the running one knew. The
 * table's projection (replay/tableProjection.ts TableProjection: the session, the colour-ups, the
 * floor's decisions, the exchanges, the colour-up reading, as the floor's fold reads them too)
 * and, beside it, the station's own (the clock, the race spans, the floor's facts). A new
 * projection is added here (or, in a test, through `extra`) and nowhere else.
 */
export interface StationFollowers {
  /** The table's projection: its parts are the fields below (session, colorUps, floorDecisions, chipExchanges, colourUpReading). */
  readonly table: TableProjection;
  readonly session: SessionProjection;
  /** How far the colour-up of the break marked last has come. */
  readonly colorUps: ColorUpLog;
  /** The tournament clock (the station's own, or the floor's). */
  readonly clock: StationClock;
  /** Where each race's lines are in the journal file, for reading a race's record back. */
  readonly raceSpans: RaceSpans;
  /** The dealer's calls of the floor and the director's decisions (replay/floorDecisions.ts). */
  readonly floorDecisions: FloorDecisions;
  /** The floor's tournament and seating the station works under (station/service/floorFacts.ts). */
  readonly floorFacts: FloorFacts;
  /** Chips exchanged outside a race: late-found, colour-ups of a player (replay/chipExchange.ts). */
  readonly chipExchanges: ChipExchanges;
  /** The table's colour-up status as the floor reads it (replay/colourUpReading.ts). */
  readonly colourUpReading: ColourUpReading;
  readonly registry: Followers;
  /**
   * Where the checkpoints of these followers are written (start-up sets it once the journal is read):
   * told of the quiet moments (a race confirmed), and waited for when the station closes.
   */
  checkpoint: { dueSoon(): void; settled(): Promise<void> };
}

const NO_CHECKPOINTS: StationFollowers['checkpoint'] = { dueSoon: () => undefined, settled: async () => undefined };

export function stationFollowers(journal: string, timers?: ClockTimers, extra: readonly JournalFollower[] = []): StationFollowers {
  const clock = new StationClock(timers);
  const raceSpans = new RaceSpans();
  const floorFacts = new FloorFacts();
  // A confirmed race's summary is made from its lines in the journal, when first read.
  const table = new TableProjection(raceRecall(journal, raceSpans));
  return {
    table, session: table.session, colorUps: table.colorUps, clock, raceSpans, floorDecisions: table.floorDecisions, floorFacts, chipExchanges: table.chipExchanges, colourUpReading: table.reading,
    // The session last (TableProjection.followersWith): a command's decided step that no longer
    // fits throws there, after every other follower has the line the journal now holds.
    registry: new Followers(table.followersWith([clock, raceSpans, floorFacts, ...extra])),
    checkpoint: NO_CHECKPOINTS,
  };
}
