// A table's status with the director's decisions (floor/fold.ts colourUpReadingOf, settledStatus):
// an abandoned race of the marked break's colour-up or a call of the floor flags the table until a
// decision recorded after it; a chain failure is disputed whatever was decided.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colourUpStatusOf, COLOUR_UP_STATUSES, settledStatus } from './fold';
import { readDecision } from './decisions';
import { isInputError } from '../engine/errors';

/** The decisions of a table whose last one settles records up to `seq` and names no race (null: none made). */
const decidedAt = (seq: number | null) => (seq === null ? [] : [{ settlesSeq: seq, raceId: null }]);

const at = '2026-12-04T20:00:00.000Z';
const mark = { kind: 'break-marked', afterLevel: 6 };
const claim = (race: string) => ({ kind: 'color-up-race', race, afterLevel: 6, removed: 500, next: 1000 });
const start = (raceId: string) => ({ kind: 'race-start', raceId });

type Step = { readonly type: 'abandon' } | { readonly type: 'call' } | { readonly type: 'confirm' } | { readonly type: 'decide' };

/**
 * A table's records and decisions from steps: a break marked, then each step a race of its
 * colour-up run and abandoned or confirmed, a call of the floor, or the director's decision
 * (settling the records so far: its settles_seq).
 */
function play(steps: readonly Step[]): { lines: { seq: number; at: string; record: unknown }[]; decidedThrough: number | null; expected: 'disputed' | 'floor-called' | null } {
  const lines: { seq: number; at: string; record: unknown }[] = [];
  const add = (record: unknown) => lines.push({ seq: lines.length + 1, at, record });
  add(mark);
  let decidedThrough: number | null = null;
  let races = 0;
  // What flags the table: the last abandon or call, and whether a decision came after it.
  const last: { kind: 'disputed' | 'floor-called' | null; settled: boolean } = { kind: null, settled: false };
  for (const step of steps) {
    if (step.type === 'decide') {
      decidedThrough = lines.length;
      last.settled = true;
    } else if (step.type === 'call') {
      add({ kind: 'floor-called', note: 'seat 3 disputes' });
      Object.assign(last, { kind: 'floor-called', settled: false });
    } else {
      races += 1;
      const raceId = `race-${races}`;
      add(claim(raceId));
      add(start(raceId));
      if (step.type === 'abandon') {
        add({ kind: 'race-abandon', raceId, reason: 'misdeal' });
        Object.assign(last, { kind: 'disputed', settled: false });
      } else {
        add({ kind: 'race-confirm', raceId });
      }
    }
  }
  return { lines, decidedThrough, expected: last.settled ? null : last.kind };
}

const steps = fc.array(fc.oneof(fc.constant<Step>({ type: 'abandon' }), fc.constant<Step>({ type: 'call' }), fc.constant<Step>({ type: 'confirm' }), fc.constant<Step>({ type: 'decide' })), { maxLength: 12 });

