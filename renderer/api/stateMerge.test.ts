import { describe, expect, it } from 'vitest';
import type { ConsoleState } from '../../protocol/contract';
import { createStateMerge } from '../../protocol/stateMerge';

const state = { settings: { language: 'en' }, race: null, history: [] } as unknown as ConsoleState;

describe('pushed state messages', () => {
  it('a patch replaces the parts it names; the others stay the very same objects', () => {
    const merge = createStateMerge();
    expect(merge({ type: 'patch', patch: { race: null } })).toBeNull();
    expect(merge({ type: 'state', state })).toBe(state);
    const patched = merge({ type: 'patch', patch: { lastInput: null } });
    expect(patched).toEqual({ ...state, lastInput: null });
    expect(patched?.history).toBe(state.history);
    expect(patched?.settings).toBe(state.settings);
    const other = { ...state, history: { total: 0, valueDelta: 0, latest: null } };
    expect(merge({ type: 'state', state: other })).toBe(other);
  });
});
