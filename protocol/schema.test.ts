// The house schema builder (protocol/schema.ts): what passes, what is dropped, and where a
// refusal is named (the keyed {field, said} the screens translate), as properties over any value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInputError } from '../engine/errors';
import { englishText } from '../engine/messages';
import { boolean, commandErrorOf, exactObject, list, nullable, object, oneOf, parse, refine, refusalOf, text, variant, literal, whenGiven, whole, withDefault, type Schema } from './schema';

const notObject = { key: 'command.notObject' } as const;
const seat = whole(1, 10, { key: 'command.seatRange', params: { max: 10 } });
const entry = object({ seat, chips: whole(0, 100, (_, count) => ({ key: 'command.chipCount', params: { seat: String((count as { seat: unknown }).seat), max: 100 } })), on: boolean({ key: 'command.notBoolean' }) }, notObject);
const entries = list(entry, { max: 5, said: { key: 'command.seatCount', params: { n: 5 } }, unique: { key: (read) => read.seat, field: 'seat', said: (read) => ({ key: 'command.seatTwice', params: { seat: read.seat } }) } });

/** The field and key a schema's refusal names, or the value it passes. */
function outcome<T>(schema: Schema<T>, value: unknown, root = ''): { value: T } | { field: string; key: string } {
  try {
    return { value: parse(schema, value, root) };
  } catch (error) {
    if (!isInputError(error) || error.said === undefined) throw error;
    return { field: error.field, key: error.said.key };
  }
}

