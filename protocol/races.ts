/** A race as the screens and the floor see it (its counts, its view, its full record read back from the journal), and the history of confirmed races and games, and a race's full record read back from the journal. */
import type { Message, MessageKey } from '../engine/messages';
import type { SeatCountShape } from './argumentChecks';
import type { GameName } from '../engine/poker/rules';
import type { RaceSummary } from '../engine/race/summary';
import type { WhatIf } from '../engine/race/whatIf';
import type { ChipExchange, ChipExchangeResult } from '../engine/race/exchange';
import type { ChainStatus, JournalFinding } from '../journal/findings';

/** One seat's count before the race: its leaving chips, and whether it has any other chips. */
export type SeatCount = SeatCountShape;

/** Where a race was run: the table's name, the station that ran it, the colour-up level it belongs to (each when known). */
export interface RacePlace {
  /** The table's name or number when the race started (TableSettings.name). */
  readonly table?: string;
  /** The station (the computer) the race was run on. */
  readonly station?: string;
  /** The level after which the break of the colour-up this race ran a race of falls. */
  readonly level?: number;
}

export interface RaceView {
  readonly id: string;
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
  /**
   * Once the race is complete: what each rule set, and the house's own settings, would have given
   * with these counts and the seats' own cards (engine/race/whatIf.ts); absent or null before.
   */
  readonly whatIf?: WhatIf | null;
}

/** A voided card, kept on record with why (see the engine's Correction). */
export interface VoidedCard {
  readonly card: string;
  readonly seat: number;
  readonly round: number;
  readonly reason: string;
}

export interface HistoryEntry extends RacePlace {
  readonly id: string;
  readonly startedAt: string;
  readonly confirmedAt: string;
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
  /** The dealer on duty when it was confirmed (absent when none was named). */
  readonly confirmedBy?: string;
  readonly voided: readonly VoidedCard[];
  /** Cards and corrections the race refused (misreads, repeats), counted with their repeats. */
  readonly refusals: number;
  /** The journal records the race spans: its start and its confirmation. */
  readonly seqs: { readonly first: number; readonly last: number };
  /**
   * A race a damaged journal line belongs to, or was written while it was open (replay/session.ts):
   * shown as it replayed. `seq`: the first such line the journal could not read (null when the
   * replay could not tell which);
   * `confirmed`: the journal holds its confirmation (the result shown is what its readable lines
   * make), false: its confirmation (or abandon) is lost with it, the next race started after it.
   */
  readonly damaged?: RaceDamage;
  /** The director's decisions on the race (the floor's, kept on the station's journal), oldest first: attached by the exports only, absent when none. */
  readonly floorDecisions?: readonly FloorDecisionNote[];
  /** Chips of the race found after it (TDA 24C), oldest first: attached by the exports only, absent when none. */
  readonly chipExchanges?: readonly ChipExchangeNote[];
}

/** What a damaged journal line did to a race (HistoryEntry's and RaceRecord's `damaged`). */
export interface RaceDamage {
  readonly seq: number | null;
  readonly confirmed: boolean;
}

/**
 * Whether the history counts a race as confirmed (its totals, its running total, the exports'):
 * every race on it but one a damaged line cut short, whose confirmation (or abandon) is lost.
 */
export const countsAsConfirmed = (entry: Pick<HistoryEntry, 'damaged'>): boolean => entry.damaged?.confirmed !== false;

/**
 * Chips exchanged at equal value outside a race, as the station keeps it (a `chip-exchange`
 * record) and shows it: the exchange as recorded, what it gives (exchangeAtEqualValue, read from
 * its numbers whenever it is shown, never stored), its journal record and when it was written.
 */
export interface ChipExchangeNote extends ChipExchange, ChipExchangeResult {
  readonly seq: number;
  readonly at: string;
}

/** The exchanges the station recorded (late-found chips, colour-ups outside a race), oldest first, and the value they took off in all (0 or less). */
export interface ChipExchangesView {
  readonly exchanges: readonly ChipExchangeNote[];
  readonly valueDelta: number;
}

/** The station's dealings with the floor as the screens see them: the dealer's last call not yet answered by a decision, and the latest decisions, oldest first. */
export interface FloorCallsView {
  readonly called: { readonly at: string; readonly note: string; readonly raceId: string | null } | null;
  readonly decisions: readonly FloorDecisionNote[];
}

/** What the director may decide on a disputed or called table (the floor's floor_decisions, migration 10). */
export type FloorDecisionKind = 're-race' | 'race-stands' | 'chips-adjusted' | 'race-closed';
export const FLOOR_DECISIONS: readonly FloorDecisionKind[] = ['re-race', 'race-stands', 'chips-adjusted', 'race-closed'];
/** The director's decisions as every screen says them: the floor's pages, the station's notice and its slip. */
export const DECISION_WORDS: Readonly<Record<FloorDecisionKind, MessageKey>> = {
  're-race': 'floor.decision.kind.reRace',
  'race-stands': 'floor.decision.kind.raceStands',
  'chips-adjusted': 'floor.decision.kind.chipsAdjusted',
  'race-closed': 'floor.decision.kind.raceClosed',
};

