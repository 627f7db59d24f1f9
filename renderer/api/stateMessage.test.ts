// The state messages a page is pushed, read by their one schema (protocol/contract.ts,
// STATE_MESSAGE): any valid message passes unchanged, any mutation that breaks its shape is
// refused in keys naming the field, and the page (the preload's and the bridge's client) keeps
// its last good state when one is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishText } from '../../engine/messages';
import { readStateMessage, RECENT_INPUTS_MAX, STATE_MESSAGE_MAX_CHARS, type CommandError, type ConsoleState, type StateMessage } from '../../protocol/contract';
import type { PreloadApi } from '../../protocol/commands';
import { FINNISH_CARDS, makeRaceView, makeState } from '../testing/fixtures';
import { fromPreload } from './index';

type Part = keyof ConsoleState;
const PARTS = Object.keys(makeState()) as Part[];
/** The parts that may be null, and those that are lists; the rest are objects. */
const NULLABLE: readonly Part[] = ['race', 'lastInput', 'shoeRefusal', 'registration', 'seatMapping', 'detection', 'game', 'plan', 'colorUp'];
const LISTS: readonly Part[] = ['inputs', 'held', 'profiles', 'games', 'countDrafts'];

const card = fc.constantFrom('As', 'Kc', '2d', 'Th');
const shoeEvent = fc.oneof(
  card.map((code) => ({ type: 'card', card: code, raw: code }) as const),
  fc.string({ maxLength: 6 }).map((raw) => ({ type: 'unknown', raw, reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } }) as const),
);

/** Whole states as the service pushes them, over the parts a card or a screen changes. */
const wholeState: fc.Arbitrary<ConsoleState> = fc
  .record({
    race: fc.option(fc.integer({ min: 0, max: FINNISH_CARDS.length }).map((dealt) => makeRaceView({ cards: FINNISH_CARDS.slice(0, dealt) }))),
    lastInput: fc.option(shoeEvent),
    inputs: fc.array(shoeEvent, { maxLength: RECENT_INPUTS_MAX }).map((events) => events.map((event, index) => ({ id: index + 1, event }))),
    shoeRefusal: fc.option(card.map((code) => ({ card: code, field: 'card', message: `${code} was dealt already` }))),
    held: fc.array(fc.record({ id: fc.nat(), target: fc.constant('race-1'), card, raw: card, why: fc.constantFrom('noise', 'queued') as fc.Arbitrary<'noise' | 'queued'> }), { maxLength: 3 }),
    countDrafts: fc.uniqueArray(fc.record({ seat: fc.integer({ min: 1, max: 10 }), chips: fc.option(fc.nat(100)), hasOther: fc.boolean() }), { selector: (draft) => draft.seat, maxLength: 10 }),
    registration: fc.option(fc.record({ name: fc.string({ maxLength: 8 }), registered: fc.nat(52), total: fc.constant(52), next: fc.option(card), problem: fc.constant(null) })),
  })
  .map((parts) => makeState(parts as Partial<ConsoleState>));

const validMessage: fc.Arbitrary<StateMessage> = fc.oneof(
  wholeState.map((state) => ({ type: 'state', state }) as const),
  fc.tuple(wholeState, fc.subarray(PARTS)).map(([state, named]) => ({ type: 'patch', patch: Object.fromEntries(named.map((name) => [name, state[name]])) }) as const),
);

/** A value of no part's shape: for an object part anything but an object (null too, unless null is its value). */
function wrongFor(part: Part): fc.Arbitrary<unknown> {
  const scalars = fc.oneof(fc.integer(), fc.string(), fc.boolean());
  if (LISTS.includes(part)) return fc.oneof(scalars, fc.constant(null), fc.constant({}));
  return fc.oneof(scalars, fc.constant([]), ...(NULLABLE.includes(part) ? [] : [fc.constant(null)]));
}

/** The fields the schema checks inside a part that is always an object, each with a value it refuses. */
const CHECKED_FIELDS: ReadonlyArray<readonly [Part, string, unknown]> = [
  ['settings', 'table', 'x'],
  ['settings', 'language', 'de'],
  ['source', 'kind', 'usb'],
  ['source', 'state', 3],
  ['history', 'total', 1.5],
  ['history', 'latest', []],
  ['journal', 'findings', {}],
  ['journal', 'chain', null],
  ['clock', 'events', 'none'],
  ['floorLink', 'state', undefined],
];

interface Mutation {
  readonly message: unknown;
  /** The field its refusal names. */
  readonly field: string;
  readonly chars?: number;
}

const asRecord = (value: unknown) => value as Record<string, unknown>;
const containerOf = (message: StateMessage): { readonly name: string; readonly parts: Record<string, unknown> } =>
  message.type === 'state' ? { name: 'state', parts: asRecord(message.state) } : { name: 'patch', parts: asRecord(message.patch) };
const withParts = (message: StateMessage, parts: Record<string, unknown>): unknown => ({ type: message.type, [message.type]: parts });