describe("a table's status with the director's decisions", () => {
  it('is flagged (disputed, floor called: the later) iff no decision follows the last abandon or call, and disputed whatever was decided when its chain failed', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (sequence, chainFailed) => {
        const { lines, decidedThrough, expected } = play(sequence);
        const status = colourUpStatusOf(lines, false, chainFailed, decidedAt(decidedThrough));
        if (chainFailed) expect(status).toBe('disputed');
        else if (expected !== null) expect(status).toBe(expected);
        else expect(status === 'disputed' || status === 'floor-called').toBe(false);
        // Without decisions, the same records flag the table iff one was abandoned or called.
        const undecided = colourUpStatusOf(lines, false, false);
        const flagged = sequence.some((step) => step.type === 'abandon' || step.type === 'call');
        expect(undecided === 'disputed' || undecided === 'floor-called').toBe(flagged);
      }),
      { numRuns: 500 },
    );
  });

  it('clears to the colour-up’s own status once decided: done after a confirmed race, not started before any', () => {
    const called = play([{ type: 'call' }]);
    expect(colourUpStatusOf(called.lines, false, false)).toBe('floor-called');
    expect(colourUpStatusOf(called.lines, false, false, decidedAt(called.lines.length))).toBe('not-started');
    const settled = play([{ type: 'confirm' }, { type: 'abandon' }, { type: 'decide' }]);
    expect(colourUpStatusOf(settled.lines, false, false, decidedAt(settled.decidedThrough))).toBe('done');
    // A decision recorded before the call arrived does not settle it.
    expect(settledStatus('done', { kind: 'floor-called', seq: 9, raceId: null }, decidedAt(8), false)).toBe('floor-called');
    expect(settledStatus('done', { kind: 'floor-called', seq: 9, raceId: null }, decidedAt(9), false)).toBe('done');
    // A decision about another race leaves a flag about its own race (issue 43); one naming no race, or the flag's, settles it.
    const aboutRace2 = { kind: 'disputed', seq: 9, raceId: 'race-2' } as const;
    expect(settledStatus('done', aboutRace2, [{ settlesSeq: 12, raceId: 'race-1' }], false)).toBe('disputed');
    expect(settledStatus('done', aboutRace2, [{ settlesSeq: 12, raceId: 'race-1' }, { settlesSeq: 12, raceId: 'race-2' }], false)).toBe('done');
    expect(settledStatus('done', aboutRace2, [{ settlesSeq: 12, raceId: null }], false)).toBe('done');
    expect(settledStatus('racing', null, decidedAt(null), true)).toBe('disputed');
    expect(COLOUR_UP_STATUSES).toContain('floor-called');
  });

  it('is closed by the floor once the director closed the open race: before its station abandoned it (the decision) and after (its own records, its copy of the decision matching the floor\'s), not disputed', () => {
    const racing = [{ seq: 1, at, record: mark }, { seq: 2, at, record: claim('race-1') }, { seq: 3, at, record: start('race-1') }];
    expect(colourUpStatusOf(racing, false, false)).toBe('racing');
    // The floor's decision on the open race, its station not heard from since.
    expect(colourUpStatusOf(racing, false, false, decidedAt(3), true)).toBe('closed');
    expect(colourUpStatusOf(racing, true, false, decidedAt(3), true)).toBe('closed');
    // The station kept the decision and abandoned the race, with the director's note.
    const decision = { kind: 'floor-decision', id: 4, decision: 'race-closed', note: 'table broken', by: 'Anna', at, raceId: 'race-1' };
    const left = [...racing, { seq: 4, at, record: decision }, { seq: 5, at, record: { kind: 'race-abandon', raceId: 'race-1', reason: 'table broken' } }];
    /** The floor's decision the station's record copies (floor_decisions: id, what, race, note, who). */
    const floors = { id: 4, decision: 'race-closed', raceId: 'race-1', note: 'table broken', by: 'Anna', settlesSeq: 3 } as const;
    expect(colourUpStatusOf(left, false, false, [floors])).toBe('closed');
    // Issue 44: the station's record alone is no decision of the floor's (none in floor_decisions, or
    // one that says something else under its id): the abandon is the dealer's, for the director.
    expect(colourUpStatusOf(left, false, false)).toBe('disputed');
    expect(colourUpStatusOf(left, false, false, decidedAt(3))).toBe('disputed');
    for (const other of [{ id: 5 }, { decision: 'race-stands' }, { raceId: 'race-2' }, { note: 'table broken!' }, { by: 'Ville' }] as const) {
      expect(colourUpStatusOf(left, false, false, [{ ...floors, ...other }]), JSON.stringify(other)).toBe('disputed');
    }
    // A decision on another race does not stand for this one: the abandon is the dealer's, for the director.
    const other = [...racing, { seq: 4, at, record: { ...decision, raceId: 'race-9' } }, { seq: 5, at, record: { kind: 'race-abandon', raceId: 'race-1', reason: 'misdeal' } }];
    expect(colourUpStatusOf(other, false, false, decidedAt(3))).toBe('disputed');
    // The table mended and racing again at the break: racing, then done.
    const again = [...left, { seq: 6, at, record: claim('race-2') }, { seq: 7, at, record: start('race-2') }];
    expect(colourUpStatusOf(again, false, false, [floors])).toBe('racing');
    expect(colourUpStatusOf([...again, { seq: 8, at, record: { kind: 'race-confirm', raceId: 'race-2' } }], false, false, [floors])).toBe('done');
    // A chain failure, or a flag not settled yet, still wins.
    expect(settledStatus('racing', null, decidedAt(null), true, true)).toBe('disputed');
    expect(settledStatus('racing', { kind: 'floor-called', seq: 9, raceId: null }, decidedAt(8), false, true)).toBe('floor-called');
    expect(settledStatus('done', null, decidedAt(null), false, true)).toBe('done');
  });

  it('reads a decision only with what was decided, a note and who decided; a closed race names its race', () => {
    const refusedField = (input: Parameters<typeof readDecision>[0]) => {
      try {
        readDecision(input);
        return null;
      } catch (error) {
        return isInputError(error) ? error.field : 'not an input error';
      }
    };
    expect(readDecision({ table: '7', decision: 'race-stands', note: ' count was right ', by: ' Anna ' })).toEqual({ decision: 'race-stands', note: 'count was right', by: 'Anna', raceId: null });
    expect(refusedField({ table: '7', decision: 'nonsense', note: 'x', by: 'Anna' })).toBe('decision');
    expect(refusedField({ table: '7', decision: 're-race', note: '   ', by: 'Anna' })).toBe('note');
    expect(refusedField({ table: '7', decision: 're-race', note: 'x', by: '' })).toBe('by');
    expect(refusedField({ table: '7', decision: 'race-closed', note: 'table broken', by: 'Anna' })).toBe('race');
    expect(readDecision({ table: '7', decision: 'race-closed', note: 'table broken', by: 'Anna', raceId: 'race-4' }).raceId).toBe('race-4');
  });
});
