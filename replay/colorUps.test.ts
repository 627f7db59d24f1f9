// The races raced off at the break marked last (ColorUpLog.racedOffAt), as a model says on any
// run of the colour-up's records, and the same from a checkpoint taken anywhere as from the whole
// journal: a restart refuses exactly the second races the running console refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../journal/read';
import { ColorUpLog } from './colorUps';

const LEVELS = [2, 4, 6] as const;
const CHIPS = [25, 100] as const;

type Step =
  | { readonly t: 'mark'; readonly level: number | null }
  | { readonly t: 'start'; readonly removed: number; readonly claim: boolean }
  | { readonly t: 'end'; readonly confirm: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constant('mark' as const), level: fc.constantFrom<number | null>(null, ...LEVELS) }),
  fc.record({ t: fc.constant('start' as const), removed: fc.constantFrom(...CHIPS), claim: fc.boolean() }),
  fc.record({ t: fc.constant('end' as const), confirm: fc.boolean() }),
);

/** The journal's lines the steps make (a start while a race is open, an end with none: no line), with the model's answer after each. */
function linesOf(steps: readonly Step[]) {
  const lines: JournalLine<unknown>[] = [];
  const answers: Map<string, string | null>[] = [];
  let mark: number | null = null;
  let open: { id: string; removed: number; counts: boolean } | null = null;
  let raced: { id: string; removed: number }[] = [];
  let races = 0;
  const write = (record: unknown) => lines.push({ seq: lines.length + 1, at: new Date(Date.UTC(2026, 0, 1, 0, lines.length)).toISOString(), record });
  for (const next of steps) {
    if (next.t === 'mark') {
      mark = next.level;
      raced = [];
      if (open !== null) open.counts = false;
      write({ kind: 'break-marked', afterLevel: next.level });
    } else if (next.t === 'start') {
      if (open !== null) continue;
      races += 1;
      const id = `race-${races}`;
      if (next.claim && mark !== null) write({ kind: 'color-up-race', race: id, afterLevel: mark, removed: next.removed, next: 500 });
      write({ kind: 'race-start', raceId: id, race: { removed: next.removed, next: 500 } });
      open = { id, removed: next.removed, counts: mark !== null };
    } else {
      if (open === null) continue;
      write({ kind: next.confirm ? 'race-confirm' : 'race-abandon', raceId: open.id });
      if (next.confirm && open.counts) raced.push(open);
      open = null;
    }
    const answer = new Map<string, string | null>();
    for (const level of LEVELS) for (const removed of CHIPS) answer.set(`${level} ${removed}`, level === mark ? (raced.find((race) => race.removed === removed)?.id ?? null) : null);
    answers[lines.length - 1] = answer;
  }
  return { lines, answers };
}

const said = (log: ColorUpLog) => new Map(LEVELS.flatMap((level) => CHIPS.map((removed) => [`${level} ${removed}`, log.racedOffAt(level, removed)?.raceId ?? null] as const)));

describe('the races raced off at the break marked last', () => {
  it('are every race confirmed since the break was marked, claimed by its colour-up or not; none while playing', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { lines, answers } = linesOf(steps);
        const log = new ColorUpLog();
        lines.forEach((line, index) => {
          log.add(line);
          const answer = answers[index];
          if (answer !== undefined) expect(said(log)).toEqual(answer);
        });
      }),
    );
  });

  it('are the same from a checkpoint taken after any line as from the whole journal', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(), (steps, at) => {
        const { lines } = linesOf(steps);
        const cut = lines.length === 0 ? 0 : at % (lines.length + 1);
        const whole = new ColorUpLog();
        const before = new ColorUpLog();
        for (const line of lines.slice(0, cut)) before.add(line);
        const resumed = new ColorUpLog();
        resumed.checkpoint.restore(JSON.parse(JSON.stringify(before.checkpoint.snapshot())));
        for (const line of lines) whole.add(line);
        for (const line of lines.slice(cut)) resumed.add(line);
        expect(said(resumed)).toEqual(said(whole));
        for (const level of LEVELS) expect(resumed.progress(level, null)).toEqual(whole.progress(level, null));
      }),
    );
  });

  it('a checkpoint written before they were kept is not taken up (the start replays the journal)', () => {
    const log = new ColorUpLog();
    expect(() => log.checkpoint.restore({ mark: 4, claimed: null, races: [], done: [] })).toThrow(/not a colour-up log/);
  });
});
