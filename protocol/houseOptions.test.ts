import { describe, expect, it } from 'vitest';
import { NO_HOUSE_OPTIONS } from '../engine/poker/rules';
import { checkHouseOptions, HOUSE_OPTIONS_MAX } from './argumentChecks';
import { COMMANDS } from './commands';

describe("the start call's house options (argument check)", () => {
  it('passes them in full: left out or null means all off; a buy stop from 1 to below the target', () => {
    expect(checkHouseOptions('chicago', undefined)).toEqual({ ok: true, args: [NO_HOUSE_OPTIONS] });
    expect(checkHouseOptions('chicago', null)).toEqual({ ok: true, args: [NO_HOUSE_OPTIONS] });
    expect(checkHouseOptions('chicago', { chicagoCall: true, buyStop: 42 })).toEqual({ ok: true, args: [{ handPointsEachExchange: false, chicagoCall: true, buyStop: 42 }] });
    expect(checkHouseOptions('chicago', { buyStop: 51 })).toMatchObject({ ok: true });
    expect(checkHouseOptions('pistepokeri', {})).toEqual({ ok: true, args: [NO_HOUSE_OPTIONS] });
    expect(COMMANDS.startGame.check(['chicago', ['A', 'B']])).toEqual({ ok: true, args: ['chicago', ['A', 'B'], NO_HOUSE_OPTIONS] });
    expect(COMMANDS.startGame.check(['chicago', ['A', 'B'], { handPointsEachExchange: true }])).toEqual({ ok: true, args: ['chicago', ['A', 'B'], { ...NO_HOUSE_OPTIONS, handPointsEachExchange: true }] });
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  it.each([
    ['a number', 'chicago', 42, 'options', 'poker.setup.optionsNotObject'],
    ['a list', 'chicago', [true], 'options', 'poker.setup.optionsNotObject'],
    ['an unknown key', 'chicago', { buystop: 42 }, 'options.buystop', 'poker.setup.unknownOption'],
    ['a constructor key', 'chicago', { constructor: true }, 'options.constructor', 'poker.setup.unknownOption'],
    ['a flag as text', 'chicago', { chicagoCall: 'true' }, 'options.chicagoCall', 'poker.setup.notBoolean'],
    ['a flag as a number', 'chicago', { handPointsEachExchange: 0 }, 'options.handPointsEachExchange', 'poker.setup.notBoolean'],
    ['a negative buy stop', 'chicago', { buyStop: -42 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a fractional buy stop', 'chicago', { buyStop: 42.5 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['NaN as the buy stop', 'chicago', { buyStop: Number.NaN }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a buy stop past the target', 'chicago', { buyStop: 1e9 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a buy stop as text', 'chicago', { buyStop: '42' }, 'options.buyStop', 'poker.setup.buyStop'],
    ['an option in Pistepokeri', 'pistepokeri', { handPointsEachExchange: true }, 'options.handPointsEachExchange', 'poker.setup.chicagoOnly'],
    ['an oversized value', 'chicago', { chicagoCall: 'y'.repeat(HOUSE_OPTIONS_MAX) }, 'options', 'command.tooLong'],
    ['a cycle', 'chicago', cyclic, 'options', 'command.tooLong'],
    ['a bigint', 'chicago', { buyStop: 42n }, 'options', 'command.tooLong'],
  ] as const)('refuses %s with a keyed message', (_, game, value, field, key) => {
    const checked = checkHouseOptions(game, value);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error.field).toBe(field);
    expect(checked.error.said?.key).toBe(key);
    expect(checked.error.message.length).toBeLessThan(300);
  });
});
