/**
 * The settings' shape, once: what a screen saves and what the settings file holds are both read
 * here (readSettings), each field one line of a schema (protocol/schema.ts) naming the field at
 * fault in keys. The types stay protocol/settings.ts's (the screens read them; the readers below
 * need main's and hardware's code): `sameShape` below makes the compiler refuse a field added to
 * one and not the other. A new source field is one line in SOURCE_FIELDS and one in SourceSettings.
 */
import { isMultipleOf } from '../../engine/chips';
import { InputError, isInputError } from '../../engine/errors';
import type { Message } from '../../engine/messages';
import { refuseTooDeep } from '../../engine/validate';
import type { StructureInput } from '../../engine/plan/csv';
import { planColorUps, type ColorUpPlan } from '../../engine/plan/planner';
import { MAX_STRUCTURE_ENTRIES } from '../../engine/plan/structure';
import { readHouseRules } from '../../engine/plan/tournament';
import { RULE_SET_NAMES, SETTING_NAMES, SETTING_OPTIONS } from '../../engine/race/rules';
import { BUILT_IN_PROFILES, MAX_WINDOW_MS } from '../../hardware/profile';
import { COUNT_STACK_MAX, DEFAULT_COUNTING_SETTINGS, DEFAULT_DISPLAY_SETTINGS, DISPLAY_RESULT_MINUTES_MAX, LANGUAGES, MAX_DECKS, MAX_SEATS, NAME_MAX, SOURCE_KINDS, TABLE_NAME_MAX, type ConsoleSettings, type FromFloor, type SeatSettings, type SettingChoices, type SourceSettings, type TableSettings, type TournamentSettings } from '../../protocol/contract';
import { and, boolean, custom, is, isRecord, list, object, oneOf, optional, parse, prefixed, refine, refuse, text, transform, whole, withDefault, type Infer } from '../../protocol/schema';
import { floorOf } from './floorSettings';
import { tableNameOf } from '../../protocol/tableName';
import { got, lineSetting, serialPath } from './sourceReaders';

const notObject: Message = { key: 'command.notObject' };
const wholeIn = (min: number, max: number) => whole(min, max, (value) => ({ key: 'settings.wholeRange', params: { min, max, got: got(value) } }));
const choiceOf = <const T extends readonly string[]>(options: T) => oneOf(options, (value) => ({ key: 'settings.oneOf', params: { options: options.join(', '), got: got(value) } }));
/** Text of at most `max` characters, trimmed; left out, empty. */
const trimmed = (max: number) => transform(withDefault(text(max, { key: 'command.notText' }, { key: 'command.tooLong', params: { n: max } }), ''), (value) => value.trim());
/** Trimmed text kept only when not empty (the dealer on duty: settings without one read back as they were). */
const named = (max: number) => transform(trimmed(max), (value) => (value === '' ? undefined : value));
const CHIP_MAX = 100_000_000;

/** The seats in play: none only before the table is set up (the defaults); a table saved has 1 to MAX_SEATS (see `requireSeats`). */
const seats = transform(
  list(object({ seat: wholeIn(1, MAX_SEATS), name: trimmed(NAME_MAX) }, notObject), { max: MAX_SEATS, said: { key: 'command.seatCount', params: { n: MAX_SEATS } } }),
  (read, at) => {
    const numbers = read.map((seat) => seat.seat);
    const repeated = numbers.find((seat, index) => numbers.indexOf(seat) !== index);
    if (repeated !== undefined) at(null, { key: 'settings.seatTwice', params: { seat: repeated } });
    return [...read].sort((a, b) => a.seat - b.seat) as readonly SeatSettings[];
  },
);

/**
 * The table's name or number, when named: the one table-name rule the floor files it by
 * (protocol/tableName.ts: at most TABLE_NAME_MAX characters, no control or invisible formatting
 * characters such as the text-direction overrides, composed as NFC; it is printed on slips and in
 * spreadsheets, and a linked station's table is the floor's by this name); empty or absent, not named.
 */
const tableName = optional(
  custom((value) => {
    if (typeof value === 'string' && value.trim() === '') return undefined;
    return (typeof value === 'string' ? tableNameOf(value) : null) ?? refuse({ key: 'settings.tableName', params: { n: TABLE_NAME_MAX } });
  }),
);

/**
 * The race settings a table (or the floor's house) chooses on its own over the rule set's, each
 * optional (absent or null: the rule set's), refused by name (`table.award`) when not one of its options.
 */
const SETTING_CHOICES = {
  rounding: optional(choiceOf(SETTING_OPTIONS.rounding)),
  dealStart: optional(choiceOf(SETTING_OPTIONS.dealStart)),
  protection: optional(choiceOf(SETTING_OPTIONS.protection)),
  award: optional(choiceOf(SETTING_OPTIONS.award)),
};

const OWN_CHOICES = object(SETTING_CHOICES, notObject);

