// A hostile station: its own login (from createStationLogin) trying every way a SECURITY DEFINER
// function could be made to run the station's objects as the floor's owner — a temp table
// shadowing floor_tables, a temp domain shadowing jsonb with a CHECK calling a temp function,
// functions and operators of its own — and finding every other table, the clock and the role
// list as they were.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../testing/postgres';
import { journalRecords } from '../../replication/testing/journalLines';
import { pushRecords } from '../../replication/push';
import { createStationLogin, type StationLogin } from './stations';
import { readSeating, setSeating } from '../seating';
import { recordDecision } from '../decisions';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** Runs one statement as the attacker; whether it went through (the attack's own error is the point, not news). */
async function attempt(client: pg.Client, sql: string): Promise<boolean> {
  try {
    await client.query(sql);
    return true;
  } catch {
    return false;
  }
}

describe.runIf(run)('a station login cannot borrow the floor owner\'s rights (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let login: StationLogin;
  const snapshot = async () => ({
    two: (await admin.query("SELECT seq::int, line, hash FROM station_records WHERE table_name = 'two' ORDER BY seq")).rows,
    failures: (await admin.query('SELECT table_name, seq::int, reason FROM chain_failures ORDER BY 1, 2')).rows,
    clock: (await admin.query('SELECT structure, events, changed_at FROM floor_clock')).rows,
    decisions: (await admin.query('SELECT id::int, table_name, decided_by, decision, note FROM floor_decisions ORDER BY id')).rows,
    roles: (await admin.query('SELECT rolname, rolsuper, rolcreaterole, rolcanlogin, rolbypassrls FROM pg_roles ORDER BY rolname')).rows,
    members: (await admin.query('SELECT roleid::regrole::text AS role, member::regrole::text AS member FROM pg_auth_members ORDER BY 1, 2')).rows,
  });

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    login = await createStationLogin(admin, 'one');
    await createStationLogin(admin, 'two');
    const outcome = await pushRecords(admin, 'two', journalRecords(3, 'two'));
    expect(outcome).toEqual({ stored: 3, refused: [] });
    // The director's decision on table two (migration 10): no business of table one's station.
    await recordDecision(admin, { table: 'two', decision: 'race-stands', note: 'checked the slip', by: 'Anna' });
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('every definer function pins its search_path with pg_temp last (or empty)', async () => {
    const definers = await admin.query<{ name: string; config: string[] | null }>("SELECT p.proname AS name, p.proconfig AS config FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.prosecdef AND n.nspname = 'public' ORDER BY 1");
    expect(definers.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['station_seen', 'station_table', 'verify_station_record']));
    for (const row of definers.rows) {
      const path = (row.config ?? []).find((setting) => setting.startsWith('search_path='));
      expect(path, row.name).toMatch(/^search_path=(""|.*\bpg_temp)$/);
    }
  });

  it('shadowing through temp tables, types, domains, functions and operators fails, and changes nothing', async () => {
    const before = await snapshot();
    const client = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
    client.on('error', () => undefined);
    await client.connect();
    const got: Record<string, boolean> = {};
    const seen: Record<string, unknown> = {};
    try {
      got.tempTable = await attempt(client, 'CREATE TEMP TABLE scratch (x int)');
      // A temp floor_tables naming this login for table two: station_table() would answer 'two'.
      got.shadowTables = await attempt(client, 'CREATE TEMP TABLE floor_tables (table_name text, role_name name, created_at timestamptz)');
      if (got.shadowTables) await attempt(client, "INSERT INTO pg_temp.floor_tables VALUES ('two', session_user, now())");
      // A temp jsonb whose CHECK runs the station's function as the owner when the trigger casts to it.
      got.tempFunction = await attempt(
        client,
        `CREATE FUNCTION pg_temp.evil(value pg_catalog.jsonb) RETURNS boolean LANGUAGE sql AS $body$
           UPDATE public.floor_clock SET events = '[{"type":"start","at":0}]', changed_at = '2001-01-01';
           DO $do$ BEGIN
             IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'chip_race_evil') THEN CREATE ROLE chip_race_evil LOGIN PASSWORD 'evil'; END IF;
           END $do$;
           SELECT true
         $body$`,
      );
      got.tempDomain = await attempt(client, 'CREATE DOMAIN pg_temp.jsonb AS pg_catalog.jsonb CHECK (pg_temp.evil(VALUE))');
      got.tempType = await attempt(client, 'CREATE TYPE pg_temp.timestamptz AS (x int)');
      got.tempOperator = await attempt(client, 'CREATE OPERATOR pg_temp.= (LEFTARG = text, RIGHTARG = name, FUNCTION = pg_catalog.texteq)');
      got.publicFunction = await attempt(client, "CREATE FUNCTION public.sha256(bytea) RETURNS bytea LANGUAGE sql AS $$ SELECT '\\x00'::bytea $$");
      got.publicOperator = await attempt(client, 'CREATE OPERATOR public.<> (LEFTARG = text, RIGHTARG = text, FUNCTION = pg_catalog.texteq)');
      got.publicTable = await attempt(client, 'CREATE TABLE public.floor_tables_2 (x int)');

      const outcome = (promise: Promise<unknown>) => promise.then((value) => value, (error: Error) => error.message);
      seen.stationTable = await outcome(client.query('SELECT station_table() AS t').then((result) => result.rows));
      seen.tableTwo = await outcome(client.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = 'two'").then((result) => result.rows));
      seen.decisionsOfTwo = await outcome(client.query('SELECT count(*)::int AS n FROM floor_decisions').then((result) => result.rows));
      seen.decide = await outcome(client.query("INSERT INTO floor_decisions (table_name, decided_by, decision, note) VALUES ('one', 'me', 're-race', 'mine')").then(() => 'inserted'));
      // Records chained for table two, sent by table one's login.
      seen.forged = await outcome(pushRecords(client, 'two', journalRecords(4, 'two').slice(3)));
      // Its own records, which make the trigger cast to jsonb and timestamptz.
      seen.own = await outcome(pushRecords(client, 'one', journalRecords(2, 'one')));
    } finally {
      await client.end();
    }
    // What the attacks did first (on migrations 1–2 alone: the clock moved, a login made), then what they were let do.
    expect(await snapshot()).toEqual(before);
    expect(seen).toEqual({
      stationTable: [{ t: 'one' }],
      tableTwo: [{ n: 0 }],
      decisionsOfTwo: [{ n: 0 }],
      decide: expect.stringMatching(/permission denied/),
      forged: expect.stringMatching(/only its own table's records/),
      own: { stored: 2, refused: [] },
    });
    expect(got).toEqual({ tempTable: false, shadowTables: false, tempFunction: false, tempDomain: false, tempType: false, tempOperator: false, publicFunction: false, publicOperator: false, publicTable: false });
    const again = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
    await again.connect();
    await expect(again.query('CREATE TEMP TABLE scratch (x int)')).rejects.toThrow(/permission denied to create temporary tables/);
    await again.end();
  });

  it("a station reads only its own table's seats, and writes no seat at all (migration 9)", async () => {
    const seven = await createStationLogin(admin, '7');
    await createStationLogin(admin, '8');
    await setSeating(admin, [
      { table: '7', seat: 1, player: 'Anna' },
      { table: '7', seat: 2, player: 'Matti' },
      { table: '8', seat: 1, player: 'Pekka' },
    ], 'test');
    const before = await readSeating(admin);
    const out = (await admin.query('SELECT count(*)::int AS n FROM floor_seating_out')).rows;
    const client = new pg.Client({ connectionString: server.urlFor(seven.role, seven.password) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      expect((await client.query('SELECT table_name, seat, player FROM floor_seating ORDER BY seat')).rows).toEqual([
        { table_name: '7', seat: 1, player: 'Anna' },
        { table_name: '7', seat: 2, player: 'Matti' },
      ]);
      expect((await client.query("SELECT count(*)::int AS n FROM floor_seating WHERE table_name = '8'")).rows).toEqual([{ n: 0 }]);
      expect((await client.query('SELECT table_name FROM floor_seating_tables')).rows).toEqual([{ table_name: '7' }]);
      const writes = {
        insertOwn: await attempt(client, "INSERT INTO floor_seating (table_name, seat, player) VALUES ('7', 3, 'Evil')"),
        insertOther: await attempt(client, "INSERT INTO floor_seating (table_name, seat, player) VALUES ('8', 2, 'Evil')"),
        updateOwn: await attempt(client, "UPDATE floor_seating SET player = 'Evil' WHERE table_name = '7'"),
        updateOther: await attempt(client, "UPDATE floor_seating SET player = 'Evil' WHERE table_name = '8'"),
        deleteOther: await attempt(client, "DELETE FROM floor_seating WHERE table_name = '8'"),
        bumpVersion: await attempt(client, 'UPDATE floor_seating_tables SET version = version + 1'),
        breakOther: await attempt(client, "UPDATE floor_seating_tables SET broken_at = now() WHERE table_name = '8'"),
        readOut: await attempt(client, 'SELECT * FROM floor_seating_out'),
        changedAt: await attempt(client, 'SELECT changed_at FROM floor_seating'),
        // The seating's changes (who moved whom, migration 16) are the floor's alone.
        readChanges: await attempt(client, 'SELECT * FROM floor_seating_changes'),
        forgeChange: await attempt(client, "INSERT INTO floor_seating_changes (by, kind, table_name) VALUES ('Evil', 'undo', '7')"),
      };
      expect(writes).toEqual({ insertOwn: false, insertOther: false, updateOwn: false, updateOther: false, deleteOther: false, bumpVersion: false, breakOther: false, readOut: false, changedAt: false, readChanges: false, forgeChange: false });
    } finally {
      await client.end();
    }
    expect(await readSeating(admin)).toEqual(before);
    expect((await admin.query('SELECT count(*)::int AS n FROM floor_seating_out')).rows).toEqual(out);
  });
});