/** A decision of the floor on this table, as its station keeps it (a `floor-decision` record) and shows it: `at` ISO time, `by` who decided, `raceId` the race it is about (null: none named). */
export interface FloorDecisionNote {
  readonly id: number;
  readonly decision: FloorDecisionKind;
  readonly note: string;
  readonly by: string;
  readonly at: string;
  readonly raceId: string | null;
}

/** The history as every state carries it: the totals and the race confirmed last. Pages come from `historyPage`. */
export interface HistorySummary {
  /** The races on the history (its pages count these), those a damaged line cut short among them. */
  readonly total: number;
  /** Races on it a damaged line cut short before their end (not confirmed: `countsAsConfirmed`); absent: none. */
  readonly unconfirmed?: number;
  /** Chip value created (removed when negative) by all confirmed races (not those cut short). */
  readonly valueDelta: number;
  readonly latest: HistoryEntry | null;
}

/** Confirmed races `start` … `start + entries.length - 1` (0 is the first ever), oldest first. */
export interface HistoryPage {
  readonly total: number;
  readonly start: number;
  readonly entries: readonly HistoryEntry[];
}

/** Where an input came from: typed or tapped, the serial shoe or reader, or a keyboard-wedge scanner. */
export type InputSource = 'manual' | 'shoe' | 'scanner';

/** One line of a race's record, as the floor reads it: what happened, when, from where. */
export type RaceRecordEvent =
  | { readonly seq: number; readonly at: string; readonly type: 'start' }
  | { readonly seq: number; readonly at: string; readonly type: 'card'; readonly card: string; readonly seat: number; readonly round: number; readonly source: InputSource; readonly held: boolean; readonly readAt?: number }
  | { readonly seq: number; readonly at: string; readonly type: 'void'; readonly voided: readonly VoidedCard[] }
  /** `reason` in English; `said` the same in keys, when the station recorded it and this version can say it. */
  /** `again`: the records that said it came again (`count` holds their times), each listed with it so the record's numbering has no gap. */
  | { readonly seq: number; readonly at: string; readonly type: 'refused'; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource; readonly count: number; readonly again?: readonly number[] }
  | { readonly seq: number; readonly at: string; readonly type: 'confirm'; readonly by?: string }
  | { readonly seq: number; readonly at: string; readonly type: 'abandon'; readonly reason: string }
  /** The dealer called the floor from the station about this race (`note`: what the dealer wrote, '' for none). */
  | { readonly seq: number; readonly at: string; readonly type: 'floor-called'; readonly note: string }
  /** The director's decision on this race, as the station's link read it from the floor: `decidedAt` the floor's time of it, `at` when the station wrote it down. */
  | { readonly seq: number; readonly at: string; readonly type: 'floor-decision'; readonly decision: FloorDecisionKind; readonly by: string; readonly note: string; readonly decidedAt: string };

/** The journal records a line of a race's record stands for: its own, and a refusal's "came again" records with it. */
export function eventSeqs(event: RaceRecordEvent): readonly number[] {
  return event.type === 'refused' && event.again !== undefined ? [event.seq, ...event.again] : [event.seq];
}

/** A race's full record, read back from the journal: what settles a dispute. */
export interface RaceRecord extends RacePlace {
  readonly id: string;
  readonly status: 'open' | 'confirmed' | 'abandoned';
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly events: readonly RaceRecordEvent[];
  readonly seqs: { readonly first: number; readonly last: number };
  /** The seal of the race's last record: a copy on a signed slip proves later that nothing was changed. */
  readonly lastSeal: string | null;
  /** The chain as checked when the record was read, and what it found within the race's records. */
  readonly chain: ChainStatus;
  readonly findings: readonly JournalFinding[];
  /** The director's decisions on the race, oldest first (the station's journal keeps them): absent when none. */
  readonly floorDecisions?: readonly FloorDecisionNote[];
  /** Chips of the race found after it and exchanged (TDA 24C), oldest first: absent when none. */
  readonly chipExchanges?: readonly ChipExchangeNote[];
  /** The floor's tournament and seating it ran under (station/service/floorFacts.ts): absent when it ran under the station's own. */
  readonly floorFacts?: RaceFloorFacts;
  /** Once its deal is complete: what each rule set, and the house's own, would have given (engine/race/whatIf.ts); null before. */
  readonly whatIf?: WhatIf | null;
  /**
   * A line of the race the journal could not read (as on its history entry): the record is what
   * its readable lines make. `confirmed` false: its end is lost, it was not confirmed.
   */
  readonly damaged?: RaceDamage;
}

/** Which of the floor's facts a race ran under: each the journal's record of it (null: the station's own). */
export interface RaceFloorFacts {
  /** The floor's tournament: the line that journaled it, and when. */
  readonly tournament: { readonly seq: number; readonly at: string } | null;
  /** This table's seating: the floor's version of it, and the line that journaled it. */
  readonly seating: { readonly seq: number; readonly version: number } | null;
}

export interface GameHistoryEntry {
  readonly id: string;
  readonly game: GameName;
  readonly players: readonly string[];
  readonly deals: number;
  readonly scores: Readonly<Record<string, number>>;
  readonly winner: string | null;
  readonly closedAt: string;
  /** A game a damaged journal line belongs to, as for a race (HistoryEntry's `damaged`). */
  readonly damaged?: RaceDamage;
}
