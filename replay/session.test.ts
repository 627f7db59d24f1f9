import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishText } from '../engine/messages';
import { startRace } from '../engine/race/race';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import type { JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import type { HistoryEntry } from '../protocol/contract';
import { applySessionLine, EMPTY_SESSION, replaySession, SessionReplay, stepSession, valueDeltaOf, type Session, type SessionRecord } from './session';

/** Five seats of 25s raced into 100s from one deck: a handful of cards a race. */
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

/**
 * What a journal can hold, fitting or not: races started (again while one is open), cards from the
 * shoe or misread, voids, refusals, confirmations (also too early), abandons, records for a race
 * that is not open, and a points game in between.
 */
const rarely = fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0);
const step = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ op: 'start' as const }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constant('card' as const), stale: rarely, misread: rarely }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), count: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('refused' as const), stale: rarely }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('refused-again' as const), stale: rarely, count: fc.integer({ min: 1, max: 5000 }) }) },
  { weight: 3, arbitrary: fc.constant({ op: 'confirm' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'abandon' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'game' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'close-game' as const }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** The journal the steps write; ids name the race or game open at that point (or, when `stale`, another). */
function journalOf(steps: readonly Step[], seed: number): JournalLine<SessionRecord>[] {
  const shoe = shuffleDecks(1, seededRandom(seed));
  let dealt = 0;
  let session = EMPTY_SESSION;
  const lines: JournalLine<SessionRecord>[] = [];
  for (const entry of steps) {
    const raceId = (stale = false) => (stale || !session.race ? `race-${session.racesStarted + 7}` : session.race.id);
    const gameId = session.game?.id ?? `game-${session.gamesStarted}`;
    const record = ((): SessionRecord => {
      switch (entry.op) {
        case 'start':
          return { kind: 'race-start', raceId: `race-${session.racesStarted + 1}`, race: RACE, counts: COUNTS, names: NAMES };
        case 'card':
          return { kind: 'race-event', raceId: raceId(entry.stale), event: { type: 'card', card: entry.misread ? 'Xx' : (shoe[dealt++ % shoe.length] as string) }, source: 'shoe' };
        case 'void':
          return { kind: 'race-event', raceId: raceId(), event: { type: 'void', count: entry.count, reason: 'misdealt' }, source: 'manual' };
        case 'refused':
          return { kind: 'refused', raceId: raceId(entry.stale), input: 'As', reason: 'already dealt', source: 'shoe' };
        case 'refused-again':
          return { kind: 'refused-again', raceId: raceId(entry.stale), of: Math.max(1, lines.length), count: entry.count };
        case 'confirm':
          return { kind: 'race-confirm', raceId: raceId() };
        case 'abandon':
          return { kind: 'race-abandon', raceId: raceId(), reason: 'test' };
        case 'game':
          return { kind: 'game-event', gameId: `game-${session.gamesStarted + 1}`, event: { type: 'start', game: 'pistepokeri', players: ['A', 'B'] }, source: 'manual' };
        case 'close-game':
          return { kind: 'game-close', gameId, reason: 'test' };
      }
    })();
    const line = { seq: lines.length + 1, at: `2026-11-29T12:${String(lines.length % 60).padStart(2, '0')}:00.000Z`, record };
    lines.push(line);
    session = oneByOne([line], session).session;
  }
  return lines;
}

/** The definition: every line through the reducer in turn, a line that does not fit skipped and reported. */
function oneByOne(lines: readonly JournalLine<SessionRecord>[], from: Session = EMPTY_SESSION): { session: Session; problems: JournalFinding[] } {
  let session = from;
  const problems: JournalFinding[] = [];
  for (const line of lines) {
    try {
      session = applySessionLine(session, line);
    } catch (error) {
      problems.push({ code: 'skipped', seq: line.seq, kind: line.record.kind, reason: (error as Error).message });
    }
  }
  return { session, problems };
}

/**
 * The replay with each problem's reason in English only, once its `said` (the same in keys, for
 * the screens) is checked to say exactly that English.
 */
function inEnglish(replayed: { session: Session; problems: JournalFinding[] }): { session: Session; problems: JournalFinding[] } {
  const problems = replayed.problems.map((problem) => {
    if (problem.code !== 'skipped' || problem.said === undefined) return problem;
    const { said, ...rest } = problem;
    expect(englishText(said)).toBe(rest.reason);
    return rest;
  });
  return { ...replayed, problems };
}

describe('session replay', () => {
  it('rebuilds exactly the session, and reports exactly the problems, of applying the lines one by one', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120, size: 'max' }), fc.integer(), (steps, seed) => {
        const lines = journalOf(steps, seed);
        expect(inEnglish(replaySession(lines))).toEqual(oneByOne(lines));
      }),
      { numRuns: 1000 },
    );
  });

  it('takes lines as they are read, so the journal need not be held in memory', () => {
    const lines = journalOf([{ op: 'start' }, ...Array.from({ length: startRace(RACE).plan.cardsNeeded }, () => ({ op: 'card' as const, stale: false, misread: false })), { op: 'confirm' }], 1);
    const replay = new SessionReplay();
    for (const line of lines) replay.add(line);
    const { session, problems } = replay.finish();
    expect(problems).toEqual([]);
    expect(session.history.map((entry) => entry.id)).toEqual(['race-1']);
    expect(session).toEqual(oneByOne(lines).session);
  });

  it('makes a replayed race’s summary only when it is read, and then it is the very data the reducer makes', () => {
    const lines = journalOf([{ op: 'start' }, ...Array.from({ length: startRace(RACE).plan.cardsNeeded }, () => ({ op: 'card' as const, stale: false, misread: false })), { op: 'confirm' }], 3);
    const replayed = replaySession(lines).session.history[0] as HistoryEntry;
    const reduced = oneByOne(lines).session.history[0] as HistoryEntry;
    // Not made yet: a long journal's start confirms thousands of races nobody looks at.
    expect(Object.getOwnPropertyDescriptor(replayed, 'summary')?.get).toBeTypeOf('function');
    // The totals do not make it either.
    expect(valueDeltaOf(replayed)).toBe(reduced.summary.valueDelta);
    expect(Object.getOwnPropertyDescriptor(replayed, 'summary')?.get).toBeTypeOf('function');
    // What a page, the IPC (structured clone) and an export get is the same data.
    expect(structuredClone(replayed)).toEqual(structuredClone(reduced));
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(reduced));
    // Made once, then a plain value.
    expect(Object.getOwnPropertyDescriptor(replayed, 'summary')?.value).toBe(replayed.summary);
    expect(valueDeltaOf(replayed)).toBe(reduced.summary.valueDelta);
  });
});

