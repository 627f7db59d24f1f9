import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRaceEvents, startRace, type RaceEvent, type RaceState } from '../engine/race/race';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import type { HistoryEntry } from '../protocol/contract';
import type { KeptDecision } from './colourUpReading';
import { Followers } from './follower';
import { isSessionRecord, type RaceRecall, type SessionRecord } from './session';
import type { FoldLine } from './tableFold';
import { applyLine, applyLines, INITIAL_TABLE, readTableCheckpoint, restoreTable, serializeTable, TableProjection, type TableState } from './tableProjection';

// One table projection (issue 45): for any journal, folding it at once, in random batches, record
// by record, or on from a checkpoint serialized and restored at a random cut gives the same table
// state; and that state says what the station's own projection (TableProjection, the object its
// followers registry holds: station/service/followers.ts) says of the same records, read whole or
// resumed from its own checkpoint at a random cut.

const RACE = {
  rules: 'classic',
  removed: 25,
  next: 100,
  button: 3,
  decks: 1,
  seats: [1, 2, 3, 4, 5].map((seat) => ({ seat, name: `P${seat}`, chips: seat + 1, other: seat === 5 ? 0 : 100 })),
};
const COUNTS = RACE.seats.map(({ seat, chips, other }) => ({ seat, chips, hasOther: other > 0 }));
const NAMES = Object.fromEntries(RACE.seats.map(({ seat, name }) => [seat, name]));

/** The floor's decisions on the table: a station's `floor-decision` record with an odd id copies one of these, one with an even id is forged. */
const FLOOR_DECIDED: KeptDecision[] = Array.from({ length: 100 }, (_, index) => ({ id: 2 * index + 1, decision: 'race-closed', raceId: `race-${index + 1}`, note: 'table broken', by: 'Dana' }));

/** The cards a race of RACE takes to complete (a shuffled shoe's: a few more may be needed, then it stays open). */
const CARDS_NEEDED = startRace(RACE).plan.cardsNeeded;

