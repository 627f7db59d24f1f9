import type { JournalLine } from '../../journal/read';
import type { FollowerCheckpoint, JournalFollower } from '../../replay/follower';
import type { RaceFloorFacts } from '../../protocol/races';
import { FLOOR_FACT_KINDS, isFloorRecord, type FloorSeats, type FloorTournament } from '../../replay/floorRecords';

/** One of the floor's facts as the journal holds it: the fact (null: the station's own again) and the line that journaled it. */
export interface JournaledFact<F> {
  readonly fact: F | null;
  /** The journal's seq of the record (0: none journaled yet). */
  readonly seq: number;
  /** When it was journaled (the line's time); null: none journaled yet. */
  readonly at: string | null;
}

/** The floor's facts the station works under, each as last journaled. */
export interface FloorFactsView {
  readonly tournament: JournaledFact<FloorTournament>;
  readonly seating: JournaledFact<FloorSeats>;
}

const NONE = { fact: null, seq: 0, at: null } as const;

/**
 * The floor's tournament and this table's seating as the station's journal holds them
 * (replay/floorRecords.ts `floor-tournament`, `floor-seating`): the last of each. The station's
 * effective settings are its own overlaid by these (station/service/stationSettings.ts), so a restart
 * knows them from the journal alone, the floor out of reach or not; a race's record says the
 * ones it ran under.
 */
export class FloorFacts implements JournalFollower {
  readonly kinds = FLOOR_FACT_KINDS;
  private view: FloorFactsView = { tournament: NONE, seating: NONE };
  /**
   * Every fact journaled, in order, as a race's record names it (RaceFloorFacts): a fact changes a
   * few times an evening (a tournament loaded, a seat changed), so the list stays short.
   */
  private changes: FactChange[] = [];

  readonly checkpoint: FollowerCheckpoint = {
    name: 'floorFacts',
    snapshot: () => ({ ...this.view, changes: this.changes }),
    restore: (state) => {
      const { tournament, seating, changes } = (state ?? {}) as { tournament?: JournaledFact<unknown>; seating?: JournaledFact<unknown>; changes?: unknown };
      const journaled = (fact: JournaledFact<unknown> | undefined, kind: string, key: string): boolean =>
        fact !== undefined && Number.isSafeInteger(fact.seq) && (fact.fact === null || isFloorRecord({ kind, [key]: fact.fact }));
      if (!journaled(tournament, 'floor-tournament', 'tournament') || !journaled(seating, 'floor-seating', 'seating') || !Array.isArray(changes)) throw new Error('floor facts: not the facts a journal holds');
      this.view = { tournament: tournament as JournaledFact<FloorTournament>, seating: seating as JournaledFact<FloorSeats> };
      this.changes = changes as FactChange[];
    },
  };

  add(line: JournalLine<unknown>): void {
    const record = line.record;
    if (!isFloorRecord(record)) return;
    if (record.kind === 'floor-tournament') {
      this.view = { ...this.view, tournament: { fact: record.tournament, seq: line.seq, at: line.at } };
      this.changes = [...this.changes, { seq: line.seq, at: line.at, tournament: record.tournament !== null }];
    } else if (record.kind === 'floor-seating') {
      this.view = { ...this.view, seating: { fact: record.seating, seq: line.seq, at: line.at } };
      this.changes = [...this.changes, { seq: line.seq, at: line.at, seating: record.seating?.version ?? null }];
    }
  }

  get current(): FloorFactsView {
    return this.view;
  }

  /** The facts in force at journal line `seq` (a race's first): absent when neither was the floor's. */
  at(seq: number): RaceFloorFacts | undefined {
    let tournament: RaceFloorFacts['tournament'] | undefined;
    let seating: RaceFloorFacts['seating'] | undefined;
    for (let index = this.changes.length - 1; index >= 0 && (tournament === undefined || seating === undefined); index -= 1) {
      const change = this.changes[index] as FactChange;
      if (change.seq >= seq) continue;
      if (tournament === undefined && change.tournament !== undefined) tournament = change.tournament ? { seq: change.seq, at: change.at } : null;
      if (seating === undefined && change.seating !== undefined) seating = change.seating === null ? null : { seq: change.seq, version: change.seating };
    }
    if ((tournament ?? null) === null && (seating ?? null) === null) return undefined;
    return { tournament: tournament ?? null, seating: seating ?? null };
  }
}

/** One fact journaled: the tournament's (taken or given back), or the seating's version (null: given back). */
interface FactChange {
  readonly seq: number;
  readonly at: string;
  readonly tournament?: boolean;
  readonly seating?: number | null;
}
