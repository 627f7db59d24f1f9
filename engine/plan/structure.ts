import { isMultipleOf } from '../chips';
import { InputError } from '../errors';
import type { Message, MessageParam } from '../messages';
import type { en } from '../messages/en';
import { isRecord, missing, readWhole, refuseTooDeep, valueParam } from '../validate';

/** One playing level. Breaks are not levels: level numbers count playing levels only, from 1. */
export interface StructureLevel {
  readonly level: number;
  /** Where the level sits in the input's `levels` list, for messages naming the field. */
  readonly index: number;
  readonly sb: number;
  readonly bb: number;
  /** null when the level has no ante (left out, null or 0). */
  readonly ante: number | null;
  /** How long the level is played, for the tournament clock (engine/clock); null when not given. */
  readonly minutes: number | null;
}

export interface StructureBreak {
  /** The playing level the break follows. */
  readonly afterLevel: number;
  readonly index: number;
  readonly minutes: number;
}

/** A rebuy or add-on: its amount needs chips on every level up to and including `untilLevel`. */
export interface RebuyOffer {
  readonly amount: number;
  readonly untilLevel: number;
}

/** The floor's choice at one colour-up moment, replacing the planned one: these chips leave then. */
export interface ColorUpOverride {
  readonly afterLevel: number;
  /** Ascending; empty means no colour-up at that moment (the planned chips wait for the next one). */
  readonly remove: readonly number[];
}

/** A validated tournament structure: chips ascending, levels numbered, breaks placed after their level. */
export interface TournamentStructure {
  readonly chips: readonly number[];
  readonly levels: readonly StructureLevel[];
  readonly breaks: readonly StructureBreak[];
  readonly startingStack: number | null;
  readonly rebuys: RebuyOffer | null;
  /** Ascending by `afterLevel`, at most one per moment. */
  readonly overrides: readonly ColorUpOverride[];
}

/**
 * The most entries (levels and breaks together) a structure may list. Real structures have a few
 * dozen; without a bound a structure kept in the settings, and pushed to every page with the state,
 * could be any size. 500 keeps the largest valid settings well inside what browser mode's bridge
 * takes in one message (station/web/server.ts, MAX_MESSAGE_BYTES).
 */
export const MAX_STRUCTURE_ENTRIES = 500;

/** The most chips a structure may list: as many as the console's chip set holds (2 to 12). */
export const MAX_STRUCTURE_CHIPS = 12;

/** The keys each part may have. Anything else is refused, not silently kept: settings keep a structure as entered. */
const STRUCTURE_KEYS = ['chips', 'levels', 'startingStack', 'rebuys', 'overrides'] as const;
const LEVEL_KEYS = ['sb', 'bb', 'ante', 'minutes'] as const;

/**
 * The longest a level may be played, and a break may last: ten hours (a level's minutes and a
 * break's are a whole number from 1 to this). A break is bounded as a level is: a longer one
 * (`break,99999999`) is a typo, and would hold the clock, and every table following it, for years.
 */
export const LEVEL_MINUTES_MAX = 600;
const REBUY_KEYS = ['amount', 'untilLevel'] as const;

/** The parts of a structure refuseUnknownKeys names (`plan.part.*`). */
type StructurePart = 'structure' | 'level' | 'break' | 'rebuy';

/** Refuses a key `record` has beyond `known`, naming where it is and what belongs there. */
function refuseUnknownKeys(record: Record<string, unknown>, known: readonly string[], field: string | null, part: StructurePart): void {
  // A key left undefined is absent (JSON has no undefined; the screen's own objects may).
  const unknown = Object.keys(record).find((key) => record[key] !== undefined && !known.includes(key));
  if (unknown === undefined) return;
  const list = known.map((key) => `"${key}"`);
  const allowed: MessageParam = list.length === 1 ? (list[0] as string) : { message: { key: 'plan.and', params: { list: list.slice(0, -1).join(', '), last: list.at(-1) as string } } };
  throw new InputError(field === null ? unknown : `${field}.${unknown}`, {
    key: 'plan.unknownKey',
    params: { key: unknown, part: { message: { key: `plan.part.${part}` } }, allowed },
  });
}