/** The setting choices read, only those made (in the order of SETTING_NAMES, as the table writes them). */
function choicesMade(read: { readonly [K in keyof typeof SETTING_CHOICES]?: Infer<(typeof SETTING_CHOICES)[K]> }): SettingChoices {
  const made: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (read[name] !== undefined) made[name] = read[name];
  return made as SettingChoices;
}

/** The table's chips first: the chip leaving and the next are checked against the set before anything else of the table. */
const TABLE_CHIPS = refine(
  object({
    chipSet: refine(list(wholeIn(1, CHIP_MAX), { min: 2, max: 12, said: { key: 'settings.chipSetSize', params: { min: 2, n: 12 } } }), (chips, at) => {
      if (chips.some((chip, index) => index > 0 && chip <= (chips[index - 1] as number))) at(null, { key: 'settings.chipSetOrder' });
    }),
    removed: wholeIn(1, CHIP_MAX),
    next: wholeIn(1, CHIP_MAX),
  }, notObject),
  ({ chipSet, removed, next }, at) => {
    if (!chipSet.includes(removed)) at('removed', { key: 'settings.removedNotInSet', params: { removed } });
    if (!chipSet.includes(next) || next <= removed) at('next', { key: 'settings.nextNotLarger', params: { removed } });
    if (!isMultipleOf(next, removed)) at('next', { key: 'settings.nextNotMultiple', params: { next, removed } });
  },
);

/**
 * The table, its fields in the order a screen saves them (the chips are checked first, as a group):
 * the screens compare the settings they hold with the saved ones as JSON, so the order read back
 * is the order written.
 */
const TABLE = transform(
  and(TABLE_CHIPS, object({
    seats,
    button: wholeIn(1, MAX_SEATS),
    rules: choiceOf(RULE_SET_NAMES),
    decks: wholeIn(1, MAX_DECKS),
    ...SETTING_CHOICES,
    dealer: named(NAME_MAX),
    name: tableName,
  }, notObject)),
  ({ seats: inPlay, button, chipSet, removed, next, rules, decks, rounding, dealStart, protection, award, dealer, name }) => ({
    seats: inPlay, button, chipSet, removed, next, rules, decks, ...choicesMade({ rounding, dealStart, protection, award }), ...(dealer === undefined ? {} : { dealer }), ...(name === undefined ? {} : { name }),
  }),
);

/** A device profile's name, in the shape profile names have (the service checks it names one). */
const profileName = is((value): value is string => typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(value), (value) => ({
  key: 'settings.profileName',
  params: { options: Object.keys(BUILT_IN_PROFILES).join(', '), got: got(value) },
}));

/** The card source's fields, one line each, in the order they are checked. */
const SOURCE_FIELDS = (platform: NodeJS.Platform) => ({
  kind: choiceOf(SOURCE_KINDS),
  // The simulator deals by itself and opens no port: its path is kept as entered, unused.
  path: custom((value, source) => {
    const path = trimmed(4096).read(value, source);
    return (source as { kind: unknown }).kind === 'serial' ? serialPath(path, platform) : path;
  }),
  baud: wholeIn(50, 4_000_000),
  // A built-in profile's name, or one stored in the data folder: the service checks it is there.
  decoder: profileName,
  // The line settings and repeat window over the profile's, each only when given.
  dataBits: lineSetting('dataBits'),
  parity: lineSetting('parity'),
  stopBits: lineSetting('stopBits'),
  rtscts: lineSetting('rtscts'),
  repeatMs: optional(wholeIn(0, MAX_WINDOW_MS)),
  // The keyboard-wedge scanner's own profile (absent, as in an older file: the default's, DEFAULT_SCANNER_PROFILE).
  scanner: optional(profileName),
});

/**
 * A structure is kept as entered; the planner checks it and the plan must come out of it. Its
 * chips are the table's (read before it, `settings.table.chipSet`): the settings file stores them
 * once, in the table, so a structure without `chips` takes the table's, and one that lists others is refused.
 */
const tournament = custom((value, settings): TournamentSettings => {
  const chips = ((settings as { table: { chipSet: readonly number[] } }).table.chipSet);
  if (value === undefined || value === null) return { structure: null, atBreakAfter: null };
  if (!isRecord(value)) refuse(notObject);
  if (value.structure === undefined || value.structure === null) return { structure: null, atBreakAfter: null };
  if (!isRecord(value.structure)) throw new InputError('tournament.structure', notObject);
  const structure = { ...value.structure, chips: value.structure.chips ?? chips };
  let plan: ColorUpPlan;
  try {
    plan = planColorUps(structure);
  } catch (error) {
    if (isInputError(error)) throw prefixed('tournament.structure', error);
    throw error;
  }
  const same = plan.structure.chips.length === chips.length && plan.structure.chips.every((chip, index) => chip === chips[index]);
  if (!same) throw new InputError('tournament.structure.chips', { key: 'settings.structureChips', params: { chips: chips.join(', '), given: plan.structure.chips.join(', ') } });
  const at = value.atBreakAfter ?? null;
  if (at !== null && !plan.moments.includes(at as number)) throw new InputError('tournament.atBreakAfter', { key: 'settings.noBreak', params: { level: got(at) } });
  return { structure: structure as unknown as StructureInput, atBreakAfter: at as number | null };
});

