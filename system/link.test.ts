import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOOR_REFUSAL_REASONS, type ConsoleSettings, type ConsoleState, type FloorLinkState } from '../protocol/contract';
import { journalPath } from '../journal/location';
import type { ConsoleService } from '../station/service/service';
import type { ServiceOptions } from '../station/service/serviceOptions';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { consoleServiceOptions } from '../station/service/options';
import { serviceHarness } from '../station/service/testing/services';
import { migrate } from '../floor/db/migrate';
import { MIGRATIONS } from '../floor/db/migrations';
import { createStationLogin } from '../floor/db/stations';
import { FloorLink, type FloorClockRow } from '../station/floorLink/link';
import { OUTBOX_CURSOR_FILE } from '../replication/outbox';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';

// The CI installs Debian's postgresql: there a missing server is a failure, not a skip.
const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** Short waits: a test sees the link retry, report and publish within a second. */
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000, cursorMs: 100 };
const { serviceIn, restart, release } = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc', floorTiming: FLOOR_TIMING });
/**
 * The same, but a record must wait 10 s unsent before the link says it is behind (the product
 * waits 1 s): "the state does not change with every record sent" then depends on no push taking
 * 10 s, not on each taking under 100 ms, which a machine busy with other work broke (6 changes for
 * 9 records, issue 42). The property under test is the link's: a record sent before `countMs`
 * changes nothing.
 */
const patient = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc', floorTiming: { ...FLOOR_TIMING, countMs: 10_000 } });

const TABLE = (name: string): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3, name },
});
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

async function expectOk(result: Promise<{ ok: boolean }>): Promise<void> {
  expect(await result).toEqual({ ok: true, value: null });
}

/** Plays race `n` of a console to its confirmation; resolves with the slowest command's milliseconds. */
async function playRace(service: ConsoleService, n: number): Promise<number> {
  let slowest = 0;
  const timed = async (command: Promise<{ ok: boolean }>) => {
    const start = performance.now();
    await expectOk(command);
    slowest = Math.max(slowest, performance.now() - start);
  };
  await timed(service.startRace(COUNTS));
  for (const card of CARDS) await timed(service.dealCard(`race-${n}`, card));
  await timed(service.confirmRace(`race-${n}`));
  return slowest;
}