/** What an amount is, as the refusals name it (`plan.what.*`). */
function what(name: keyof typeof en.plan.what, level?: number): Message {
  return level === undefined ? { key: `plan.what.${name}` } : { key: `plan.what.${name}`, params: { level } };
}

/** The largest chip that divides `amount` (the smallest chip that amount needs), or null if none does. */
export function largestDividingChip(chips: readonly number[], amount: number): number | null {
  for (let index = chips.length - 1; index >= 0; index -= 1) {
    const chip = chips[index] as number;
    if (isMultipleOf(amount, chip)) return chip;
  }
  return null;
}

/** Reads an amount that has to be paid in chips: a whole number at least 1 that some chip divides. */
function readPayable(value: unknown, field: string, name: Message, chips: readonly number[]): number {
  const amount = readWhole(value, field, 1, name);
  if (largestDividingChip(chips, amount) === null) {
    throw new InputError(field, { key: 'plan.notPayable', params: { what: { message: name }, amount, chips: chips.join(', ') } });
  }
  return amount;
}

function readChips(value: unknown): number[] {
  if (!Array.isArray(value)) {
    throw new InputError('chips', { key: 'plan.chips.notList', params: { got: valueParam(value) } });
  }
  if (value.length === 0) throw new InputError('chips', { key: 'plan.chips.none' });
  if (value.length > MAX_STRUCTURE_CHIPS) throw new InputError('chips', { key: 'plan.chips.tooMany', params: { max: MAX_STRUCTURE_CHIPS, n: value.length } });
  const chips = value.map((chip: unknown, index) => readWhole(chip, `chips[${index}]`, 1, what('chip')));
  chips.forEach((chip, index) => {
    if (index === 0) return;
    const before = chips[index - 1] as number;
    if (chip === before) throw new InputError(`chips[${index}]`, { key: 'plan.chips.twice', params: { chip, first: `chips[${chips.indexOf(chip)}]` } });
    if (chip < before) throw new InputError(`chips[${index}]`, { key: 'plan.chips.order', params: { chip, before } });
  });
  return chips;
}

function readLevel(entry: Record<string, unknown>, index: number, level: number, chips: readonly number[]): StructureLevel {
  const field = `levels[${index}]`;
  if (entry.sb === undefined && entry.bb === undefined) {
    throw new InputError(field, { key: 'plan.level.noBlinds', params: { level, example: '{"sb": 25, "bb": 50}', breakExample: '{"break": MINUTES}' } });
  }
  const sb = readPayable(entry.sb ?? missing(`${field}.sb`, what('smallBlind', level)), `${field}.sb`, what('smallBlind', level), chips);
  const bb = readPayable(entry.bb ?? missing(`${field}.bb`, what('bigBlind', level)), `${field}.bb`, what('bigBlind', level), chips);
  if (bb < sb) throw new InputError(`${field}.bb`, { key: 'plan.level.bigBelowSmall', params: { level, bb, sb } });
  let ante: number | null = null;
  if (entry.ante !== undefined && entry.ante !== null) {
    const value = readWhole(entry.ante, `${field}.ante`, 0, what('ante', level));
    if (value > 0) ante = readPayable(value, `${field}.ante`, what('ante', level), chips);
  }
  let minutes: number | null = null;
  if (entry.minutes !== undefined && entry.minutes !== null) {
    minutes = readWhole(entry.minutes, `${field}.minutes`, 1, what('levelMinutes', level));
    if (minutes > LEVEL_MINUTES_MAX) throw new InputError(`${field}.minutes`, { key: 'plan.level.minutesMax', params: { level, max: LEVEL_MINUTES_MAX, got: minutes } });
  }
  return { level, index, sb, bb, ante, minutes };
}