/** Mutations of a valid message, each breaking its shape, with the field the refusal must name. */
const brokenMessage: fc.Arbitrary<Mutation> = fc.oneof(
  // Not a message at all.
  fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean()).map((message) => ({ message, field: '' })),
  // An unknown kind.
  fc.tuple(validMessage, fc.anything().filter((type) => type !== 'state' && type !== 'patch')).map(([message, type]) => ({ message: { ...message, type }, field: 'type' })),
  // The state or patch itself of no shape.
  fc.tuple(validMessage, fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant([]))).map(([message, inner]) => ({ message: { type: message.type, [message.type]: inner }, field: message.type })),
  // A whole state without one of its parts.
  fc.tuple(wholeState, fc.constantFrom(...PARTS)).map(([state, gone]) => {
    const parts: Record<string, unknown> = { ...state };
    delete parts[gone];
    return { message: { type: 'state', state: parts }, field: `state.${gone}` };
  }),
  // A part no state has.
  fc.tuple(validMessage, fc.string({ minLength: 1 }).filter((name) => !PARTS.includes(name as Part)), fc.anything()).map(([message, name, value]) => {
    const { name: container, parts } = containerOf(message);
    return { message: withParts(message, { ...parts, [name]: value }), field: `${container}.${name}` };
  }),
  // A part of the wrong shape.
  fc.tuple(validMessage, fc.constantFrom(...PARTS)).chain(([message, part]) =>
    wrongFor(part).map((value) => {
      const { name: container, parts } = containerOf(message);
      return { message: withParts(message, { ...parts, [part]: value }), field: `${container}.${part}` };
    }),
  ),
  // A field the screens key on, inside a part, of the wrong shape.
  fc.tuple(validMessage, fc.constantFrom(...CHECKED_FIELDS)).map(([message, [part, field, value]]) => {
    const { name: container } = containerOf(message);
    const state = makeState();
    const parts = { ...containerOf(message).parts, [part]: { ...asRecord(state[part]), [field]: value } };
    return { message: withParts(message, parts), field: `${container}.${part}.${field}` };
  }),
  // An entry of a list part of no shape, and lists longer than a state holds.
  fc.tuple(wholeState, fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant([]))).map(([state, entry]) => ({ message: { type: 'state', state: { ...state, held: [entry] } }, field: 'state.held[0]' })),
  fc.tuple(validMessage, fc.integer({ min: RECENT_INPUTS_MAX + 1, max: 40 })).map(([message, n]) => {
    const { name: container, parts } = containerOf(message);
    const inputs = Array.from({ length: n }, (_, index) => ({ id: index + 1, event: { type: 'card', card: 'As', raw: 'As' } }));
    return { message: withParts(message, { ...parts, inputs }), field: `${container}.inputs` };
  }),
  // A message longer than any state (its text's length, as the bridge gives it).
  validMessage.map((message) => ({ message, field: 'message', chars: STATE_MESSAGE_MAX_CHARS + 1 })),
);

describe('the state message schema', () => {
  it('passes every valid message unchanged', () => {
    fc.assert(
      fc.property(validMessage, (message) => {
        expect(readStateMessage(message)).toEqual({ ok: true, value: message });
      }),
    );
  });

  it('refuses any mutation that breaks its shape, in keys, naming the field', () => {
    fc.assert(
      fc.property(brokenMessage, ({ message, field, chars }) => {
        const read = readStateMessage(message, chars);
        expect(read.ok).toBe(false);
        if (read.ok) return;
        expect(read.error.field).toBe(field);
        expect(read.error.said?.key).toMatch(/^stateMessage\./);
        expect(read.error.message).toBe(englishText(read.error.said as NonNullable<typeof read.error.said>));
      }),
      { numRuns: 300 },
    );
  });

  it('says each refusal in words', () => {
    const says = (message: unknown) => {
      const read = readStateMessage(message);
      return read.ok ? 'passed' : `${read.error.field}: ${read.error.message}`;
    };
    expect(says({ type: 'replace' })).toBe('type: must be state or patch (got "replace")');
    expect(says({ type: 'patch', patch: { admin: true } })).toBe('patch.admin: is no part of the console’s state');
    expect(says({ type: 'patch', patch: { race: 3 } })).toBe('patch.race: must be an object or null');
    expect(says({ type: 'patch', patch: { countDrafts: Array.from({ length: 11 }, (_, index) => ({ seat: index + 1 })) } })).toBe('patch.countDrafts: must be a list of at most 10 objects');
    expect(says({ type: 'patch', patch: { source: { kind: 'usb', state: 'idle' } } })).toBe('patch.source.kind: must be one of manual, serial, simulator');
    expect(says({ type: 'patch', patch: {} })).toBe('passed');
  });
});

describe("the page's state from pushed messages", () => {
  it('drops a refused message, says it, and keeps the last good state', async () => {
    await fc.assert(
      fc.asyncProperty(wholeState, fc.array(brokenMessage.filter((mutation) => mutation.chars === undefined), { minLength: 1, maxLength: 4 }), async (good, broken) => {
        let push: (message: unknown) => void = () => undefined;
        const refused: CommandError[] = [];
        const api = fromPreload({ onStateMessage: (listener: (message: unknown) => void) => ((push = listener), () => undefined) } as unknown as PreloadApi, (error) => refused.push(error));
        const seen: ConsoleState[] = [];
        api.onState((state) => seen.push(state));
        push({ type: 'state', state: good });
        for (const { message } of broken) push(message);
        expect(seen).toEqual([good]);
        expect(await api.getState()).toEqual(good);
        expect(refused.map((error) => error.field)).toEqual(broken.map((mutation) => mutation.field));
      }),
      { numRuns: 60 },
    );
  });

  it('tells the screens the refusal standing, until the next whole state is taken', () => {
    let push: (message: unknown) => void = () => undefined;
    const api = fromPreload({ onStateMessage: (listener: (message: unknown) => void) => ((push = listener), () => undefined) } as unknown as PreloadApi, () => undefined);
    const told: (string | null)[] = [];
    api.onStateRefusal((error) => told.push(error === null ? null : error.field));
    const state = makeState();
    push({ type: 'state', state });
    push({ type: 'patch', patch: { race: 7 } });
    // A patch taken does not clear it: the race it carried is still missing.
    push({ type: 'patch', patch: { lastInput: null } });
    push({ type: 'state', state });
    expect(told).toEqual([null, 'patch.race', null]);
  });
});
