// Issue 44: the floor survives losing its computer. Two real clusters on loopback stand for the
// floor's computer and the standby's: the floor (TLS only, the cardroom's authority, as the README
// sets a cardroom up) and a standby made from it by the README's own lines (`pg_basebackup -R`).
// Two stations dealing with the floor's addresses as a list (the floor first), the floor console
// serving the page with the same list, the held break on: the floor's PostgreSQL stopped with
// `pg_ctl stop -m immediate` mid-break, the standby promoted by the README's line as written. Every
// station's records reach the promoted floor, none lost, none refused; the held break lets go when
// the last table confirms and the clock goes on; the page answers from the new floor.
//
// What a test machine cannot be, and only that, is changed in the README's lines (onLoopback): the
// two computers' addresses are 127.0.0.1 with each cluster's port, Debian's folders the throwaway
// clusters' (the floor's pg_hba.conf, the standby's data folder), `sudo -u postgres psql` reaches
// each cluster's superuser by libpq's variables (floor/testing/readme.ts), `sudo -u postgres` runs
// as the clusters' owner, and pg_basebackup's password prompt is answered by PGPASSWORD. Debian's
// `systemctl stop/start postgresql`, `rm -rf` of the standby's empty cluster and its
// `/etc/postgresql` files are the harness's: the standby is started with the floor's settings and
// its own certificate (startStandby), what `conf.d/standby.conf` gives it on Debian.
//
// The standby is stopped for the last records before the floor dies: an asynchronous standby's lag
// made certain, so the promoted floor surely lacks records the stations' cursors are past.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockSchedule, readClock } from '../engine/clock/clock';
import { tournamentFromCsv } from '../engine/plan/tournament';
import { readStructure } from '../engine/plan/structure';
import { journalPath } from '../journal/location';
import type { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { serviceHarness } from '../station/service/testing/services';
import { actOnFloorClock, readFloorClock, setFloorStructure } from '../floor/clock';
import { migrate } from '../floor/db/migrate';
import { main } from '../floor/cli';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { makeCardroomCa, type CardroomCa } from '../floor/testing/ca';
import { POSTGRES_AVAILABLE, runAsServerOwner, startStandby, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { asPostgresEnvironment, readmeBlock, runReadmeLines } from '../floor/testing/readme';
import { ask, until } from '../floor/testing/requests';
import { floorUrlOf, parseFloorAddress } from '../replication/floorAddress';
import { dealUntilComplete } from './testing/stations';
import { FAST_FLOOR_TIMING } from './testing/floorStations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
/** The README's lines run as the `postgres` user and with `sudo`: as root, as CI runs the tests. */
const asRoot = userInfo().uid === 0;
const exec = promisify(execFile);
const MIN = 60_000;
const ok = { ok: true, value: null };
const { serviceIn } = serviceHarness({ station: 'table-pc', floorTiming: FAST_FLOOR_TIMING });

/** The 25s leave at the break after level 2, which ends 50 minutes into the clock. */
const SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');
const BREAK_END = 50 * MIN;
const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }];
/** The README's password for the standby's login (what the director types at pg_basebackup's prompt). */
const STANDBY_PASSWORD = 'standby-password';

/** Each record line of a station's journal, by seq, as written. */
function journalRecords(dataDir: string): Map<number, string> {
  const records = new Map<number, string>();
  for (const line of readFileSync(journalPath(dataDir), 'utf8').split('\n')) {
    if (!line.startsWith('{"seq":')) continue;
    records.set((JSON.parse(line) as { seq: number }).seq, line);
  }
  return records;
}