/** The journal's last seq: every record's line starts with it. */
function journalLastSeq(dataDir: string): number {
  const seqs = readFileSync(journalPath(dataDir), 'utf8').split('\n').map((line) => /^\{"seq":(\d+),/.exec(line)?.[1]).filter((seq) => seq !== undefined);
  return Number(seqs.at(-1) ?? 0);
}

describe('the reasons a floor refuses a record', () => {
  it('are the codes the floor writes on arrival, each one the screens can word', () => {
    const written = new Set(MIGRATIONS.flatMap((migration) => [...migration.sql.matchAll(/problem := '([a-z-]+)'/g)].map((match) => match[1])));
    expect([...written].sort()).toEqual([...FLOOR_REFUSAL_REASONS].sort());
  });
});

describe('a station without a floor', () => {
  it('takes its floor from CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE only when both are set', () => {
    const url = 'postgres://station:secret@floor-pc:5432/tournament';
    expect(consoleServiceOptions('/data', { CHIP_RACE_DATABASE_URL: url, CHIP_RACE_TABLE: '7' }).floor).toEqual({ url, table: '7' });
    expect(consoleServiceOptions('/data', { CHIP_RACE_DATABASE_URL: url }).floor).toBeUndefined();
    expect(consoleServiceOptions('/data', { CHIP_RACE_TABLE: '7' }).floor).toBeUndefined();
    expect(consoleServiceOptions('/data', { CHIP_RACE_DATABASE_URL: '', CHIP_RACE_TABLE: '7' }).floor).toBeUndefined();
  });

  it('changes nothing: no link, no outbox cursor, the state says off', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-none-'));
    try {
      const service = await serviceIn(dataDir);
      await expectOk(service.saveSettings(TABLE('7')));
      await playRace(service, 1);
      expect(service.getState().floorLink).toEqual({ state: 'off' });
      expect(service.getState().settings.floor).toBeUndefined();
      await service.close();
      release(service);
      expect(existsSync(join(dataDir, OUTBOX_CURSOR_FILE))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(run)("the station's floor link (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-link-'));
    folders.push(dir);
    return dir;
  };

  async function connectAdmin(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  /** A table's station login, as the floor's director makes it, and its URL. */
  async function stationUrl(table: string): Promise<string> {
    const login = await createStationLogin(admin, table);
    return server.urlFor(login.role, login.password);
  }

  async function floorHolds(table: string): Promise<{ n: number; seqs: number; last: number }> {
    const result = await admin.query('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs, coalesce(max(seq), 0)::int AS last FROM station_records WHERE table_name = $1', [table]);
    return result.rows[0];
  }

  /** A console whose link CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE set up, with its states recorded. */
  async function station(dataDir: string, table: string, url: string, extra: Partial<ServiceOptions> = {}) {
    const service = await serviceIn(dataDir, { floor: { url, table }, ...extra });
    const states: FloorLinkState[] = [service.getState().floorLink];
    service.onState((state) => {
      if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
    });
    await expectOk(service.saveSettings(TABLE(table)));
    return { service, states };
  }

  /** Runs `work` with the database stopped, and starts it again whatever happens. */
  async function whileStopped(work: () => Promise<void>): Promise<void> {
    await admin.end();
    await server.stop();
    try {
      await work();
    } finally {
      await server.start();
      admin = await connectAdmin();
    }
  }

  const linkState = (service: ConsoleService) => service.getState().floorLink;
  const caughtUp = (service: ConsoleService, dataDir: string) => async () => {
    const state = linkState(service);
    return state.state === 'connected' && (await floorHolds(tableOf(state))).last === journalLastSeq(dataDir);
  };
  const tableOf = (state: FloorLinkState) => (state.state === 'off' ? '' : state.floor.table);

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connectAdmin();
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('replicates a whole race as it is dealt; with records to send the state is behind, then connected', async () => {
    const dataDir = folder();
    const url = await stationUrl('7');
    // Two races before the link was set up: the link starts with them to send.
    const before = await serviceIn(dataDir);
    await expectOk(before.saveSettings(TABLE('7')));
    await playRace(before, 1);
    await playRace(before, 2);
    release(before);
    await before.close();
    const service = await patient.serviceIn(dataDir, { floor: { url, table: '7' } });
    const states: FloorLinkState[] = [service.getState().floorLink];
    service.onState((state) => {
      if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
    });
    await until('the floor caught up', caughtUp(service, dataDir));
    expect(states.map((state) => state.state)).toEqual(expect.arrayContaining(['connecting', 'behind', 'connected']));
    expect(states.findIndex((state) => state.state === 'behind')).toBeLessThan(states.findIndex((state) => state.state === 'connected'));
    expect(linkState(service)).toEqual({ state: 'connected', floor: { host: `127.0.0.1:${server.port}`, database: 'postgres', table: '7', from: 'environment' } });
    // A race dealt now reaches the floor as it is dealt: after its start, and after its confirmation.
    const statesBefore = states.length;
    const seqBefore = journalLastSeq(dataDir);
    await expectOk(service.startRace(COUNTS));
    await until('the race start on the floor', async () => (await admin.query("SELECT 1 FROM station_records WHERE table_name = '7' AND kind = 'race-start' AND record->>'raceId' = 'race-3'")).rowCount === 1);
    for (const card of CARDS) await expectOk(service.dealCard('race-3', card));
    await expectOk(service.confirmRace('race-3'));
    await until('the confirmation on the floor', async () => (await admin.query("SELECT 1 FROM station_records WHERE table_name = '7' AND kind = 'race-confirm' AND record->>'raceId' = 'race-3'")).rowCount === 1);
    await until('the floor caught up', caughtUp(service, dataDir));
    const last = journalLastSeq(dataDir);
    expect(await floorHolds('7')).toEqual({ n: last, seqs: last, last });
    // Connected, the state does not change with every record sent.
    expect(states.length - statesBefore).toBeLessThan((last - seqBefore) / 2);
    // Its contact is reported, with nothing left to send.
    await until('the contact reported', async () => (await admin.query("SELECT behind FROM station_contact WHERE table_name = '7' AND last_seen > now() - interval '5 seconds'")).rows[0]?.behind === 0);
    // The cursor says how far the floor has the journal (written at most every cursorMs).
    await until('the cursor written', () => JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8')).seq === last);
    expect(JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8'))).toMatchObject({ table: '7', seq: last });
  }, 60_000);

  it('stays connected while the floor is slow to take a push and cards are dealt meanwhile: behind only for a record unsent after countMs', async () => {
    // A busy floor made deterministic: the admin holds a lock the push's INSERT waits on, a card is
    // dealt while it waits, then the lock is let go. The push ends with that card still to send, a
    // few milliseconds old: the next round sends it. Before, each such push said "behind" and then
    // "connected" again, so the dealer's screen flickered with the floor's load (issue 42: 6 state
    // changes for 9 records on a busy machine, which is what this test makes happen every time).
    const dataDir = folder();
    const url = await stationUrl('slow');
    const service = await patient.serviceIn(dataDir, { floor: { url, table: 'slow' } });
    await expectOk(service.saveSettings(TABLE('slow')));
    await until('caught up', caughtUp(service, dataDir));
    const states: FloorLinkState[] = [service.getState().floorLink];
    service.onState((state) => {
      if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
    });
    await expectOk(service.startRace(COUNTS));
    await until('the race start on the floor', caughtUp(service, dataDir));
    for (let index = 0; index + 1 < CARDS.length; index += 2) {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE station_records IN SHARE MODE');
      await expectOk(service.dealCard('race-1', CARDS[index] as string));
      await until('the push waiting on the lock', async () => (await admin.query("SELECT 1 FROM pg_locks WHERE relation = 'station_records'::regclass AND NOT granted")).rowCount === 1);
      await expectOk(service.dealCard('race-1', CARDS[index + 1] as string));
      await admin.query('COMMIT');
      await until('caught up', caughtUp(service, dataDir));
    }
    expect(states.map((state) => state.state)).toEqual(['connected']);
  }, 60_000);

  it('never makes dealing wait: a race dealt and confirmed with the database stopped, then caught up with every record once', async () => {
    const dataDir = folder();
    const url = await stationUrl('offline');
    const { service, states } = await station(dataDir, 'offline', url);
    await until('connected', () => linkState(service).state === 'connected');
    const sent = journalLastSeq(dataDir);
    // Without a floor, for comparison.
    const alone = await serviceIn(folder());
    await expectOk(alone.saveSettings(TABLE('alone')));
    const aloneSlowest = await playRace(alone, 1);
    await whileStopped(async () => {
      const started = performance.now();
      const statesBefore = states.length;
      const slowest = await playRace(service, 1);
      const took = performance.now() - started;
      // Offline, the count of records to send is published at most every countMs, not per record.
      expect(states.length - statesBefore).toBeLessThanOrEqual(Math.ceil(took / FLOOR_TIMING.countMs) + 2);
      // Every append resolved as without a floor (fsync'd writes; nothing waits for the database).
      expect(slowest).toBeLessThan(Math.max(250, aloneSlowest * 5));
      expect(took).toBeLessThan(3_000);
      const offline = await until('offline', () => {
        const state = linkState(service);
        return state.state === 'offline' ? state : null;
      });
      expect(offline).toMatchObject({ reason: 'unreachable', floor: { table: 'offline' } });
      expect(Date.parse(offline?.since ?? '')).not.toBeNaN();
      await until('the records to send counted', () => {
        const state = linkState(service);
        return state.state === 'offline' && state.records === journalLastSeq(dataDir) - sent;
      });
    });
    await until('caught up after the database came back', caughtUp(service, dataDir), 30_000);
    const last = journalLastSeq(dataDir);
    expect(await floorHolds('offline')).toEqual({ n: last, seqs: last, last });
    expect(states.map((state) => state.state)).toContain('offline');
    expect(linkState(service).state).toBe('connected');
    // The offline state kept the time it went offline: not renewed on each retry.
    const sinces = new Set(states.flatMap((state) => (state.state === 'offline' ? [state.since] : [])));
    expect(sinces.size).toBe(1);
  }, 90_000);

  it('never makes dealing wait for a floor that takes the connection and never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const dataDir = folder();
      const { service } = await station(dataDir, 'silent', `postgres://station:secret@127.0.0.1:${port}/floor`, { floorTiming: { ...FLOOR_TIMING, connectMs: 10_000 } });
      const started = performance.now();
      await playRace(service, 1);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(linkState(service).state).toBe('connecting');
      // Closing (the console quitting) does not wait for the connection's timeout either.
      release(service);
      const closing = performance.now();
      await service.close();
      expect(performance.now() - closing).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 30_000);

  /**
   * Freezes the server's processes (SIGSTOP): connections stay open and nothing answers, as when
   * the network goes without a word. Resolves with what thaws them. Linux only (/proc).
   */
  async function freezeServer(): Promise<() => void> {
    const backend = Number((await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
    const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    const postmaster = parentOf(backend);
    const children = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
      try {
        return parentOf(pid) === postmaster;
      } catch {
        return false;
      }
    });
    const pids = [postmaster, ...children];
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    return () => {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    };
  }

  it.runIf(process.platform === 'linux')('gives up a connection that stopped answering (the network gone without a word), and catches up once it answers again', async () => {
    const dataDir = folder();
    const url = await stationUrl('silent network');
    const { service } = await station(dataDir, 'silent network', url, { floorTiming: { ...FLOOR_TIMING, queryMs: 500, connectMs: 1_000 } });
    await until('connected', () => linkState(service).state === 'connected');
    const thaw = await freezeServer();
    try {
      const started = performance.now();
      await playRace(service, 1);
      expect(performance.now() - started).toBeLessThan(3_000);
      const offline = await until('offline', () => {
        const state = linkState(service);
        return state.state === 'offline' ? state : null;
      });
      expect(offline?.reason).toBe('unreachable');
    } finally {
      thaw();
    }
    await until('caught up once the server answers', caughtUp(service, dataDir), 30_000);
    const last = journalLastSeq(dataDir);
    expect(await floorHolds('silent network')).toEqual({ n: last, seqs: last, last });
  }, 60_000);

  it('says the floor does not know the table (no station login made for it)', async () => {
    const { service } = await station(folder(), 'unknown table', server.url);
    await playRace(service, 1);
    const offline = await until('offline', () => {
      const state = linkState(service);
      return state.state === 'offline' ? state : null;
    });
    expect(offline).toMatchObject({ reason: 'table', detail: '23503' });
  }, 30_000);

  it('resumes from the cursor after a restart of the console, nothing sent twice', async () => {
    const dataDir = folder();
    const url = await stationUrl('restarted');
    const first = await station(dataDir, 'restarted', url);
    await playRace(first.service, 1);
    await until('caught up', caughtUp(first.service, dataDir));
    await until('the cursor written', () => JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8')).seq === journalLastSeq(dataDir));
    const cursor = JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8')) as { offset: number; seq: number };
    expect(cursor.seq).toBe(journalLastSeq(dataDir));
    // Closed mid-race: the records after the cursor are sent by the console started again.
    await expectOk(first.service.startRace(COUNTS));
    await expectOk(first.service.dealCard('race-2', 'Ah'));
    const again = await restart(first.service, dataDir, { floor: { url, table: 'restarted' } });
    for (const card of CARDS.slice(1)) await expectOk(again.dealCard('race-2', card));
    await expectOk(again.confirmRace('race-2'));
    await until('caught up after the restart', caughtUp(again, dataDir));
    const last = journalLastSeq(dataDir);
    expect(await floorHolds('restarted')).toEqual({ n: last, seqs: last, last });
    const failures = await admin.query("SELECT count(*)::int AS n FROM chain_failures WHERE table_name = 'restarted'");
    expect(failures.rows[0].n).toBe(0);
    // The last move of the cursor is written by a timer up to cursorMs after the batch the floor
    // took (the link writes it at most that often), so "caught up" can come first: waited for, as
    // at the first station above. Read at once, it failed one run in three under two CPU hogs (CI, issue 42).
    await until('the cursor written after the restart', () => JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8')).seq === last);
    expect(JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8'))).toMatchObject({ table: 'restarted', seq: last });
  }, 60_000);

  it('writes the outbox cursor at most every cursorMs while records flow, and where the sending stands when it closes', async () => {
    const dataDir = folder();
    const url = await stationUrl('cursor');
    const { service } = await station(dataDir, 'cursor', url, { floorTiming: { ...FLOOR_TIMING, cursorMs: 60_000 } });
    await until('connected', () => linkState(service).state === 'connected');
    const heldSeq = () => (existsSync(join(dataDir, OUTBOX_CURSOR_FILE)) ? (JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8')) as { seq: number }).seq : null);
    // Written at the first batch the floor took (after it stored the batch: wait for the write).
    // On a slow machine the whole first race can go in that one batch, so a second race is what
    // the minute must not write.
    await playRace(service, 1);
    await until('caught up', caughtUp(service, dataDir));
    const first = await until('the first cursor written', heldSeq);
    await playRace(service, 2);
    await until('caught up again', caughtUp(service, dataDir));
    const last = journalLastSeq(dataDir);
    expect(first).toBeLessThan(last);
    expect(heldSeq()).toBe(first);
    await service.close();
    release(service);
    expect(JSON.parse(readFileSync(join(dataDir, OUTBOX_CURSOR_FILE), 'utf8'))).toMatchObject({ table: 'cursor', seq: last });
  }, 60_000);

  it('says the floor refused a record edited in the journal before it was sent: the chain broken there, nothing later stored', async () => {
    const dataDir = folder();
    const url = await stationUrl('edited');
    const { service } = await station(dataDir, 'edited', url);
    await until('connected', () => linkState(service).state === 'connected');
    const sent = journalLastSeq(dataDir);
    let seq = 0;
    await whileStopped(async () => {
      await playRace(service, 1);
      await until('offline', () => linkState(service).state === 'offline');
      // A card of the race changed in the file under a record not yet sent, its seal left as it was.
      const lines = readFileSync(journalPath(dataDir), 'utf8').split('\n');
      const index = lines.findIndex((line) => line.includes('"card":"Kc"'));
      seq = Number(/^\{"seq":(\d+),/.exec(lines[index] as string)?.[1]);
      expect(seq).toBeGreaterThan(sent);
      lines[index] = (lines[index] as string).replace('"card":"Kc"', '"card":"Kd"');
      writeFileSync(journalPath(dataDir), lines.join('\n'));
    });
    {
      const refused = await until('refused', () => {
        const state = linkState(service);
        return state.state === 'refused' ? state : null;
      }, 30_000);
      expect(refused).toMatchObject({ seq, reason: 'bad-seal', floor: { table: 'edited' } });
      expect(await floorHolds('edited')).toMatchObject({ last: seq - 1 });
      const flagged = await admin.query("SELECT seq::int, reason FROM chain_failures WHERE table_name = 'edited' ORDER BY seq LIMIT 1");
      expect(flagged.rows[0]).toEqual({ seq, reason: 'bad-seal' });
      // Dealing goes on; the link stays refused and sends nothing more.
      await playRace(service, 2);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(linkState(service)).toMatchObject({ state: 'refused', seq });
      expect(await floorHolds('edited')).toMatchObject({ last: seq - 1 });
    }
  }, 60_000);

  it('takes two consoles replicating into one database at once, each record once', async () => {
    const [urlA, urlB] = [await stationUrl('Pöytä 2'), await stationUrl('Стол 3')];
    const [dirA, dirB] = [folder(), folder()];
    const [a, b] = await Promise.all([station(dirA, 'Pöytä 2', urlA), station(dirB, 'Стол 3', urlB)]);
    await Promise.all([
      (async () => {
        for (let n = 1; n <= 3; n += 1) await playRace(a.service, n);
      })(),
      (async () => {
        for (let n = 1; n <= 3; n += 1) await playRace(b.service, n);
      })(),
    ]);
    await until('both caught up', async () => (await caughtUp(a.service, dirA)()) && (await caughtUp(b.service, dirB)()));
    for (const [table, dir] of [['Pöytä 2', dirA], ['Стол 3', dirB]] as const) {
      const last = journalLastSeq(dir);
      expect(await floorHolds(table)).toEqual({ n: last, seqs: last, last });
    }
  }, 60_000);

  it('takes its floor from the settings: a bad URL refused, the password never in the state or the journal, kept when saved again without it', async () => {
    const dataDir = folder();
    const login = await createStationLogin(admin, '9');
    const url = server.urlFor(login.role, login.password);
    const service = await serviceIn(dataDir);
    expect(service.getState().floorLink).toEqual({ state: 'off' });
    await expectOk(service.saveSettings(TABLE('9')));
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: true, url: 'http://floor.local/chips' } })).toMatchObject({ ok: false, error: { field: 'floor.url', said: { key: 'settings.floorUrl' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: true, url: 'postgres://floor.local' } })).toMatchObject({ ok: false, error: { field: 'floor.url', said: { key: 'settings.floorUrl' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: true, url: 'postgres://floor.local/%E0%A4%A' } })).toMatchObject({ ok: false, error: { field: 'floor.url', said: { key: 'settings.floorUrl' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: true, url: 42 as unknown as string } })).toMatchObject({ ok: false, error: { field: 'floor.url', said: { key: 'command.notText' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: 'on' as unknown as { on: boolean; url: string } })).toMatchObject({ ok: false, error: { field: 'floor', said: { key: 'command.notObject' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: true, url: `postgres://${'x'.repeat(3000)}@h/d` } })).toMatchObject({ ok: false, error: { field: 'floor.url', said: { key: 'command.tooLong' } } });
    expect(await service.saveSettings({ ...TABLE('9'), floor: { on: 'yes' as unknown as boolean, url } })).toMatchObject({ ok: false, error: { field: 'floor.on', said: { key: 'settings.notBoolean' } } });
    const unnamed = { ...TABLE('9'), table: { ...TABLE('9').table, name: undefined } };
    expect(await service.saveSettings({ ...unnamed, floor: { on: true, url } })).toMatchObject({ ok: false, error: { field: 'table.name', said: { key: 'settings.floorTableName' } } });
    expect(service.getState().floorLink).toEqual({ state: 'off' });

    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    await expectOk(service.saveSettings({ ...TABLE('9'), floor: { on: true, url } }));
    await until('connected', () => linkState(service).state === 'connected');
    expect(service.getState().settings.floor).toEqual({ on: true, url: `postgres://${login.role}@127.0.0.1:${server.port}/postgres`, passwordSet: true });
    expect(service.getState().settings.floor?.url).not.toContain(login.password);
    expect(linkState(service)).toMatchObject({ state: 'connected', floor: { host: `127.0.0.1:${server.port}`, database: 'postgres', table: '9', from: 'settings' } });
    // A screen saves the settings it was shown (the URL without its password): the password stays.
    await expectOk(service.saveSettings({ ...service.getState().settings, table: { ...service.getState().settings.table, dealer: 'Liisa' } }));
    expect(service.getState().settings.floor).toMatchObject({ passwordSet: true });
    await playRace(service, 1);
    await until('caught up', caughtUp(service, dataDir));
    for (const state of [...states, service.getState()]) expect(JSON.stringify(state)).not.toContain(login.password);
    expect(readFileSync(journalPath(dataDir), 'utf8')).not.toContain(login.password);
    // Kept over a restart (in the settings file), the link on again.
    const again = await restart(service, dataDir);
    await until('connected after the restart', () => linkState(again).state === 'connected');
    // Turned off: the link stops.
    await expectOk(again.saveSettings({ ...again.getState().settings, floor: { on: false, url: again.getState().settings.floor?.url ?? '' } }));
    expect(linkState(again)).toEqual({ state: 'off' });
    expect(again.getState().settings.floor).toMatchObject({ on: false, passwordSet: true });
  }, 60_000);

  it('refuses to start with a CHIP_RACE_DATABASE_URL that is not PostgreSQL, or a bad CHIP_RACE_TABLE, never quoting the URL', async () => {
    await expect(serviceIn(folder(), { floor: { url: 'mysql://u:hunter2@h/db', table: '7' } })).rejects.toMatchObject({ field: 'CHIP_RACE_DATABASE_URL', said: { key: 'settings.floorUrl' } });
    await expect(serviceIn(folder(), { floor: { url: 'mysql://u:hunter2@h/db', table: '7' } })).rejects.not.toThrow(/hunter2/);
    await expect(serviceIn(folder(), { floor: { url: 'postgres://u@h/db', table: 'x'.repeat(33) } })).rejects.toMatchObject({ field: 'CHIP_RACE_TABLE', said: { key: 'settings.floorEnvTable' } });
  });

  it('passes the floor clock row on when it changed, and null while the floor has no structure', async () => {
    const dataDir = folder();
    const url = await stationUrl('clock');
    const rows: (FloorClockRow | null)[] = [];
    const link = await FloorLink.start({ dataDir, table: 'clock', url, from: 'settings', journalSeq: 0, onState: () => undefined, onFloorClock: (row) => rows.push(row), timing: FLOOR_TIMING });
    try {
      await until('the first clock row', () => rows.length === 1);
      expect(rows).toEqual([null]);
      await admin.query(`UPDATE floor_clock SET structure = '{"levels":[{"sb":25,"bb":50,"minutes":20}]}', events = '[{"type":"start","at":"2026-12-01T21:00:00Z"}]'`);
      await until('the changed clock row', () => rows.length === 2);
      expect(rows[1]).toEqual({ structure: { levels: [{ sb: 25, bb: 50, minutes: 20 }] }, events: [{ type: 'start', at: '2026-12-01T21:00:00Z' }], house: null, held: null, holdBreaks: false, offsetMs: expect.any(Number) });
      // With the floor's time: the database server here is this machine, so no offset to speak of.
      expect(Math.abs(rows[1]?.offsetMs ?? Number.NaN)).toBeLessThan(1000);
      // Polled again and again, unchanged: not passed on again.
      await new Promise((resolve) => setTimeout(resolve, 3 * FLOOR_TIMING.pollMs));
      expect(rows).toHaveLength(2);
      // The director turns holding breaks on: passed on, for a station's break to wait for the hold.
      await admin.query('UPDATE floor_clock SET hold_breaks = true');
      await until('the option passed on', () => rows.length === 3);
      expect(rows[2]).toMatchObject({ holdBreaks: true });
    } finally {
      await link.close();
      await admin.query(`UPDATE floor_clock SET structure = NULL, events = '[]', hold_breaks = false`);
    }
  }, 30_000);
});

describe.runIf(run)("the station's floor link across a crash of the floor's server", () => {
  // The server as the README sets it up (Debian's defaults). What a crash of a server whose commits
  // do not wait for its disk loses is made certain, not hoped for: the server comes back from a copy
  // of its data folder kept before the records it acknowledged (keepDataFolder). Waiting on the WAL
  // writer (wal_writer_delay=10s, three tries) failed on clean clones: any commit with synchronous
  // commit on, or a checkpoint, flushes the WAL before it, so whether anything was lost was timing.
  let server: ThrowawayPostgres;
  const folders: string[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await migrate(admin);
    await admin.end();
  }, 120_000);

  afterAll(async () => {
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  async function floorHolds(table: string): Promise<{ n: number; seqs: number; last: number }> {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      return (await admin.query('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs, coalesce(max(seq), 0)::int AS last, (SELECT count(*)::int FROM chain_failures) AS refused FROM station_records WHERE table_name = $1', [table])).rows[0];
    } finally {
      await admin.end();
    }
  }

  it('sends again the records the floor acknowledged and lost (its commits do not wait for its disk): every record once, none refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-crash-'));
    folders.push(dataDir);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    const login = await createStationLogin(admin, 'crashed');
    await admin.end();
    const service = await serviceIn(dataDir, { floor: { url: server.urlFor(login.role, login.password), table: 'crashed' } });
    await expectOk(service.saveSettings(TABLE('crashed')));
    const caughtUp = async () => service.getState().floorLink.state === 'connected' && (await floorHolds('crashed')).last === journalLastSeq(dataDir);
    // A race taken by the floor; its data folder kept; a second race taken (acknowledged), then the
    // server cut off and back from the folder kept: the second race's records are lost, every time.
    await playRace(service, 1);
    await until('the floor took the first race', caughtUp);
    const kept = journalLastSeq(dataDir);
    const crashBackToKept = await server.keepDataFolder();
    await until('the link back after the restart', caughtUp, 30_000);
    await playRace(service, 2);
    await until('the floor took the second race', caughtUp);
    const acknowledged = journalLastSeq(dataDir);
    expect(acknowledged).toBeGreaterThan(kept);
    await crashBackToKept();
    // The link comes back, finds the floor holds less than it sent, and sends the rest again.
    await until('the floor has the records it lost', caughtUp, 30_000);
    await playRace(service, 3);
    await until('caught up', caughtUp);
    const last = journalLastSeq(dataDir);
    expect(await floorHolds('crashed')).toEqual({ n: last, seqs: last, last, refused: 0 });
  }, 120_000);
});
