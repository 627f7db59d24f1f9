import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from './contract';
import { checkCall, dispatch, type CommandTarget } from './validate';

describe('every IPC call is validated before it reaches the service', () => {
  it.each([
    ['an unknown command', 'deleteEverything', [], 'method'],
    ['a prototype name', '__proto__', [], 'method'],
    ['args that are not a list', 'dealCard', 'As', 'args'],
    ['too many arguments', 'getState', [1], 'args'],
    ['a card that is not text', 'dealCard', [42], 'card'],
    ['an overlong card', 'dealCard', ['A'.repeat(33)], 'card'],
    ['counts that are not a list', 'startRace', [{}], 'counts'],
    ['too many seats', 'previewRace', [Array.from({ length: 11 }, (_, seat) => ({ seat: seat + 1, chips: 1, hasOther: true }))], 'counts'],
    ['a negative chip count', 'startRace', [[{ seat: 1, chips: -1, hasOther: true }]], 'counts[0].chips'],
    ['a fractional chip count', 'startRace', [[{ seat: 1, chips: 1.5, hasOther: true }]], 'counts[0].chips'],
    ['a seat out of range', 'startRace', [[{ seat: 11, chips: 1, hasOther: true }]], 'counts[0].seat'],
    ['a repeated seat', 'startRace', [[{ seat: 1, chips: 1, hasOther: true }, { seat: 1, chips: 2, hasOther: true }]], 'counts[1].seat'],
    ['hasOther not a boolean', 'startRace', [[{ seat: 1, chips: 1, hasOther: 'yes' }]], 'counts[0].hasOther'],
    ['a zero void', 'voidCards', [0, 'x'], 'count'],
    ['a void reason that is not text', 'voidCards', [1, {}], 'reason'],
    ['an unknown export format', 'exportHistory', ['xml'], 'format'],
    ['settings that are not an object', 'saveSettings', [[]], 'settings'],
    ['an unknown game', 'startGame', ['poker', ['A', 'B']], 'game'],
    ['one player', 'startGame', ['chicago', ['A']], 'players'],
    ['a player that is not a name', 'startGame', ['chicago', ['A', 7]], 'players'],
    ['an unknown game action', 'gameAction', [{ type: 'fold' }], 'action.type'],
    ['six discards', 'gameAction', [{ type: 'discard', cards: ['2c', '3c', '4c', '5c', '6c', '7c'] }], 'action.cards'],
    ['a call without a player', 'gameAction', [{ type: 'call' }], 'action.player'],
  ])('refuses %s', (_, method, args, field) => {
    const checked = checkCall(method, args);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error.field).toBe(field);
  });

  it('passes well-formed calls, dropping unknown fields of counts', () => {
    expect(checkCall('startRace', [[{ seat: 1, chips: 7, hasOther: true, extra: 'x' }]])).toEqual({ ok: true, method: 'startRace', args: [[{ seat: 1, chips: 7, hasOther: true }]] });
    expect(checkCall('voidCards', [2])).toEqual({ ok: true, method: 'voidCards', args: [2, ''] });
  });

  it('dispatches only validated calls to the service', async () => {
    const calls: unknown[][] = [];
    const target = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => {
      calls.push([name, ...args]);
      return { ok: true, value: null };
    }])) as unknown as CommandTarget;
    expect(await dispatch(target, 'dealCard', ['As'])).toEqual({ ok: true, value: null });
    expect(await dispatch(target, 'dealCard', [1])).toEqual({ ok: false, error: { field: 'card', message: 'must be text' } });
    expect(await dispatch(target, 'constructor', [])).toMatchObject({ ok: false, error: { field: 'method' } });
    expect(calls).toEqual([['dealCard', 'As']]);
  });
});