describe('the reducer run once per event (the service: checked before the write, applied after it)', () => {
  it('gives the session of applying the lines in turn, also when a count of repeated refusals is written in between', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120, size: 'max' }), fc.integer(), fc.integer({ min: 1, max: 50 }), (steps, seed, repeats) => {
        const lines = journalOf(steps, seed);
        let session = EMPTY_SESSION;
        for (const line of lines) {
          const expected = oneByOne([line], session).session;
          let checked: ReturnType<typeof stepSession>;
          try {
            checked = stepSession(session, line.record);
          } catch {
            // Refused before anything is written: the reducer one by one skips it as well. But for a
            // start while a race or game is open: refused live, while a journal's such line ends the
            // open one as damaged (a line the journal could not read ended it) and starts; and a
            // confirmation of the open race not complete ends it as damaged.
            const record = line.record;
            const starts = record.kind === 'race-start' || (record.kind === 'game-event' && record.event.type === 'start');
            const confirmsOpen = record.kind === 'race-confirm' && session.race?.id === record.raceId;
            if (!((starts && (session.race !== null || session.game !== null)) || confirmsOpen)) expect(expected).toBe(session);
            session = expected;
            continue;
          }
          expect(checked(session, line)).toEqual(expected);
          // The journal writes a run's count of repeated refusals before the next record (ConsoleService.save).
          if (session.race !== null) {
            const counted = applySessionLine(session, { seq: line.seq, at: line.at, record: { kind: 'refused-again', raceId: session.race.id, of: 1, count: repeats } });
            expect(checked(counted, line)).toEqual(applySessionLine(counted, line));
          }
          session = expected;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses to apply a step to a session whose race has changed since it was checked', () => {
    const start = applySessionLine(EMPTY_SESSION, { seq: 1, at: '2026-11-29T12:00:00.000Z', record: { kind: 'race-start', raceId: 'race-1', race: RACE, counts: COUNTS, names: NAMES } });
    const card = shuffleDecks(1, seededRandom(1))[0] as string;
    const checked = stepSession(start, { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card }, source: 'shoe' });
    const moved = applySessionLine(start, { seq: 2, at: '2026-11-29T12:00:01.000Z', record: { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card }, source: 'shoe' } });
    expect(() => checked(moved, { seq: 3, at: '2026-11-29T12:00:02.000Z' })).toThrow(/changed before its line was written/);
  });
});

