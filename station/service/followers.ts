import { ColorUpLog } from '../../replay/colorUps';
import { Followers, type JournalFollower } from '../../replay/follower';
import { ChipExchanges } from '../../replay/chipExchange';
import { StationClock, type ClockTimers } from './clock';
import { FloorDecisions } from '../../replay/floorDecisions';
import { FloorFacts } from './floorFacts';
import { raceRecall } from './raceRecall';
import { RaceSpans } from './raceSpans';
import { SessionProjection } from '../../replay/sessionProjection';

/**
 * The station's journal followers: the one list that start-up (each line as the journal is read)
 * and every write feed alike, so what a restarted console knows is what the running one knew. A
 * new projection is added here (or, in a test, through `extra`) and nowhere else.
 */
export interface StationFollowers {
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
  readonly registry: Followers;
  /**
   * Where the checkpoints of these followers are written (start-up sets it once the journal is read):
   * told of the quiet moments (a race confirmed), and waited for when the station closes.
   */
  checkpoint: { dueSoon(): void; settled(): Promise<void> };
}

const NO_CHECKPOINTS: StationFollowers['checkpoint'] = { dueSoon: () => undefined, settled: async () => undefined };

export function stationFollowers(journal: string, timers?: ClockTimers, extra: readonly JournalFollower[] = []): StationFollowers {
  const colorUps = new ColorUpLog();
  const clock = new StationClock(timers);
  const raceSpans = new RaceSpans();
  const floorDecisions = new FloorDecisions();
  const floorFacts = new FloorFacts();
  const chipExchanges = new ChipExchanges();
  // A confirmed race's summary is made from its lines in the journal, when first read.
  const session = new SessionProjection(raceRecall(journal, raceSpans));
  // The session last: a command's decided step that no longer fits throws there, after every
  // other follower has the line the journal now holds.
  return {
    session, colorUps, clock, raceSpans, floorDecisions, floorFacts, chipExchanges,
    registry: new Followers([colorUps, clock, raceSpans, floorDecisions, floorFacts, chipExchanges, ...extra, session]),
    checkpoint: NO_CHECKPOINTS,
  };
}
