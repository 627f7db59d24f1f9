/**
 * The floor's schema, as numbered migrations applied in order and recorded in
 * `floor_schema_migrations`. A migration once released is never edited: a change is a new one.
 *
 * What the schema holds (one database = one tournament):
 * - `floor_tables`: every table of the tournament, and the login role its station uses;
 * - `station_records`: each station's journal lines as written, byte for byte, unique on table
 *   and seq; the columns after `headers` are filled in by the trigger on arrival, never by a station;
 * - `chain_failures`: lines refused on arrival (a forged, edited or out-of-chain line), kept as evidence;
 * - `station_contact`: when each station was last heard from, and how far behind it said it was;
 * - `floor_clock`: the tournament's structure, the house's rules and the clock's events, written by the floor only.
 * - `floor_seating`, `floor_seating_tables`: who sits where at each table and each table's seating version
 *   (broken or not), written by the floor only; a station reads its own table's (migration 9).
 *
 * Stations are least-privilege: members of `chip_race_station`, they may insert (and read back)
 * only their own table's records, report their own contact, and read the clock. Row-level
 * security enforces "their own"; the verification runs as the schema's owner (SECURITY DEFINER).
 */
/*
 * One file per migration, NN-short-name.ts (NN its version, two digits), exporting
 * `migration: Migration`; the SQL helpers several share are in shared.ts. To add one:
 * 1. a new file with the next version, e.g. 22-what-it-does.ts, exporting `migration`
 *    (version 22; never edit a released one: a change is a new migration);
 * 2. import it below and add it at the end of MIGRATIONS;
 * 3. once a release carries it, pin it: its checksum in pinned.ts's RELEASED_CHECKSUMS (pin
 *    it as '' and floor/db/pinned.test.ts's failure says what it reads); never change a pin.
 * floor/db/pinned.test.ts checks that the files here are exactly the listed migrations, numbered
 * 1..N without a gap, and that every pinned one still reads as released.
 */
import { migration as m01 } from './01-tables';
import { migration as m02 } from './02-fold';
import { migration as m03 } from './03-definer-safety';
import { migration as m04 } from './04-fold-state';
import { migration as m05 } from './05-damaged-records';
import { migration as m06 } from './06-no-history-entries';
import { migration as m07 } from './07-runner-sheet';
import { migration as m08 } from './08-house-rules';
import { migration as m09 } from './09-seating';
import { migration as m10 } from './10-decisions';
import { migration as m11 } from './11-held-break';
import { migration as m12 } from './12-runner-ticks';
import { migration as m13 } from './13-exchanges';
import { migration as m14 } from './14-reader-health';
import { migration as m15 } from './15-flag-race';
import { migration as m16 } from './16-seating-changes';
import { migration as m17 } from './17-left-finished';
import { migration as m18 } from './18-login-limits';
import { migration as m19 } from './19-relink';
import { migration as m20 } from './20-runner-ticks-kept';
import { migration as m21 } from './21-damaged-races';
import type { Migration } from './shared';

export { RELEASED_CHECKSUMS } from './pinned';
export { relinkAfterStationDamage } from './19-relink';
export {
  DAMAGED_KEPT_BYTES,
  FAILURE_KEPT_BYTES,
  FAILURES_KEPT_PER_TABLE,
  type Migration,
  STATION_CONNECTION_LIMIT,
  STATION_GROUP,
  STATION_IDLE_IN_TRANSACTION_MS,
  STATION_LOCK_TIMEOUT_MS,
  STATION_STATEMENT_TIMEOUT_MS,
} from './shared';

/** Every migration, in the order applied (version 1 first). */
export const MIGRATIONS: readonly Migration[] = [
  m01,
  m02,
  m03,
  m04,
  m05,
  m06,
  m07,
  m08,
  m09,
  m10,
  m11,
  m12,
  m13,
  m14,
  m15,
  m16,
  m17,
  m18,
  m19,
  m20,
  m21,
];

/** The schema version this code needs. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
