import type { ClientBase } from 'pg';
import { applyClockEvent, CLOCK_EVENTS_KEPT, clockSchedule, compactClock, foldClock, readClock, readClockEvents, type ClockEvent, type ClockReading } from '../engine/clock/clock';
import type { StructureInput } from '../engine/plan/csv';
import { planColorUps } from '../engine/plan/planner';
import { readStructure } from '../engine/plan/structure';
import { readTournamentText, type HouseRules, type TournamentInput } from '../engine/plan/tournament';
import { FLOOR_CLOCK_ROW, type FloorClock } from '../protocol/clock';
import { parse } from '../protocol/schema';
import { inTransaction } from './db/transaction';
import { release } from './hold';
import type { FloorMessage } from './page/words';
import { FloorRefusal } from './refusal';

/**
 * The tournament the floor holds and the clock it runs: the structure (its levels with their
 * minutes, the chip set), the house's rules (rule set, decks per shoe) and the clock's events in
 * `floor_clock`, one row. Only the floor writes it; every station reads it (its floor link), takes
 * the tournament as its own while linked, and reads the countdown from it with the engine's
 * `readClock`, so every table reaches the break at the same moment, with the same plan.
 */

/** The floor's clock as its page shows it: with the held break's option (floor/hold.ts). */
export type FloorClockShown = FloorClock & { readonly holdBreaks: boolean };

/** The floor's clock, or null while the floor has no structure. */
export async function readFloorClock(client: ClientBase): Promise<FloorClockShown | null> {
  const row = await client.query<{ structure: unknown; events: unknown; house: unknown; held: unknown; hold_breaks: boolean }>('SELECT structure, events, house, held, hold_breaks FROM floor_clock');
  const clock = row.rows[0];
  if (clock === undefined || clock.structure === null) return null;
  const { structure, events, house, held } = parse(FLOOR_CLOCK_ROW, { structure: clock.structure, events: clock.events, house: clock.house, held: clock.held });
  return { structure: structure as StructureInput, events, house, held: held ?? null, holdBreaks: clock.hold_breaks };
}

/** The largest tournament file the floor reads, from its page or the command line (a structure of hundreds of levels fits many times over). */
export const TOURNAMENT_MAX_BYTES = 256 * 1024;

/** The most tables a refusal names (a floor of a hundred tables is not listed whole in one line). */
const TABLES_NAMED = 5;

/**
 * A tournament file's text as the floor reads it, from the page's upload or the command line's
 * --file: the sheet (engine/plan/tournament.ts) or its JSON, a byte-order mark passed over (a
 * spreadsheet's export has one). Refused in keys, naming the line: too large, JSON that is not.
 */
export function tournamentFromFile(text: string): TournamentInput {
  if (Buffer.byteLength(text, 'utf8') > TOURNAMENT_MAX_BYTES) throw new FloorRefusal('file', { key: 'floor.tournament.tooLarge', params: { n: TOURNAMENT_MAX_BYTES / 1024 } });
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return readTournamentText(body);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // JSON.parse says where it stopped ("at position N") for most faults, in English: only the line
    // is taken from it. An unexpected token it quotes instead, without a position: said without a line.
    const position = /position (\d+)/.exec(error.message)?.[1];
    if (position === undefined) throw new FloorRefusal('file', { key: 'floor.tournament.notJsonAnywhere' });
    const line = body.slice(0, Number(position)).split(/\r\n|\r|\n/).length;
    throw new FloorRefusal('file', { key: 'floor.tournament.notJson', params: { line } });
  }
}

/**
 * Loads the tournament from a file's text: the one way the floor page's upload and `floor
 * structure --file` both take (read by tournamentFromFile, set by setFloorStructure at `at`, the
 * floor's time).
 */
export async function loadFloorTournament(client: ClientBase, text: string, at: number): Promise<FloorClock> {
  const { structure, house } = tournamentFromFile(text);
  return setFloorStructure(client, structure, house, at);
}

/**
 * Sets the tournament: its structure (refused unless the planner plans its colour-ups from it, as
 * every station will, and every level has its minutes) and the house's rules. A clock already
 * started keeps its events, so it must still read the same level at `at` (the floor's time) by
 * the new structure. Refused while the tournament is mid-colour-up, where a station would take
 * another chip set or plan in the middle of its races: during a break (or one the floor holds),
 * and while a table's race is open (as the fold last read it; a race the director closed on the
 * floor does not count).
 */
