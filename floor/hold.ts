import type { ClientBase } from 'pg';
import { clockSchedule, foldClock, type ClockEvent } from '../engine/clock/clock';
import { holdPause } from '../engine/clock/hold';
import { planColorUps } from '../engine/plan/planner';
import { readStructure } from '../engine/plan/structure';
import { FLOOR_CLOCK_ROW } from '../protocol/clock';
import { parse } from '../protocol/schema';
import { inTransaction } from './db/transaction';
import { isFinished, type FloorStatus } from './fold';

/**
 * The held break on the floor (the option `hold_breaks` on `floor_clock`): at the end of a break
 * with a colour-up the floor pauses its clock (engine/clock/hold.ts holdPause) while any table is
 * not done, keeps `held` ({afterLevel, tables}) on the clock's row for every station to show, and
 * resumes the clock when the last table is done. The director's Resume overrides it (floor/clock.ts
 * actOnFloorClock), and turning the option off releases it; each hold and how it ended is kept in
 * `floor_break_holds`. The floor's serve loop calls holdStep about once a second.
 */

export type HoldStep = 'held' | 'released' | 'counted' | null;

/**
 * The tables not finished with the colour-up at the break after `afterLevel`: finished is its races
 * confirmed at that break, or its race there closed by the floor (a table broken mid-colour-up:
 * isFinished), whether its station still shows that break or has left it since (the fold
 * remembers the breaks left finished: `finishedBreaks`), so a station leaves a break with the
 * clock. A table whose station has not marked that break yet, or still shows the last break's,
 * is not finished with this one. A table whose station was never heard from is not waited for
 * (TableStatus.heardFrom, issue 44: a table a typo made held every break).
 */
export function tablesLeftAt(status: Pick<FloorStatus, 'tables'>, afterLevel: number): number {
  return status.tables.filter((table) => table.heardFrom !== false && !((isFinished(table.colourUp) && table.sheetAfterLevel === afterLevel) || (table.finishedBreaks ?? []).includes(afterLevel))).length;
}

interface ClockRow {
  structure: unknown;
  events: unknown;
  house: unknown;
  held: unknown;
  hold_breaks: boolean;
}

/** Turns the option on or off; off releases a break held now (recorded as `option-off`). */
export async function setHoldBreaks(client: ClientBase, on: boolean, now: number): Promise<void> {
  await inTransaction(client, async () => {
    await client.query('UPDATE floor_clock SET hold_breaks = $1, changed_at = now()', [on]);
    if (!on) await release(client, now, 'option-off', null);
  });
}

/**
 * One look at the clock at `now` (epoch ms, the floor's time): holds it at the end of a break
 * with a colour-up while `tablesLeft` says tables are not done, counts them while held, and lets
 * the clock go when none is left. `tablesLeft` is asked only when a break is due or held.
 */
export async function holdStep(client: ClientBase, now: number, tablesLeft: (afterLevel: number) => Promise<number>): Promise<HoldStep> {
  return inTransaction(client, async () => {
    const result = await client.query<ClockRow>('SELECT structure, events, house, held, hold_breaks FROM floor_clock FOR UPDATE');
    const row = result.rows[0];
    if (row === undefined || row.structure === null) return null;
    const { structure, events, held } = parse(FLOOR_CLOCK_ROW, row);
    const start = events[0]?.at;
    if (structure === null || start === undefined) return null;
    if (held !== null && held !== undefined) {
      const left = await tablesLeft(held.afterLevel);
      if (left === 0) {
        await release(client, now, 'tables-done', events);
        return 'released';
      }
      if (left === held.tables) return null;
      await client.query("UPDATE floor_clock SET held = jsonb_set(held, '{tables}', to_jsonb($1::int)), changed_at = now()", [left]);
      return 'counted';
    }
    if (!row.hold_breaks) return null;
    const schedule = clockSchedule(readStructure(structure));
    const holdable = planColorUps(structure).colorUps.map((colorUp) => colorUp.afterLevel);
    const done = await client.query<{ after_level: number }>('SELECT after_level FROM floor_break_holds WHERE clock_start = $1', [start]);
    const pause = holdPause(schedule, events, now, holdable, new Set(done.rows.map((hold) => hold.after_level)));
    if (pause === null) return null;
    const left = await tablesLeft(pause.afterLevel);
    if (left === 0) {
      // Every table done before the break's end: nothing to hold, and this break is not looked at again.
      await client.query("INSERT INTO floor_break_holds (clock_start, after_level, tables_left, released_at, released_by, tables_left_at_release) VALUES ($1, $2, 0, now(), 'tables-done', 0)", [start, pause.afterLevel]);
      return null;
    }
    const next = [...events, pause.event];
    foldClock(next, schedule.totalMs);
    await client.query('UPDATE floor_clock SET events = $1, held = $2, changed_at = now()', [JSON.stringify(next), JSON.stringify({ afterLevel: pause.afterLevel, tables: left, since: pause.event.at })]);
    await client.query('INSERT INTO floor_break_holds (clock_start, after_level, tables_left) VALUES ($1, $2, $3)', [start, pause.afterLevel, left]);
    return 'held';
  });
}

/**
 * Ends the hold in progress, if any: `held` cleared and its row in floor_break_holds closed with
 * who let it go and the tables still left then. With `events` (the clock's, locked by the caller),
 * the clock is resumed too; without, the caller resumes it (the director's Resume) or leaves it paused (the option off).
 */
export async function release(client: ClientBase, now: number, by: 'tables-done' | 'option-off' | 'director', events: readonly ClockEvent[] | null): Promise<void> {
  const row = await client.query<{ held: { afterLevel: number; tables: number } | null; events: ClockEvent[] }>("SELECT to_jsonb(clock) -> 'held' AS held, events FROM floor_clock AS clock");
  const held = row.rows[0]?.held ?? null;
  if (held === null) return;
  const start = row.rows[0]?.events[0]?.at ?? 0;
  const left = by === 'tables-done' ? 0 : held.tables;
  if (events !== null) {
    const last = events.at(-1)?.at ?? now;
    await client.query('UPDATE floor_clock SET events = $1, changed_at = now()', [JSON.stringify([...events, { type: 'resume', at: Math.max(now, last) }])]);
  }
  await client.query('UPDATE floor_clock SET held = NULL, changed_at = now()');
  await client.query('UPDATE floor_break_holds SET released_at = now(), released_by = $3, tables_left_at_release = $4 WHERE clock_start = $1 AND after_level = $2 AND released_at IS NULL', [start, held.afterLevel, by, left]);
}
