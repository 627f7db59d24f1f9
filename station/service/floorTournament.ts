import { isInputError } from '../../engine/errors';
import type { StructureInput } from '../../engine/plan/csv';
import type { HouseRules } from '../../engine/plan/tournament';
import { tableWithChips } from '../../protocol/colorUp';
import { SETTING_NAMES } from '../../engine/race/rules';
import { settingChoicesOf, type ConsoleSettings, type OwnTournament, type TableSettings } from '../../protocol/contract';
import { readSettings } from './settings';

/**
 * The tournament a linked station takes from the floor: the floor's structure (with its chip set)
 * and house rules stand in the station's table and tournament, so the floor's break raises the
 * colour-up banner with the floor's plan on a station nobody set up; the station's own copy is
 * kept aside (`fromFloor.own`) and given back when the link ends. Pure: settings in, settings out.
 */

/** The floor's tournament as its clock row carries it. */
export interface FloorTournament {
  readonly structure: StructureInput;
  readonly house?: HouseRules | undefined;
}

/** What the station set up itself: the part of its settings the floor's tournament stands in for. */
function ownOf(settings: ConsoleSettings): OwnTournament {
  const { chipSet, removed, next, rules, decks } = settings.table;
  return { chipSet, removed, next, rules, decks, ...settingChoicesOf(settings.table), tournament: settings.tournament ?? null };
}

/**
 * The settings with the floor's tournament taken: the table's chips are the structure's (the chip
 * leaving and the next kept when they still fit), its rule set and decks the house's where the
 * floor gives them, the break marked kept when the floor's plan has it. Throws the settings'
 * refusal when the floor's tournament cannot be this table's (the station keeps what it had).
 */
export function withFloorTournament(settings: ConsoleSettings, floor: FloorTournament): ConsoleSettings {
  const house = floor.house ?? {};
  const own = settings.fromFloor?.own ?? ownOf(settings);
  const chips = [...floor.structure.chips].sort((a, b) => a - b);
  const table = { ...tableWithChips(settings.table, chips), ...house };
  const atBreakAfter = settings.tournament?.atBreakAfter ?? null;
  const taken = (at: number | null) => readSettings({ ...settings, table, tournament: { structure: floor.structure, atBreakAfter: at }, fromFloor: { house, own } });
  try {
    return taken(atBreakAfter);
  } catch (error) {
    // The break marked is not one of the floor's structure's: none is, until the floor's clock marks one.
    if (!isInputError(error) || error.field !== 'tournament.atBreakAfter') throw error;
    return taken(null);
  }
}

/** The settings with the station's own tournament given back (the link ended, or the floor holds none). */
export function withOwnTournament(settings: ConsoleSettings): ConsoleSettings {
  const held = settings.fromFloor;
  if (held === undefined) return settings;
  const { fromFloor: _floor, ...rest } = settings;
  const { tournament, ...own } = held.own;
  // A race setting the house gave and the station had not chosen goes with the floor: the rule set's again.
  const table: Record<string, unknown> = { ...settings.table };
  for (const name of SETTING_NAMES) if (held.house[name] !== undefined) delete table[name];
  try {
    return readSettings({ ...rest, table: { ...(table as unknown as TableSettings), ...own }, tournament: tournament ?? undefined });
  } catch (error) {
    // Kept aside when it was read: only a file edited by hand gets here. The floor's stays, as the station's own.
    if (!isInputError(error)) throw error;
    return readSettings(rest);
  }
}

/** Whether a screen's settings change what the floor's tournament holds (its chips, or a house rule the floor gives: a race setting too). */
export function changesFloorTournament(current: ConsoleSettings, next: ConsoleSettings): boolean {
  const house = current.fromFloor?.house;
  if (house === undefined) return false;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const settingChanged = SETTING_NAMES.some((name) => house[name] !== undefined && next.table[name] !== house[name]);
  return !same(current.table.chipSet, next.table.chipSet) || (house.rules !== undefined && next.table.rules !== house.rules) || (house.decks !== undefined && next.table.decks !== house.decks) || settingChanged;
}