function readLevels(value: unknown, chips: readonly number[]): { levels: StructureLevel[]; breaks: StructureBreak[] } {
  if (!Array.isArray(value)) {
    throw new InputError('levels', {
      key: 'plan.levels.notList',
      params: { example: '[{"sb": 25, "bb": 50}, {"break": 15}, {"sb": 50, "bb": 100}]', got: valueParam(value) },
    });
  }
  if (value.length === 0) throw new InputError('levels', { key: 'plan.levels.none' });
  if (value.length > MAX_STRUCTURE_ENTRIES) {
    throw new InputError('levels', { key: 'plan.levels.tooMany', params: { max: MAX_STRUCTURE_ENTRIES, n: value.length } });
  }
  const levels: StructureLevel[] = [];
  const breaks: StructureBreak[] = [];
  value.forEach((entry: unknown, index) => {
    const field = `levels[${index}]`;
    if (!isRecord(entry)) {
      throw new InputError(field, { key: 'plan.levels.notEntry', params: { level: '{"sb": 25, "bb": 50}', break: '{"break": 15}', got: valueParam(entry) } });
    }
    if (entry.break !== undefined) {
      if (entry.sb !== undefined || entry.bb !== undefined || entry.ante !== undefined || entry.minutes !== undefined) {
        throw new InputError(field, { key: 'plan.levels.levelAndBreak' });
      }
      if (levels.length === 0) throw new InputError(field, { key: 'plan.levels.breakFirst' });
      refuseUnknownKeys(entry, ['break'], field, 'break');
      const minutes = readWhole(entry.break, `${field}.break`, 1, what('breakMinutes'));
      if (minutes > LEVEL_MINUTES_MAX) throw new InputError(`${field}.break`, { key: 'plan.levels.breakMinutesMax', params: { level: levels.length, max: LEVEL_MINUTES_MAX, got: minutes } });
      breaks.push({ afterLevel: levels.length, index, minutes });
      return;
    }
    refuseUnknownKeys(entry, LEVEL_KEYS, field, 'level');
    levels.push(readLevel(entry, index, levels.length + 1, chips));
  });
  return { levels, breaks };
}

function readRebuys(value: unknown, chips: readonly number[]): RebuyOffer | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) {
    throw new InputError('rebuys', { key: 'plan.rebuys.notObject', params: { example: '{"amount": 10000, "untilLevel": 4}', got: valueParam(value) } });
  }
  refuseUnknownKeys(value, REBUY_KEYS, 'rebuys', 'rebuy');
  const amount = readPayable(value.amount ?? missing('rebuys.amount', { key: 'plan.missing.rebuyAmount' }), 'rebuys.amount', what('rebuyAmount'), chips);
  const untilLevel = readWhole(value.untilLevel ?? missing('rebuys.untilLevel', { key: 'plan.missing.rebuyUntil' }), 'rebuys.untilLevel', 1, what('rebuyUntil'));
  return { amount, untilLevel };
}

/** What colorUpMoments reads of a structure: the playing levels' numbers and the levels the breaks follow. */
export interface MomentSource {
  readonly levels: readonly { readonly level: number }[];
  readonly breaks: readonly { readonly afterLevel: number }[];
}

/**
 * Where a colour-up can happen, as the levels it follows (ascending, each once): at the breaks when
 * the structure has any (a break after the last level included; breaks in a row are one moment),
 * otherwise between two levels. A break before level 1 (`afterLevel` 0) is no moment: nothing has
 * been played, so no chip has stopped being needed. It still makes the structure one with breaks
 * (colour-ups wait for a break, never come between levels). readStructure refuses such a break; the
 * Structure screen's draft holds one while the dealer edits, and asks this function too.
 */
