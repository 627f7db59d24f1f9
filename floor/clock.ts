import type { ClientBase } from 'pg';
import { applyClockEvent, CLOCK_EVENTS_KEPT, clockSchedule, compactClock, foldClock, readClockEvents, type ClockEvent } from '../engine/clock/clock';
import { InputError } from '../engine/errors';
import type { StructureInput } from '../engine/plan/csv';
import { planColorUps } from '../engine/plan/planner';
import { readStructure } from '../engine/plan/structure';
import type { HouseRules } from '../engine/plan/tournament';
import { FLOOR_CLOCK_ROW, type FloorClock } from '../protocol/clock';
import { parse } from '../protocol/schema';
import { inTransaction } from './db/transaction';
import { release } from './hold';

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

/**
 * Sets the tournament: its structure (refused unless the planner plans its colour-ups from it, as
 * every station will, and every level has its minutes) and the house's rules. A clock already
 * started keeps its events only when they still fit the new schedule.
 */
export async function setFloorStructure(client: ClientBase, structure: unknown, house: HouseRules = {}): Promise<FloorClock> {
  const schedule = clockSchedule(readStructure(structure));
  planColorUps(structure);
  return inTransaction(client, async () => {
    const current = await lockedEvents(client);
    foldClock(current, schedule.totalMs);
    await client.query('UPDATE floor_clock SET structure = $1, house = $2, changed_at = now()', [JSON.stringify(structure), JSON.stringify(house)]);
    return { structure: structure as StructureInput, events: current, house };
  });
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
    if ((row.rows[0]?.structure ?? null) === null) throw new InputError('structure', { key: 'floor.clockNoStructure' });
    const { structure, events: held, house } = parse(FLOOR_CLOCK_ROW, row.rows[0]);
    if (structure === null) throw new InputError('structure', { key: 'floor.clockNoStructure' });
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

async function lockedEvents(client: ClientBase): Promise<ClockEvent[]> {
  const row = await client.query<{ structure: unknown; events: unknown; house: unknown }>('SELECT structure, events, house FROM floor_clock FOR UPDATE');
  return [...parse(FLOOR_CLOCK_ROW, row.rows[0] ?? { structure: null, events: [], house: null }).events];
}