describe('the house schema builder', () => {
  it('passes exactly the whole numbers in range, as they are', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double(), fc.string(), fc.constant(null)), (value) => {
        const inRange = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 10;
        expect(outcome(seat, value, 'seat')).toEqual(inRange ? { value } : { field: 'seat', key: 'command.seatRange' });
      }),
    );
  });

  it('reads an object field by field in order, drops any other field, and names the first refused by its path', () => {
    const good = fc.record({ seat: fc.integer({ min: 1, max: 10 }), chips: fc.integer({ min: 0, max: 100 }), on: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(good, { selector: (read) => read.seat, maxLength: 5 }), fc.dictionary(fc.string(), fc.anything()), (read, extra) => {
        const given = read.map((value) => ({ ...extra, ...value }));
        expect(outcome(entries, given, 'counts')).toEqual({ value: read });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.constantFrom('seat', 'chips', 'on'), (index, field) => {
        const given = Array.from({ length: 5 }, (_, at) => ({ seat: at + 1, chips: 1, on: true }));
        given[index] = { ...(given[index] as (typeof given)[number]), [field]: 'x' };
        const key = field === 'seat' ? 'command.seatRange' : field === 'chips' ? 'command.chipCount' : 'command.notBoolean';
        expect(outcome(entries, given, 'counts')).toEqual({ field: `counts[${index}].${field}`, key });
      }),
    );
  });

  it('names the second entry with a key already seen, at its own field', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), (index) => {
        const given = Array.from({ length: 5 }, (_, at) => ({ seat: at === index ? 1 : at + 1, chips: 0, on: false }));
        expect(outcome(entries, given, 'counts')).toEqual({ field: `counts[${index}].seat`, key: 'command.seatTwice' });
      }),
    );
  });

  it('refuses a list too long or no list at the list, and a value no object at its entry', () => {
    expect(outcome(entries, Array.from({ length: 6 }, () => ({})), 'counts')).toEqual({ field: 'counts', key: 'command.seatCount' });
    expect(outcome(entries, { 0: {} }, 'counts')).toEqual({ field: 'counts', key: 'command.seatCount' });
    expect(outcome(entries, [null], 'counts')).toEqual({ field: 'counts[0]', key: 'command.notObject' });
    expect(outcome(object({ inner: object({ deep: entries }, notObject) }, notObject), { inner: { deep: [{ seat: 1, chips: 1, on: 1 }] } })).toEqual({ field: 'inner.deep[0].on', key: 'command.notBoolean' });
  });

  it('fills defaults, keeps null where allowed, tells variants apart by their tag', () => {
    const reason = withDefault(text(3, { key: 'command.notText' }, { key: 'command.tooLong', params: { n: 3 } }), '');
    expect(outcome(reason, undefined)).toEqual({ value: '' });
    expect(outcome(reason, null)).toEqual({ value: '' });
    expect(outcome(reason, 'long', 'reason')).toEqual({ field: 'reason', key: 'command.tooLong' });
    expect(outcome(nullable(seat), null)).toEqual({ value: null });
    const action = variant('type', { a: object({ type: literal('a') }, notObject), b: object({ type: literal('b'), n: seat }, notObject) }, { key: 'command.action' }, { key: 'command.actionType' });
    expect(outcome(action, { type: 'b', n: 2, x: 1 }, 'action')).toEqual({ value: { type: 'b', n: 2 } });
    expect(outcome(action, { type: 'c' }, 'action')).toEqual({ field: 'action.type', key: 'command.actionType' });
    expect(outcome(action, { type: 'toString' }, 'action')).toEqual({ field: 'action.type', key: 'command.actionType' });
    expect(outcome(action, 7, 'action')).toEqual({ field: 'action', key: 'command.action' });
  });

  it('refines across fields, refusing at a field of the value or at the value itself', () => {
    const pair = refine(object({ low: seat, high: seat }, notObject), (read, at) => {
      if (read.high <= read.low) at('high', { key: 'settings.chipSetOrder' });
    });
    expect(outcome(pair, { low: 3, high: 2 }, 'pair')).toEqual({ field: 'pair.high', key: 'settings.chipSetOrder' });
    const language = oneOf(['en', 'fi'] as const, { key: 'command.oneOf', params: { options: 'en, fi' } });
    expect(outcome(language, 'ru', 'language')).toEqual({ field: 'language', key: 'command.oneOf' });
  });

  it('what a file reader needs: exact objects, null refused where only a field left out has a default, a read order of its own, plain-object variants read after shared fields', () => {
    const exact = exactObject({ seat }, notObject, { key: 'stateMessage.unknownPart' });
    expect(outcome(exact, { seat: 1 })).toEqual({ value: { seat: 1 } });
    expect(outcome(exact, { seat: 1, admin: true }, 'patch')).toEqual({ field: 'patch.admin', key: 'stateMessage.unknownPart' });
    const given = whenGiven(seat, 5);
    expect(outcome(given, undefined)).toEqual({ value: 5 });
    expect(outcome(given, null, 'seat')).toEqual({ field: 'seat', key: 'command.seatRange' });
    // Read `on` first (its refusal named first), though what passes keeps the shape's order.
    const ordered = object({ seat, on: boolean({ key: 'command.notBoolean' }) }, notObject, { readFirst: ['on'] });
    expect(outcome(ordered, { seat: 0, on: 0 })).toEqual({ field: 'on', key: 'command.notBoolean' });
    expect(JSON.stringify(parse(ordered, { on: true, seat: 2 }))).toBe('{"seat":2,"on":true}');
    const shared = object({ n: withDefault(seat, 1) }, notObject);
    const kinds = variant('kind', { a: object({ kind: literal('a'), n: withDefault(seat, 1) }, notObject) }, { key: 'command.action' }, { key: 'command.actionType' }, { plainOnly: true, before: shared });
    expect(outcome(kinds, [], 'x')).toEqual({ field: 'x', key: 'command.action' });
    expect(outcome(kinds, { kind: 'b', n: 99 }, 'x')).toEqual({ field: 'x.n', key: 'command.seatRange' });
    expect(outcome(kinds, { kind: 'b' }, 'x')).toEqual({ field: 'x.kind', key: 'command.actionType' });
    expect(outcome(kinds, { kind: 'a' }, 'x')).toEqual({ value: { kind: 'a', n: 1 } });
  });

  it('maps a refusal to the keyed CommandError, its message the English of its key', () => {
    const said = { key: 'command.tooLong', params: { n: 3 } } as const;
    expect(refusalOf('reason', said)).toEqual({ field: 'reason', message: englishText(said), said });
    try {
      parse(seat, 0, 'seat');
    } catch (error) {
      if (!isInputError(error)) throw error;
      expect(commandErrorOf(error)).toEqual({ field: 'seat', message: englishText({ key: 'command.seatRange', params: { max: 10 } }), said: { key: 'command.seatRange', params: { max: 10 } } });
    }
  });
});