const rarely = fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0);
const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('race' as const), claimed: fc.boolean(), end: fc.constantFrom('confirm', 'confirm', 'abandon', 'closed', 'forged-close', 'open'), damagedAt: fc.option(fc.integer({ min: 0, max: 12 }), { freq: 8 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('start' as const), claimed: fc.boolean() }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constant('card' as const), stale: rarely, misread: rarely }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), count: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('refused' as const), stale: rarely }) },
  { weight: 3, arbitrary: fc.constant({ op: 'confirm' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'abandon' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('mark' as const), level: fc.option(fc.integer({ min: 1, max: 3 })) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('call' as const), named: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('decide' as const), forged: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('exchange' as const), late: fc.boolean(), count: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'damaged' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'junk' as const }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/**
 * The journal the steps write (as the floor stores it: a damaged line's record null): races
 * (claimed by the marked break's colour-up or not), cards (stale, misread), confirmations,
 * abandons, breaks marked, calls of the floor, decisions (the floor's own or forged), exchanges
 * outside a race, damaged lines and, with `junk`, lines the floor passes over (a number beyond
 * any, a time it cannot show).
 */
function journalOf(steps: readonly Step[], seed: number, junk: boolean): FoldLine[] {
  const shoe = shuffleDecks(1, seededRandom(seed));
  let dealt = 0;
  let started = 0;
  let open: string | null = null;
  let mark: number | null = null;
  let decided = 0;
  const lines: FoldLine[] = [];
  const write = (record: unknown, at: string | null = `2026-11-29T${String(12 + Math.floor(lines.length / 60) % 12).padStart(2, '0')}:${String(lines.length % 60).padStart(2, '0')}:00.000Z`) => lines.push({ seq: lines.length + 1, at, record });
  const raceId = (stale = false) => (stale || open === null ? `race-${started + 7}` : open);
  for (const entry of steps) {
    switch (entry.op) {
      case 'race': {
        // A whole race, its cards enough to complete it: claimed by the marked break's colour-up or
        // not; confirmed, abandoned, closed on the floor (the floor's decision or a forged one) then
        // abandoned, or left open; a line of it damaged, perhaps.
        if (open !== null) break;
        const id = `race-${started + 1}`;
        if (entry.claimed && mark !== null) write({ kind: 'color-up-race', race: id, afterLevel: mark, removed: 25, next: 100 });
        write({ kind: 'race-start', raceId: id, race: RACE, counts: COUNTS, names: NAMES, ...(mark === null ? {} : { level: mark }) } satisfies SessionRecord);
        started += 1;
        open = id;
        for (let card = 0; card < CARDS_NEEDED; card += 1) {
          if (card === entry.damagedAt) write(null);
          write({ kind: 'race-event', raceId: id, event: { type: 'card', card: shoe[dealt++ % shoe.length] as string }, source: 'shoe' });
        }
        if (entry.end === 'open') break;
        if (entry.end === 'closed' || entry.end === 'forged-close') {
          decided += 1;
          const floors = FLOOR_DECIDED[started - 1] as KeptDecision;
          write({ kind: 'floor-decision', ...floors, ...(entry.end === 'forged-close' ? { note: 'made up' } : {}), at: '2026-11-29T12:00:00.000Z' });
        }
        write(entry.end === 'confirm' ? { kind: 'race-confirm', raceId: id } : { kind: 'race-abandon', raceId: id, reason: 'test' });
        open = null;
        break;
      }
      case 'start': {
        const id = `race-${started + 1}`;
        if (entry.claimed && mark !== null) write({ kind: 'color-up-race', race: id, afterLevel: mark, removed: 25, next: 100 });
        write({ kind: 'race-start', raceId: id, race: RACE, counts: COUNTS, names: NAMES, ...(mark === null ? {} : { level: mark }) } satisfies SessionRecord);
        if (open === null) {
          started += 1;
          open = id;
        }
        break;
      }
      case 'card':
        write({ kind: 'race-event', raceId: raceId(entry.stale), event: { type: 'card', card: entry.misread ? 'Xx' : (shoe[dealt++ % shoe.length] as string) }, source: 'shoe' });
        break;
      case 'void':
        write({ kind: 'race-event', raceId: raceId(), event: { type: 'void', count: entry.count, reason: 'misdealt' }, source: 'manual' });
        break;
      case 'refused':
        write({ kind: 'refused', raceId: raceId(entry.stale), input: 'As', reason: 'already dealt', source: 'shoe' });
        break;
      case 'confirm':
        write({ kind: 'race-confirm', raceId: raceId() });
        break;
      case 'abandon':
        write({ kind: 'race-abandon', raceId: raceId(), reason: 'test' });
        open = null;
        break;
      case 'mark':
        write({ kind: 'break-marked', afterLevel: entry.level });
        mark = entry.level;
        break;
      case 'call':
        write({ kind: 'floor-called', note: 'seat 3', ...(entry.named && open !== null ? { raceId: open } : {}) });
        break;
      case 'decide': {
        decided += 1;
        const floors = FLOOR_DECIDED[(decided - 1) % FLOOR_DECIDED.length] as KeptDecision;
        const decision = { ...floors, raceId: open ?? floors.raceId, ...(entry.forged ? { id: 2 * decided } : {}) };
        write({ kind: 'floor-decision', ...decision, at: '2026-11-29T12:00:00.000Z' });
        break;
      }
      case 'exchange':
        write({ kind: 'chip-exchange', reason: entry.late ? 'late-found' : 'discretionary', raceId: entry.late ? `race-${Math.max(1, started)}` : null, seat: null, removed: 25, count: entry.count, next: 100, note: 'under the rail' });
        break;
      case 'damaged':
        write(null);
        break;
      case 'junk':
        if (junk) {
          write({ kind: 'race-start', raceId: `race-${started + 1}`, race: RACE, counts: [{ seat: 1, chips: 1e12, hasOther: true }], names: {} });
          write({ kind: 'break-marked', afterLevel: 2 }, null);
        }
        break;
    }
  }
  return lines;
}

/** The floor's decisions as the store gives them: those on the table (all of them, whatever the batch). */
const decisions = FLOOR_DECIDED;

const atOnce = (lines: readonly FoldLine[]): TableState => applyLines(INITIAL_TABLE, lines, decisions);

/** Folded in batches cut at `cuts` (fractions of the journal), each batch on from the state the last left. */
function inBatches(lines: readonly FoldLine[], cuts: readonly number[]): TableState {
  const at = [...new Set(cuts.map((cut) => Math.floor(cut * lines.length)))].sort((a, b) => a - b);
  let state = INITIAL_TABLE;
  let from = 0;
  for (const to of [...at, lines.length]) {
    state = applyLines(state, lines.slice(from, to), decisions);
    from = to;
  }
  return state;
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const journals = (junk: boolean) => fc.tuple(fc.array(step, { maxLength: 60, size: 'max' }), fc.integer()).map(([steps, seed]) => journalOf(steps, seed, junk));

/**
 * A confirmed race's state made again from its lines, as the station's recall makes it from the
 * journal file (station/service/raceRecall.ts): its start, and its cards and voids replayed.
 */
const recallOf = (lines: readonly FoldLine[]): RaceRecall => (entry: HistoryEntry): RaceState => {
  let state: RaceState | null = null;
  const events: RaceEvent[] = [];
  for (const { seq, record } of lines) {
    if (seq < entry.seqs.first || seq > entry.seqs.last || !isSessionRecord(record) || !('raceId' in record) || record.raceId !== entry.id) continue;
    if (record.kind === 'race-start') state = startRace(record.race);
    else if (record.kind === 'race-event') events.push(record.event);
  }
  if (state === null) throw new Error(`race ${entry.id}: no start`);
  return applyRaceEvents(state, events).state;
};

/**
 * The station's projection of the lines, fed through a registry of its followers as the station's
 * start feeds them (a damaged line is not read: the session sees its seq missing), taken up first
 * from `checkpoint` when given. Its colour-up reading takes the floor's decisions as the floor does.
 */
function stationRead(lines: readonly FoldLine[], checkpoint?: Record<string, unknown>, journal: readonly FoldLine[] = lines): { projection: TableProjection; registry: Followers } {
  const projection = new TableProjection(recallOf(journal), { decisions: () => decisions });
  const registry = new Followers(projection.followersWith());
  if (checkpoint !== undefined) registry.restore(checkpoint);
  for (const line of lines) if (line.record !== null) registry.add({ seq: line.seq, at: line.at as string, record: line.record }, { start: 0, end: 0 });
  projection.session.started();
  return { projection, registry };
}

/** What the floor's table state and the station's projection both say of a table. */
function expectSame(table: TableState, { projection }: { projection: TableProjection }): void {
  const { session } = projection.session;
  expect(asJson(table.history)).toEqual(asJson(session.history));
  expect(table.openRace).toBe(session.race?.id ?? null);
  expect(table.exchanges.map(({ afterLevel: _level, ...exchange }) => exchange)).toEqual(projection.chipExchanges.view.exchanges);
  expect(table.races.filter((race) => race.status === 'confirmed').map((race) => race.raceId)).toEqual(session.history.filter((entry) => entry.damaged?.confirmed !== false).map((entry) => entry.id));
  expect(table.reading).toEqual(projection.readingNow());
  const progress = projection.colorUps.progress(table.reading.marked, session.race?.id ?? null);
  if (progress === null) expect(table.reading.base).toBe('not-started');
  else if (progress.running !== null) expect(['racing', 'waiting-to-confirm']).toContain(table.reading.base);
  else expect(['done', 'closed', 'not-started']).toContain(table.reading.base);
}

describe('the table projection', () => {
  it('is the same folded at once, in random batches, record by record, and on from a checkpoint serialized and restored at a random cut', () => {
    fc.assert(
      fc.property(journals(true), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }), fc.double({ min: 0, max: 1, noNaN: true }), (lines, cuts, cutAt) => {
        const whole = atOnce(lines);
        expect(asJson(inBatches(lines, cuts))).toEqual(asJson(whole));
        expect(asJson(lines.reduce((state, line) => applyLine(state, line, decisions), applyLines(INITIAL_TABLE, [], decisions)))).toEqual(asJson(whole));
        const cut = Math.floor(cutAt * lines.length);
        const restored = restoreTable(serializeTable(applyLines(INITIAL_TABLE, lines.slice(0, cut), decisions)));
        expect(asJson(applyLines(restored, lines.slice(cut), decisions))).toEqual(asJson(whole));
        // The checkpoint alone (what the floor keeps in floor_table_state.replay) is plain JSON that reads back.
        expect(readTableCheckpoint(asJson(whole.checkpoint))).toEqual(asJson(whole.checkpoint));
      }),
      { numRuns: 300 },
    );
  });

  it("says what the station's own projection says of the same records: its history, its open race, its exchanges, its colour-up reading", () => {
    fc.assert(
      fc.property(journals(false), fc.double({ min: 0, max: 1, noNaN: true }), (lines, cutAt) => {
        const table = atOnce(lines);
        const whole = stationRead(lines);
        expectSame(table, whole);
        // Started from the station's checkpoint (its followers' states as JSON, taken up by a fresh
        // projection), then the journal's lines after it: what a restarted station knows.
        const cut = Math.floor(cutAt * lines.length);
        const before = stationRead(lines.slice(0, cut));
        const snapshot = asJson(before.registry.snapshot()) as Record<string, unknown>;
        expectSame(table, stationRead(lines.slice(cut), snapshot, lines));
        expect(Object.keys(snapshot).sort()).toEqual(['chipExchanges', 'colorUps', 'colourUpReading', 'floorDecisions', 'session']);
      }),
      { numRuns: 300 },
    );
  });

  it("reads, at the station, the director's decisions the station journaled as the floor's own; the floor reads them only against its floor_decisions", () => {
    const records = [
      { kind: 'break-marked', afterLevel: 1 },
      { kind: 'color-up-race', race: 'race-1', afterLevel: 1, removed: 25, next: 100 },
      { kind: 'race-start', raceId: 'race-1', race: RACE, counts: COUNTS, names: NAMES, level: 1 },
      { kind: 'floor-decision', id: 4, decision: 'race-closed', raceId: 'race-1', note: 'table broken', by: 'Dana', at: '2026-11-29T12:00:00.000Z' },
      { kind: 'race-abandon', raceId: 'race-1', reason: 'closed on the floor' },
    ];
    const lines: FoldLine[] = records.map((record, index) => ({ seq: index + 1, at: `2026-11-29T12:0${index}:00.000Z`, record }));
    const station = new TableProjection(() => {
      throw new Error('no race confirmed');
    });
    const registry = new Followers(station.followersWith());
    for (const line of lines) registry.add({ seq: line.seq, at: line.at as string, record: line.record }, { start: 0, end: 0 });
    station.session.started();
    expect(station.readingNow()).toEqual({ base: 'closed', flag: null, leftFinished: [], marked: 1 });
    expect(station.floorDecisions.all.map((decision) => decision.id)).toEqual([4]);
    // The floor: the same, when the decision is one of its own; a race abandoned under dispute when it is not.
    const floors = [{ id: 4, decision: 'race-closed', raceId: 'race-1', note: 'table broken', by: 'Dana' }];
    expect(applyLines(INITIAL_TABLE, lines, floors).reading).toEqual(station.readingNow());
    expect(applyLines(INITIAL_TABLE, lines, []).reading).toMatchObject({ flag: { kind: 'disputed', seq: 5, raceId: 'race-1' }, marked: 1 });
  });
});
