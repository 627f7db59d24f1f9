import { InputError } from '../errors';
import { valueParam } from '../messages';
import { readSetting, RULE_SET_NAMES, SETTING_NAMES, type RaceSettings, type RuleSetName, type SettingName } from '../race/rules';
import { MAX_DECKS } from '../shoe';
import { isRecord, refuseTooDeep } from '../validate';
import { sheetCells, structureFromCsv, type StructureInput } from './csv';

/**
 * The tournament as the floor holds it and every station takes it: the structure (levels with
 * their minutes, the chip set) and the house's rules for every table — the rule set its races run
 * by, the decks in each shoe, and any race setting chosen on its own over the rule set's
 * (`rounding`, `dealStart`, `protection`, `award`: the house variants, by the rules page's names).
 * A house rule left out is each table's own.
 */
export interface HouseRules extends Partial<RaceSettings> {
  readonly rules?: RuleSetName;
  readonly decks?: number;
}

export interface TournamentInput {
  readonly structure: StructureInput;
  readonly house: HouseRules;
}

/**
 * Reads the house's rules (the floor's row, a JSON file), refusing an unknown rule set, a deck
 * count out of range or an unknown value of a race setting (named `field.award`, or `award` alone).
 */
export function readHouseRules(value: unknown, field = ''): HouseRules {
  if (value === null || value === undefined) return {};
  if (!isRecord(value)) throw new InputError(field || 'house', { key: 'plan.notObject', params: { got: valueParam(value) } });
  const { rules, decks } = value;
  const house: { -readonly [K in keyof HouseRules]: HouseRules[K] } = {
    ...(rules === undefined || rules === null ? {} : { rules: ruleSet(rules, field || 'rules') }),
    ...(decks === undefined || decks === null ? {} : { decks: deckCount(decks, field || 'decks') }),
  };
  for (const name of SETTING_NAMES) {
    const given = value[name];
    if (given !== undefined && given !== null) setSetting(house, name, readSetting(name, given, field ? `${field}.${name}` : name));
  }
  return house;
}

function setSetting<K extends SettingName>(house: { -readonly [S in SettingName]?: RaceSettings[S] }, name: K, setting: RaceSettings[K]): void {
  house[name] = setting;
}

function ruleSet(value: unknown, field: string): RuleSetName {
  if (typeof value === 'string' && (RULE_SET_NAMES as readonly string[]).includes(value)) return value as RuleSetName;
  throw new InputError(field, { key: 'plan.house.rules', params: { options: RULE_SET_NAMES.join(', '), got: valueParam(value) } });
}

function deckCount(value: unknown, field: string): number {
  const decks = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof decks === 'number' && Number.isInteger(decks) && decks >= 1 && decks <= MAX_DECKS) return decks;
  throw new InputError(field, { key: 'plan.house.decks', params: { max: MAX_DECKS, got: valueParam(value) } });
}

/**
 * The house's lines of a tournament sheet, as `rules,tda`, `decks,2` and `award,high-card-takes-all`
 * (the first cell in any case: `dealstart,button` too): the structure's sheet has none.
 */
const HOUSE_LINES: ReadonlyMap<string, keyof HouseRules> = new Map(['rules', 'decks', ...SETTING_NAMES].map((name) => [name.toLowerCase(), name as keyof HouseRules]));

/**
 * Reads a tournament sheet: the planner's structure sheet (engine/plan/csv.ts) with, anywhere in
 * it, `rules,NAME`, `decks,N` and a race setting's `NAME,VALUE` lines. Those lines are blanked
 * before the structure's reader sees the rest, so its refusals still name the sheet's own line numbers.
 */
export function tournamentFromCsv(text: string): TournamentInput {
  const house: { -readonly [K in keyof HouseRules]: HouseRules[K] } = {};
  const rows = text.split(/\r\n|\r|\n/).map((row, index) => {
    const cells = sheetCells(row);
    const kind = HOUSE_LINES.get((cells[0] ?? '').toLowerCase());
    if (kind === undefined) return row;
    const line = index + 1;
    if (house[kind] !== undefined) throw new InputError(`line ${line}`, { key: 'plan.house.twice', params: { line, start: kind } });
    if (kind === 'rules') house.rules = ruleSet(cells[1] ?? '', `line ${line}`);
    else if (kind === 'decks') house.decks = deckCount(cells[1] ?? '', `line ${line}`);
    else setSetting(house, kind, readSetting(kind, (cells[1] ?? '').trim(), `line ${line}`));
    return '';
  });
  return { structure: structureFromCsv(rows.join('\n')), house };
}

/**
 * Reads a tournament as JSON: `{"structure": {…}, "rules": "tda", "decks": 2, "award": "high-card-takes-all"}`,
 * or a bare structure (the planner's JSON) with `rules`, `decks` and the race settings beside its own keys.
 */
export function tournamentFromJson(value: unknown): TournamentInput {
  // Before anything reads it: a refusal quoting a house rule nested some thousands deep would overflow.
  refuseTooDeep(value, 'structure');
  if (!isRecord(value)) throw new InputError('structure', { key: 'plan.notObject', params: { got: valueParam(value) } });
  const { rules, decks, rounding, dealStart, protection, award, structure, ...rest } = value;
  const house = readHouseRules({ rules, decks, rounding, dealStart, protection, award });
  return { structure: (structure === undefined ? rest : structure) as StructureInput, house };
}

/** Reads a tournament file's text: JSON when it starts like JSON, else the sheet. */
export function readTournamentText(text: string): TournamentInput {
  return /^\s*[[{]/.test(text) ? tournamentFromJson(JSON.parse(text)) : tournamentFromCsv(text);
}
