// The breaks a table finished before its station left them (floor/fold.ts colourUpReadingOf's
// leftFinished, finishedBreaksOf): a station leaves a break with the clock, and the held break
// still counts the table done with it (floor/hold.ts tablesLeftAt).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colourUpReadingOf, finishedBreaksOf, type TableStatus } from './fold';
import { tablesLeftAt } from './hold';

const at = '2026-12-04T20:00:00.000Z';

type Step =
  | { readonly type: 'mark'; readonly afterLevel: number | null }
  | { readonly type: 'open' }
  | { readonly type: 'confirm' }
  | { readonly type: 'abandon' }
  | { readonly type: 'call' }
  | { readonly type: 'decide' };

const steps = fc.array(
  fc.oneof(
    fc.constantFrom(2, 4, null).map((afterLevel): Step => ({ type: 'mark', afterLevel })),
    fc.constantFrom<Step>({ type: 'open' }, { type: 'confirm' }, { type: 'confirm' }, { type: 'abandon' }, { type: 'call' }, { type: 'decide' }),
  ),
  { maxLength: 30 },
);

/**
 * A table's status records from steps, and the breaks it finished as a plain model says: a break
 * left (play or another break marked) with a race of its colour-up confirmed since it was marked,
 * none of its races open, and what flagged the table then (its last abandon there, or the last
 * call, the later) settled by a decision made since. Races are run only while a break is marked.
 */
function play(sequence: readonly Step[]): { lines: { seq: number; at: string; record: unknown }[]; decisions: { settlesSeq: number; raceId: null }[]; finished: number[] } {
  const lines: { seq: number; at: string; record: unknown }[] = [];
  const add = (record: unknown) => lines.push({ seq: lines.length + 1, at, record }) && lines.length;
  const decisions: { settlesSeq: number; raceId: null }[] = [];
  // Each break marked afresh is a new epoch: a race opened in an earlier one is not this break's.
  let epoch = 0;
  let mark: number | null = null;
  let confirmed = 0;
  let abandonedSeq: number | null = null;
  let calledSeq: number | null = null;
  let open: { raceId: string; epoch: number } | null = null;
  let races = 0;
  const left = new Map<number, number | null>();
  const startRace = () => {
    races += 1;
    const raceId = `race-${races}`;
    add({ kind: 'color-up-race', race: raceId, afterLevel: mark, removed: 25, next: 100 });
    add({ kind: 'race-start', raceId });
    return { raceId, epoch };
  };
  for (const step of sequence) {
    if (step.type === 'mark') {
      if (mark !== null && step.afterLevel !== mark) {
        const flagSeq = Math.max(abandonedSeq ?? 0, calledSeq ?? 0) || null;
        if (confirmed > 0 && open?.epoch !== epoch) left.set(mark, flagSeq);
        else left.delete(mark);
      }
      add({ kind: 'break-marked', afterLevel: step.afterLevel });
      mark = step.afterLevel;
      epoch += 1;
      confirmed = 0;
      abandonedSeq = null;
    } else if (step.type === 'call') {
      calledSeq = add({ kind: 'floor-called', note: 'seat 3 asks' });
    } else if (step.type === 'decide') {
      decisions.push({ settlesSeq: lines.length, raceId: null });
    } else if (step.type === 'open') {
      if (open === null && mark !== null) open = startRace();
    } else {
      const race = open ?? (mark !== null ? startRace() : null);
      if (race === null) continue;
      open = null;
      const seq = add(step.type === 'confirm' ? { kind: 'race-confirm', raceId: race.raceId } : { kind: 'race-abandon', raceId: race.raceId, reason: 'misdeal' });
      if (race.epoch !== epoch) continue;
      if (step.type === 'confirm') confirmed += 1;
      else abandonedSeq = seq;
    }
  }
  const settled = (flagSeq: number | null) => flagSeq === null || decisions.some((decision) => decision.settlesSeq >= flagSeq);
  const finished = [...left.entries()].filter(([, flagSeq]) => settled(flagSeq)).map(([afterLevel]) => afterLevel).sort((a, b) => a - b);
  return { lines, decisions, finished };
}

/** A table as the floor's status has it, on no break now, and the breaks it finished. */
const playing = (table: string, finishedBreaks: number[]): TableStatus => ({
  table, races: 1, valueDelta: 0, lastSeen: null, colourUp: 'not-started', behind: 0, openRace: null, corrections: 0, refusals: 0, abandoned: 0, chips: [], failures: [], foldBehind: 0, foldProblems: [], damaged: [], bring: {}, collect: {}, sheetAfterLevel: 2, finishedBreaks,
});

describe('the breaks a table finished before its station left them', () => {
  it('are those left with a race of the colour-up confirmed, none open, and nothing unsettled flagging the table then; none while its chain failed', () => {
    fc.assert(
      fc.property(steps, (sequence) => {
        const { lines, decisions, finished } = play(sequence);
        const { leftFinished } = colourUpReadingOf(lines, false);
        expect(finishedBreaksOf(leftFinished, decisions, false)).toEqual(finished);
        expect(finishedBreaksOf(leftFinished, decisions, true)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('are remembered whatever the station marks next, and a break left again unfinished is forgotten', () => {
    const { lines } = play([{ type: 'mark', afterLevel: 2 }, { type: 'confirm' }, { type: 'mark', afterLevel: null }]);
    expect(colourUpReadingOf(lines, false).leftFinished).toEqual([{ afterLevel: 2, base: 'done', flag: null }]);
    // Still on the break: not left, so not remembered (its status says it).
    const onBreak = play([{ type: 'mark', afterLevel: 2 }, { type: 'confirm' }]);
    expect(colourUpReadingOf(onBreak.lines, false)).toMatchObject({ base: 'done', leftFinished: [] });
    // Left with a race open: not finished; marked again by hand and left with a race abandoned: not finished.
    expect(play([{ type: 'mark', afterLevel: 2 }, { type: 'confirm' }, { type: 'open' }, { type: 'mark', afterLevel: null }]).finished).toEqual([]);
    const again = play([{ type: 'mark', afterLevel: 2 }, { type: 'confirm' }, { type: 'mark', afterLevel: null }, { type: 'mark', afterLevel: 2 }, { type: 'abandon' }, { type: 'mark', afterLevel: 4 }]);
    expect(colourUpReadingOf(again.lines, false).leftFinished).toEqual([]);
  });

  it('count the table done with the held break, its station playing again', () => {
    const tables = [playing('A', [2]), playing('B', [])];
    expect(tablesLeftAt({ tables }, 2)).toBe(1);
    expect(tablesLeftAt({ tables }, 4)).toBe(2);
    expect(tablesLeftAt({ tables: [playing('A', [2, 4])] }, 4)).toBe(0);
  });

  it('wait for the director when the table was flagged as it left: its decision settles the flag', () => {
    const { lines } = play([{ type: 'mark', afterLevel: 2 }, { type: 'confirm' }, { type: 'call' }, { type: 'mark', afterLevel: null }]);
    const { leftFinished } = colourUpReadingOf(lines, false);
    expect(leftFinished).toEqual([{ afterLevel: 2, base: 'done', flag: { kind: 'floor-called', seq: 5, raceId: null } }]);
    expect(finishedBreaksOf(leftFinished, [], false)).toEqual([]);
    expect(finishedBreaksOf(leftFinished, [{ settlesSeq: 4, raceId: null }], false)).toEqual([]);
    expect(finishedBreaksOf(leftFinished, [{ settlesSeq: 5, raceId: null }], false)).toEqual([2]);
  });
});
