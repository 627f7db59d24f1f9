import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConsoleState } from './contract';
import { mergeState, statePatch } from './stateMerge';

const PARTS = ['settings', 'race', 'source', 'lastInput', 'inputs', 'shoeRefusal', 'history', 'held', 'profiles', 'registration', 'game', 'games', 'plan', 'journal'] as const;

/** A state whose parts are stand-in objects; `changed` parts are new objects in the next one. */
const states = fc.record({ changed: fc.subarray([...PARTS]), nulls: fc.subarray([...PARTS]) }).map(({ changed, nulls }) => {
  const previous = Object.fromEntries(PARTS.map((part) => [part, { part }])) as unknown as ConsoleState;
  const next = Object.fromEntries(PARTS.map((part) => [part, nulls.includes(part) ? null : changed.includes(part) ? { part, again: true } : previous[part]])) as unknown as ConsoleState;
  return { previous, next };
});

describe('the one state merge (main makes patches, the preload and the page merge them)', () => {
  it('merging the patch of two states gives the second, its unchanged parts the very same objects', () => {
    fc.assert(
      fc.property(states, ({ previous, next }) => {
        const merged = mergeState(previous, { type: 'patch', patch: statePatch(previous, next) });
        expect(merged).toEqual(next);
        for (const part of PARTS) expect(merged?.[part]).toBe(next[part]);
      }),
    );
  });

  it('a whole state replaces what was there; a patch before any whole state has nothing to apply to', () => {
    const state = { race: null } as unknown as ConsoleState;
    expect(mergeState(null, { type: 'patch', patch: { race: null } })).toBeNull();
    expect(mergeState(null, { type: 'state', state })).toBe(state);
  });
});