export async function setFloorStructure(client: ClientBase, structure: unknown, house: HouseRules = {}, at: number = Date.now()): Promise<FloorClock> {
  const schedule = clockSchedule(readStructure(structure));
  planColorUps(structure);
  return inTransaction(client, async () => {
    const row = await client.query<{ structure: unknown; events: unknown; house: unknown; held: unknown }>('SELECT structure, events, house, held FROM floor_clock FOR UPDATE');
    const current = parse(FLOOR_CLOCK_ROW, row.rows[0] ?? { structure: null, events: [], house: null });
    const events = [...current.events];
    foldClock(events, schedule.totalMs);
    if (current.held != null) throw new FloorRefusal('structure', { key: 'floor.tournament.duringBreak', params: { level: current.held.afterLevel } });
    const was = current.structure === null ? null : readClock(clockSchedule(readStructure(current.structure)), events, at);
    if (was?.period?.kind === 'break') throw new FloorRefusal('structure', { key: 'floor.tournament.duringBreak', params: { level: was.period.afterLevel } });
    const open = await tablesWithOpenRaces(client);
    if (open.length > 0) throw new FloorRefusal('structure', { key: 'floor.tournament.racesOpen', params: { n: open.length, tables: `${open.slice(0, TABLES_NAMED).join(', ')}${open.length > TABLES_NAMED ? ' …' : ''}` } });
    if (was !== null && was.status !== 'idle') {
      const now = readClock(schedule, events, at);
      const moved = now.period?.kind === 'break' || (was.status !== 'finished' && (now.period?.kind !== 'level' || was.period?.kind !== 'level' || now.period.level !== was.period.level));
      if (moved) throw new FloorRefusal('structure', { key: 'floor.tournament.movesClock', params: { was: { message: clockPlace(was) }, now: { message: clockPlace(now) } } });
    }
    await client.query('UPDATE floor_clock SET structure = $1, house = $2, changed_at = now()', [JSON.stringify(structure), JSON.stringify(house)]);
    return { structure: structure as StructureInput, events, house };
  });
}

/** Where a clock stands, as a refusal names it: a level, a break, its end. */
function clockPlace(reading: ClockReading): FloorMessage {
  const period = reading.period;
  if (period === null) return { key: 'floor.tournament.at.finished' };
  return period.kind === 'level' ? { key: 'floor.tournament.at.level', params: { level: period.level } } : { key: 'floor.tournament.at.break', params: { level: period.afterLevel } };
}

/** The tables whose race is open as the fold last read them, less those the director closed on the floor (floor/decisions.ts). */
async function tablesWithOpenRaces(client: ClientBase): Promise<string[]> {
  const open = await client.query<{ table_name: string }>(
    `SELECT s.table_name FROM floor_table_state s
     WHERE s.open_race IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM floor_decisions d WHERE d.table_name = s.table_name AND d.decision = 'race-closed' AND d.race_id = s.open_race)
     ORDER BY s.table_name`,
  );
  return open.rows.map((row) => row.table_name);
}

export type ClockAction = { readonly type: 'start' | 'pause' | 'resume' } | { readonly type: 'adjust'; readonly by: number };

/**
 * Applies one action of the floor's clock at `at` (epoch ms, the floor's time), refused with the
 * engine's keyed message when out of order (paused twice, adjusted before the start) or without
 * a structure. Two floors pressing at once are serialized by the row lock. A history grown to
 * CLOCK_EVENTS_KEPT events is compacted first (the same clock in a few events), so no number of
 * presses ever fills it: Pause always works.
 */
export async function actOnFloorClock(client: ClientBase, action: ClockAction, at: number): Promise<FloorClock> {
  return inTransaction(client, async () => {
    const row = await client.query<{ structure: unknown; events: unknown; house: unknown }>('SELECT structure, events, house FROM floor_clock FOR UPDATE');
    if ((row.rows[0]?.structure ?? null) === null) throw new FloorRefusal('structure', { key: 'floor.clockNoStructure' });
    const { structure, events: held, house } = parse(FLOOR_CLOCK_ROW, row.rows[0]);
    if (structure === null) throw new FloorRefusal('structure', { key: 'floor.clockNoStructure' });
    const schedule = clockSchedule(readStructure(structure));
    const last = held.at(-1);
    // The floor's own clock set back (NTP) must not make an event earlier than the one before.
    const event = readClockEvents([{ ...action, at: Math.max(at, last?.at ?? at) }])[0] as ClockEvent;
    const events = held.length < CLOCK_EVENTS_KEPT ? held : compactClock(held, schedule.totalMs, event.at);
    applyClockEvent(foldClock(events, schedule.totalMs), event, schedule.totalMs, 'event');
    const next = [...events, event];
    await client.query('UPDATE floor_clock SET events = $1, changed_at = now()', [JSON.stringify(next)]);
    // The director's Resume while the floor holds the break: the override, kept with the tables still left.
    if (action.type === 'resume') await release(client, at, 'director', null);
    return { structure, events: next, house };
  });
}