export function colorUpMoments(structure: MomentSource): number[] {
  if (structure.breaks.length > 0) {
    return [...new Set(structure.breaks.map((entry) => entry.afterLevel).filter((level) => level >= 1))].sort((a, b) => a - b);
  }
  return structure.levels.slice(0, -1).map((entry) => entry.level);
}

function readOverrides(value: unknown, chips: readonly number[], structure: Pick<TournamentStructure, 'levels' | 'breaks'>): ColorUpOverride[] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) {
    throw new InputError('overrides', { key: 'plan.overrides.notObject', params: { example: '{"4": [25]}', got: valueParam(value) } });
  }
  const lastLevel = structure.levels.length;
  const moments = colorUpMoments(structure);
  const largest = chips[chips.length - 1] as number;
  const leaving = new Map<number, number>();
  const overrides: ColorUpOverride[] = [];
  for (const [key, list] of Object.entries(value)) {
    const field = `overrides.${key}`;
    if (!/^[1-9][0-9]*$/.test(key)) throw new InputError(field, { key: 'plan.overrides.notLevel', params: { key } });
    const afterLevel = Number(key);
    if (afterLevel > lastLevel) throw new InputError(field, { key: 'plan.overrides.noSuchLevel', params: { level: afterLevel, n: lastLevel } });
    if (!moments.includes(afterLevel)) {
      const where: Message = moments.length === 0 ? { key: 'plan.overrides.noMoments' } : { key: 'plan.overrides.momentsAre', params: { n: moments.length, levels: moments.join(', ') } };
      const why = structure.breaks.length > 0 ? 'plan.overrides.noBreakAfter' : 'plan.overrides.lastLevel';
      throw new InputError(field, { key: why, params: { level: afterLevel, where: { message: where } } });
    }
    if (!Array.isArray(list)) {
      throw new InputError(field, { key: 'plan.overrides.notList', params: { level: afterLevel, got: valueParam(list) } });
    }
    const remove = list.map((entry: unknown, index) => {
      const chipField = `${field}[${index}]`;
      const chip = readWhole(entry, chipField, 1, what('chip'));
      if (!chips.includes(chip)) throw new InputError(chipField, { key: 'plan.overrides.notAChip', params: { chip, chips: chips.join(', ') } });
      if (chip === largest) throw new InputError(chipField, { key: 'plan.overrides.largest', params: { chip } });
      if (list.indexOf(chip) !== index) throw new InputError(chipField, { key: 'plan.overrides.twice', params: { chip } });
      const already = leaving.get(chip);
      if (already !== undefined) throw new InputError(chipField, { key: 'plan.overrides.leavesOnce', params: { chip, level: already } });
      leaving.set(chip, afterLevel);
      return chip;
    });
    overrides.push({ afterLevel, remove: remove.sort((a, b) => a - b) });
  }
  return overrides.sort((a, b) => a.afterLevel - b.afterLevel);
}

/**
 * Validates a tournament structure as the console, a file or the command line hands it over.
 * Refuses with an InputError naming the field and the reason. A rebuy offered beyond the last level
 * listed is offered through every listed level.
 */
export function readStructure(input: unknown): TournamentStructure {
  refuseTooDeep(input, 'structure');
  if (!isRecord(input)) throw new InputError('structure', { key: 'plan.notObject', params: { got: valueParam(input) } });
  refuseUnknownKeys(input, STRUCTURE_KEYS, null, 'structure');
  const chips = readChips(input.chips ?? missing('chips', { key: 'plan.missing.chips' }));
  const { levels, breaks } = readLevels(input.levels ?? missing('levels', { key: 'plan.missing.levels' }), chips);
  const startingStack = input.startingStack === undefined || input.startingStack === null ? null : readPayable(input.startingStack, 'startingStack', what('startingStack'), chips);
  const rebuys = readRebuys(input.rebuys, chips);
  const overrides = readOverrides(input.overrides, chips, { levels, breaks });
  return { chips, levels, breaks, startingStack, rebuys, overrides };
}