/**
 * The floor's tournament standing in (protocol/settings.ts FromFloor): the house rules by the
 * engine's reader, the station's own kept aside by the table's and the tournament's own readers.
 */
const fromFloor = optional(
  custom((value, settings): FromFloor => {
    if (!isRecord(value) || !isRecord(value.own)) refuse(notObject);
    const house = readHouseRules(value.house, 'fromFloor.house');
    const { tournament: ownTournament, ...ownTable } = value.own;
    const table = TABLE_CHIPS.read({ chipSet: ownTable.chipSet, removed: ownTable.removed, next: ownTable.next }, settings);
    const rules = choiceOf(RULE_SET_NAMES).read(ownTable.rules, settings);
    const decks = wholeIn(1, MAX_DECKS).read(ownTable.decks, settings);
    const choices = choicesMade(parse(OWN_CHOICES, ownTable, 'fromFloor.own'));
    const kept = ownTournament === null || ownTournament === undefined ? null : tournament.read(ownTournament, { table });
    return { house, own: { ...table, rules, decks, ...choices, tournament: kept } };
  }),
);

const settingsOf = (platform: NodeJS.Platform) =>
  object({
    table: TABLE,
    source: object(SOURCE_FIELDS(platform), notObject),
    language: choiceOf(LANGUAGES),
    tournament,
    // Needs the table's name (the name the floor knows the table by), read before it.
    floor: optional(custom((value, settings) => floorOf(value, tableName.read((settings as { table: { name?: unknown } }).table.name, settings)))),
    fromFloor,
    // The station's own seats kept aside while the floor's seating stands in (floorSeats.ts).
    seatsFromFloor: optional(object({ own: seats, broken: withDefault(boolean((value) => ({ key: 'settings.notBoolean', params: { got: got(value) } })), false) }, notObject)),
    // The station's choices under the floor's tournament (floorOverlay.ts): whether they fit it is the overlay's to check.
    onFloor: optional(object({ removed: wholeIn(1, CHIP_MAX), next: wholeIn(1, CHIP_MAX), atBreakAfter: withDefault(wholeIn(1, MAX_STRUCTURE_ENTRIES), null) }, notObject)),
    // The player display's own (absent, as in an older file: DEFAULT_DISPLAY_SETTINGS).
    display: optional(
      object(
        {
          clockSound: withDefault(boolean((value) => ({ key: 'settings.notBoolean', params: { got: got(value) } })), DEFAULT_DISPLAY_SETTINGS.clockSound),
          resultMinutes: withDefault(whole(0, DISPLAY_RESULT_MINUTES_MAX, (value) => ({ key: 'settings.wholeRange', params: { got: got(value), min: 0, max: DISPLAY_RESULT_MINUTES_MAX } })), DEFAULT_DISPLAY_SETTINGS.resultMinutes),
        },
        notObject,
      ),
    ),
    // How the dealer counts (absent, as in an older file: DEFAULT_COUNTING_SETTINGS).
    counting: optional(
      object(
        {
          stack: withDefault(whole(0, COUNT_STACK_MAX, (value) => ({ key: 'settings.wholeRange', params: { got: got(value), min: 0, max: COUNT_STACK_MAX } })), DEFAULT_COUNTING_SETTINGS.stack),
        },
        notObject,
      ),
    ),
  }, notObject);

/** The settings' schema for each platform it was asked for (the platform decides what a serial port's path looks like). */
const SCHEMAS = new Map<NodeJS.Platform, ReturnType<typeof settingsOf>>();

/**
 * Validates settings from the screen or the settings file, naming the field at fault.
 * `platform` decides what a serial port's path looks like (tests pass another).
 */
export function readSettings(value: unknown, platform: NodeJS.Platform = process.platform): ConsoleSettings {
  // Before any check quotes a value (JSON.stringify would overflow the stack on one nested deep).
  refuseTooDeep(value, 'settings');
  if (!isRecord(value)) throw new InputError('settings', notObject);
  let schema = SCHEMAS.get(platform);
  if (schema === undefined) {
    schema = settingsOf(platform);
    SCHEMAS.set(platform, schema);
  }
  return parse(schema, value);
}

/** Whether two types have the same fields (optional ones too) and each is assignable to the other. */
type Same<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? ([A] extends [B] ? ([B] extends [A] ? true : false) : false) : false) : false;
type Read = Infer<ReturnType<typeof settingsOf>>;
/**
 * The compiler's check that the schemas read exactly protocol/settings.ts's types: a field in one
 * and not the other fails here (the file's tournament is always read, the type's may be absent).
 */
const sameShape: [Same<Read['table'], TableSettings>, Same<Read['source'], SourceSettings>, Same<Read, Omit<ConsoleSettings, 'tournament'> & { readonly tournament: TournamentSettings }>] = [true, true, true];
void sameShape;