describe('a journal with a line it could not read (issue 44)', () => {
  const at = (seq: number) => `2026-11-29T12:00:${String(seq).padStart(2, '0')}.000Z`;
  /** Two races of a whole journal, each confirmed: race-1's lines 1 to n, race-2's after them. */
  function twoRaces(): JournalLine<SessionRecord>[] {
    const shoe = shuffleDecks(1, seededRandom(5));
    const records: SessionRecord[] = [];
    for (const raceId of ['race-1', 'race-2']) {
      records.push({ kind: 'race-start', raceId, race: RACE, counts: COUNTS, names: NAMES });
      let session = replaySession(records.map((record, index) => ({ seq: index + 1, at: at(index + 1), record }))).session;
      for (let card = 0; session.race?.state.progress.status !== 'complete'; card += 1) {
        records.push({ kind: 'race-event', raceId, event: { type: 'card', card: shoe[card] as string }, source: 'shoe' });
        session = replaySession(records.map((record, index) => ({ seq: index + 1, at: at(index + 1), record }))).session;
      }
      records.push({ kind: 'race-confirm', raceId });
    }
    return records.map((record, index) => ({ seq: index + 1, at: at(index + 1), record }));
  }
  const replayed = (lines: readonly JournalLine<SessionRecord>[], missing: number) => {
    const replay = new SessionReplay(EMPTY_SESSION, [], undefined, { gaps: true });
    for (const line of lines) if (line.seq !== missing) replay.add(line);
    return replay.finish();
  };

  it('ends the race whose confirmation is lost as damaged when the next one starts, and replays the next as written', () => {
    const lines = twoRaces();
    const whole = replaySession(lines).session;
    const confirm = lines.find((line) => line.record.kind === 'race-confirm') as JournalLine<SessionRecord>;
    const { session, problems } = replayed(lines, confirm.seq);
    expect(problems).toEqual([]);
    expect(session.history.map((entry) => [entry.id, entry.damaged])).toEqual([['race-1', { seq: confirm.seq, confirmed: false }], ['race-2', undefined]]);
    expect(JSON.parse(JSON.stringify(session.history[1]))).toEqual(JSON.parse(JSON.stringify(whole.history[1])));
    expect(session.racesStarted).toBe(2);
  });

  it('ends a race confirmed with a card missing as damaged, and counts a race whose start is lost (its id never given again)', () => {
    const lines = twoRaces();
    const firstCard = lines.find((line) => line.record.kind === 'race-event') as JournalLine<SessionRecord>;
    const cut = replayed(lines, firstCard.seq).session;
    expect(cut.history[0]?.damaged).toEqual({ seq: firstCard.seq, confirmed: true });
    expect(cut.history[1]?.damaged).toBeUndefined();
    const secondStart = lines.findLast((line) => line.record.kind === 'race-start') as JournalLine<SessionRecord>;
    const { session, problems } = replayed(lines, secondStart.seq);
    expect(session.history.map((entry) => entry.id)).toEqual(['race-1']);
    expect(problems.every((problem) => problem.code === 'skipped' && problem.seq > secondStart.seq)).toBe(true);
    expect(session.racesStarted).toBe(2);
  });

  it('says a misfit without a stack: the journal’s, not the code’s, and cheap when a journal holds many', () => {
    let thrown: unknown;
    try {
      applySessionLine(EMPTY_SESSION, { seq: 1, at: at(1), record: { kind: 'race-confirm', raceId: 'race-1' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/not open/);
    expect((thrown as Error).stack ?? '').not.toMatch(/\n\s+at /);
  });
});