describe.runIf(run && asRoot)('the floor survives losing its computer: a standby made and promoted as the README says (two real PostgreSQL clusters)', () => {
  let ca: CardroomCa;
  let primary: ThrowawayPostgres;
  let standby: ThrowawayPostgres | undefined;
  let floor: FloorServer | undefined;
  const folders: string[] = [];
  const clients: pg.Client[] = [];
  const standbyFolder = { data: '' };

  /** A connection verified against the cardroom's authority (the floor speaks TLS only). */
  const tlsUrl = (url: string) => `${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}`;
  /** A URL of the floor with the standby's address after its own: what the README gives every table and the floor console. */
  const listOf = (url: string): string => {
    const reading = parseFloorAddress(tlsUrl(url));
    if (!reading.ok || standby === undefined) throw new Error('no list');
    return floorUrlOf(reading.address, { hosts: [...reading.address.hosts, { host: '127.0.0.1', port: standby.port }] });
  };
  const connect = async (url: string): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: tlsUrl(url) });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  };

  /** A README line of the two computers pointed at the loopback clusters (see the top of this file). */
  const onLoopback = (line: string): string =>
    line
      .replaceAll('-h 192.168.1.10', `-h 127.0.0.1 -p ${primary.port}`)
      .replaceAll('192.168.1.0/24', '127.0.0.1/32')
      .replaceAll('/etc/postgresql/15/main/pg_hba.conf', join(primary.dataDir, 'pg_hba.conf'))
      .replaceAll('/var/lib/postgresql/15/main', standbyFolder.data);
  const lines = (block: string): string[] => readmeBlock(block).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));

  /** Runs a README line as the director does on that computer. */
  const runLine = async (line: string, server: ThrowawayPostgres, cwd: string): Promise<string> => {
    const local = onLoopback(line);
    if (local.startsWith('sudo -u postgres psql ')) {
      const result = await runReadmeLines(local, asPostgresEnvironment(server));
      if (result.code !== 0) throw new Error(`${line}: ${result.stderr}`);
      return result.stdout;
    }
    if (local.startsWith('sudo -u postgres ')) return (await runAsServerOwner(local.slice('sudo -u postgres '.length), { PGPASSWORD: STANDBY_PASSWORD })).stdout;
    return (await exec('sh', ['-e', '-c', local.replaceAll('sudo ', '')], { cwd, timeout: 60_000 })).stdout;
  };

  beforeAll(async () => {
    // The floor's certificate and the standby's name 127.0.0.1: both computers are this one's loopback.
    ca = await makeCardroomCa('floor.local', '127.0.0.1');
    primary = await startThrowawayPostgres([], { cert: ca.cert, key: ca.key, only: true });
    const admin = await connect(primary.url);
    await migrate(admin);
    // On the floor's computer: the standby's login and its pg_hba.conf line, as written.
    for (const line of lines('floor-standby-primary')) await runLine(line, primary, ca.dir);
    // The standby's certificate, made where the cardroom's authority is.
    await exec('sh', ['-e', '-c', readmeBlock('floor-standby-cert')], { cwd: ca.dir, env: { ...process.env, STANDBY_NAME: 'standby.local', STANDBY_IP: '127.0.0.1' }, timeout: 60_000 });
    // On the standby's computer: the copy (pg_basebackup -R) and its certificate beside it.
    standby = await startStandby(
      primary,
      async (dataDir) => {
        standbyFolder.data = dataDir;
        for (const line of lines('floor-standby-copy').filter((command) => /pg_basebackup|install/.test(command))) await runLine(line, primary, ca.dir);
      },
      ['ssl_cert_file=standby.crt', 'ssl_key_file=standby.key'],
    );
    await until('the standby streaming', async () => (await admin.query("SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'")).rowCount === 1);
  }, 120_000);

  afterAll(async () => {
    await floor?.close();
    for (const client of clients) await client.end().catch(() => undefined);
    await standby?.remove();
    await primary?.remove();
    for (const dir of [ca?.dir, ...folders]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('takes every record again on the promoted standby, none refused; the held break and the clock go on; the page answers from it', async () => {
    const admin = clients[0] as pg.Client;
    const replica = standby as ThrowawayPostgres;
    // -R made a standby streaming from the floor with the slot -C -S made there.
    expect((await admin.query('SELECT slot_name, active FROM pg_replication_slots')).rows).toEqual([{ slot_name: 'chip_race_standby', active: true }]);
    const { structure, house } = tournamentFromCsv(SHEET);
    await setFloorStructure(admin, structure, house);
    await setHoldBreaks(admin, true, Date.now());
    floor = await startFloorServer({ databaseUrl: listOf(primary.url), log: () => undefined, foldEveryMs: 100, holdEveryMs: 100 });
    const page = Number(new URL(floor.url).port);

    const station = async (table: string): Promise<{ service: ConsoleService; dataDir: string }> => {
      // The table's login made by the floor console given the list: the station's URL names both.
      const printed: string[] = [];
      expect(await main(['add-table', '--database', listOf(primary.url), '--table', table], {}, (text) => printed.push(text), (text) => printed.push(text))).toBe(0);
      const url = (printed[0] as string).trim();
      expect(url).toMatch(new RegExp(`^postgres://chip_race_table_[0-9a-f]{16}:[^@]+@127\\.0\\.0\\.1:${primary.port},127\\.0\\.0\\.1:${replica.port}/postgres\\?sslmode=verify-full&sslrootcert=`));
      const dataDir = mkdtempSync(join(tmpdir(), 'floor-standby-'));
      folders.push(dataDir);
      const service = await serviceIn(dataDir, { floor: { url, table } });
      const { tournament: _kept, ...settings } = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 1 } };
      expect(await service.saveSettings(settings)).toEqual(ok);
      return { service, dataDir };
    };
    const [a, b] = [await station('A'), await station('B')];
    for (const { service } of [a, b]) await until('linked', () => service.getState().floorLink.state === 'connected');
    expect(a.service.getState().floorLink).toMatchObject({ floor: { host: `127.0.0.1:${primary.port},127.0.0.1:${replica.port}`, database: 'postgres', table: 'A' } });

    // 5 s before the end of the break after level 2: A finishes its colour-up, B starts its race.
    await actOnFloorClock(admin, { type: 'start' }, Date.now() - BREAK_END + 5_000);
    for (const { service } of [a, b]) expect(await until('the banner', () => service.getState().colorUp)).toMatchObject({ afterLevel: 2 });
    expect(await a.service.startColorUp(2, 25)).toEqual(ok);
    expect(await a.service.startRace([{ seat: 1, chips: 4, hasOther: true }, { seat: 2, chips: 0, hasOther: true }])).toEqual(ok);
    expect(await a.service.confirmRace(a.service.getState().race?.id as string)).toEqual(ok);
    expect(await b.service.startColorUp(2, 25)).toEqual(ok);
    expect(await b.service.startRace([{ seat: 1, chips: 3, hasOther: true }, { seat: 2, chips: 2, hasOther: true }])).toEqual(ok);
    // The break's end passes: the floor holds the clock for B, and the standby has the hold.
    expect(await until('the hold', async () => (await readFloorClock(admin))?.held ?? null)).toEqual({ afterLevel: 2, tables: 1 });
    const standbyReader = await connect(replica.url);
    await until('the hold on the standby', async () => (await readFloorClock(standbyReader))?.held ?? null);
    await standbyReader.end();
    for (const { service } of [a, b]) expect(await until('the hold on the station', () => service.getState().clock.held)).toEqual({ afterLevel: 2, tables: 1 });

    // The standby misses the last records (stopped for them), which the floor takes and acknowledges.
    await replica.stop();
    const raceB = b.service.getState().race?.id as string;
    expect((await b.service.dealCard(raceB, 'Ah')).ok).toBe(true);
    expect(await a.service.callFloor('seat 2 asks about the odd chips')).toEqual(ok);
    const floorHas = async (table: string, client: pg.Client) => Number((await client.query('SELECT coalesce(max(seq), 0) AS last FROM station_records WHERE table_name = $1', [table])).rows[0].last);
    for (const [table, { dataDir }] of [['A', a], ['B', b]] as const) await until(`${table}'s records on the floor`, async () => (await floorHas(table, admin)) === Math.max(...journalRecords(dataDir).keys()));

    // The floor's computer dies mid-break; the standby's comes back, read-only until promoted.
    await primary.crash();
    await replica.start();
    for (const { service } of [a, b]) expect(await until('only the standby answering', () => { const link = service.getState().floorLink; return link.state === 'offline' && link.reason === 'standby' ? link : null; })).toMatchObject({ reason: 'standby' });
    const before = await connect(replica.url);
    const missed = await Promise.all(([['A', a], ['B', b]] as const).map(async ([table, { dataDir }]) => journalRecords(dataDir).size - (await floorHas(table, before))));
    expect(missed.every((count) => count > 0)).toBe(true);
    await before.end();

    // The README's one command, on the standby's computer.
    const promoted = await runReadmeLines(readmeBlock('floor-standby-promote'), asPostgresEnvironment(replica));
    expect(promoted.stderr).toBe('');
    expect(promoted.stdout).toMatch(/^\s*t$/m);

    // The stations follow: everything the promoted floor lacks sent from their journals.
    const newFloor = await connect(replica.url);
    for (const { service } of [a, b]) await until('linked to the promoted floor', () => service.getState().floorLink.state === 'connected', 20_000);
    // B finishes its colour-up on the new floor: the hold lets go, the next level starts.
    await dealUntilComplete(b.service, raceB);
    expect(await b.service.confirmRace(raceB)).toEqual(ok);
    await until('the hold let go on the promoted floor', async () => {
      const clock = await readFloorClock(newFloor);
      return clock !== null && clock.held === null && readClock(clockSchedule(readStructure(clock.structure)), clock.events, Date.now()).status === 'running';
    }, 20_000);
    expect((await newFloor.query('SELECT after_level, tables_left, released_by, tables_left_at_release FROM floor_break_holds')).rows).toEqual([{ after_level: 2, tables_left: 1, released_by: 'tables-done', tables_left_at_release: 0 }]);
    for (const { service } of [a, b]) await until('playing on', () => service.getState().clock.held === null && service.getState().settings.tournament?.atBreakAfter === null);

    // Every station's journal, record for record, on the promoted floor; nothing refused.
    for (const [table, { service, dataDir }] of [['A', a], ['B', b]] as const) {
      await until(`${table} all sent`, () => service.getState().floorLink.state === 'connected');
      const journal = journalRecords(dataDir);
      const stored = await until(`${table}'s journal on the promoted floor`, async () => {
        const rows = (await newFloor.query<{ seq: string; line: string }>('SELECT seq, line FROM station_records WHERE table_name = $1 ORDER BY seq', [table])).rows;
        return rows.length === journal.size ? rows : null;
      });
      expect(new Map(stored.map((row) => [Number(row.seq), row.line]))).toEqual(journal);
    }
    expect((await newFloor.query('SELECT count(*)::int AS n FROM chain_failures')).rows).toEqual([{ n: 0 }]);

    // The floor page, started with the list before the floor died, answers from the promoted one.
    const overview = await until('the page from the promoted floor', async () => {
      const answer = await ask(page, '/');
      return answer.status === 200 ? answer : null;
    }, 20_000);
    // Read from the promoted floor: the clock going on, and B done with the break (its confirmation is on that floor only).
    expect(overview.body).toContain('data-status="running"');
    expect(overview.body).toMatch(/data-table="B">(?:(?!<\/tr>)[\s\S])*colour--done/);
  }, 90_000);
});
