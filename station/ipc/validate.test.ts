import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../protocol/commands';
import { checkCall, dispatch, type CommandTarget } from './validate';

describe('every IPC call is validated before it reaches the service', () => {
  it.each([
    ['an unknown command', 'deleteEverything', [], 'method'],
    ['a prototype name', '__proto__', [], 'method'],
    ['args that are not a list', 'dealCard', 'As', 'args'],
    ['too many arguments', 'getState', [1], 'args'],
    ['a card that is not text', 'dealCard', ['race-1', 42], 'card'],
    ['an overlong card', 'dealCard', ['race-1', 'A'.repeat(33)], 'card'],
    ['a card for nothing named', 'dealCard', ['As'], 'target'],
    ['a card for an id that is no race or game', 'dealCard', ['race-1; drop', 'As'], 'target'],
    ['a void for no race named', 'voidCards', [1, 'x'], 'race'],
    ['a confirmation that names no race', 'confirmRace', [], 'race'],
    ['an abandon that names no race', 'abandonRace', ['wrong table'], 'race'],
    ['a game action for no game named', 'gameAction', [{ type: 'next-deal' }], 'game'],
    ['closing no game named', 'closeGame', ['bye'], 'game'],
    ['a held card not named', 'takeHeldCard', ['race-1'], 'held'],
    ['a held card of another kind', 'discardHeldCard', ['race-1', '1'], 'held'],
    ['a history page before a negative race', 'historyPage', [-1, 10], 'before'],
    ['a history page of 101 races', 'historyPage', [null, 101], 'count'],
    ['a record of no race', 'raceRecord', ['../journal.jsonl'], 'race'],
    ['counts that are not a list', 'startRace', [{}], 'counts'],
    ['too many seats', 'previewRace', [Array.from({ length: 11 }, (_, seat) => ({ seat: seat + 1, chips: 1, hasOther: true }))], 'counts'],
    ['a negative chip count', 'startRace', [[{ seat: 1, chips: -1, hasOther: true }]], 'counts[0].chips'],
    ['a fractional chip count', 'startRace', [[{ seat: 1, chips: 1.5, hasOther: true }]], 'counts[0].chips'],
    ['a seat out of range', 'startRace', [[{ seat: 11, chips: 1, hasOther: true }]], 'counts[0].seat'],
    ['a repeated seat', 'startRace', [[{ seat: 1, chips: 1, hasOther: true }, { seat: 1, chips: 2, hasOther: true }]], 'counts[1].seat'],
    ['hasOther not a boolean', 'startRace', [[{ seat: 1, chips: 1, hasOther: 'yes' }]], 'counts[0].hasOther'],
    ['a zero void', 'voidCards', ['race-1', 0, 'x'], 'count'],
    ['a void reason that is not text', 'voidCards', ['race-1', 1, {}], 'reason'],
    ['an unknown export format', 'exportHistory', ['xml'], 'format'],
    ['settings that are not an object', 'saveSettings', [[]], 'settings'],
    ['an unknown game', 'startGame', ['poker', ['A', 'B']], 'game'],
    ['one player', 'startGame', ['chicago', ['A']], 'players'],
    ['a player that is not a name', 'startGame', ['chicago', ['A', 7]], 'players'],
    ['an unknown game action', 'gameAction', ['game-1', { type: 'fold' }], 'action.type'],
    ['six discards', 'gameAction', ['game-1', { type: 'discard', cards: ['2c', '3c', '4c', '5c', '6c', '7c'] }], 'action.cards'],
    ['a call without a player', 'gameAction', ['game-1', { type: 'call' }], 'action.player'],
  ])('refuses %s', (_, method, args, field) => {
    const checked = checkCall(method, args);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error.field).toBe(field);
  });

  it('passes well-formed calls, dropping unknown fields of counts', () => {
    expect(checkCall('startRace', [[{ seat: 1, chips: 7, hasOther: true, extra: 'x' }]])).toEqual({ ok: true, method: 'startRace', args: [[{ seat: 1, chips: 7, hasOther: true }]] });
    expect(checkCall('voidCards', ['race-3', 2])).toEqual({ ok: true, method: 'voidCards', args: ['race-3', 2, ''] });
    expect(checkCall('historyPage', [null, 25])).toEqual({ ok: true, method: 'historyPage', args: [null, 25] });
    expect(checkCall('takeHeldCard', ['game-2', 4])).toEqual({ ok: true, method: 'takeHeldCard', args: ['game-2', 4] });
  });

  it('dispatches only validated calls to the service', async () => {
    const calls: unknown[][] = [];
    const target = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => {
      calls.push([name, ...args]);
      return { ok: true, value: null };
    }])) as unknown as CommandTarget;
    expect(await dispatch(target, 'dealCard', ['race-1', 'As'])).toEqual({ ok: true, value: null });
    expect(await dispatch(target, 'dealCard', ['race-1', 1])).toMatchObject({ ok: false, error: { field: 'card', message: 'must be text' } });
    expect(await dispatch(target, 'constructor', [])).toMatchObject({ ok: false, error: { field: 'method' } });
    expect(calls).toEqual([['dealCard', 'race-1', 'As']]);
  });
});
