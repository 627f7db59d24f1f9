import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { journalPath, JournalWriter, type JournalLine } from '../main/journal/journal';
import { createStationLogin } from '../main/floor/db/stations';
import { floorStatus, foldFloor } from '../main/floor/fold';
import { ensureTable } from '../main/floor/db/stations';
import { FloorLink } from '../main/floor/link';
import { syncStation } from '../main/floor/sync';
import { startFloorDatabase } from '../main/floor/testing/postgres';
import type { SessionRecord } from '../main/service/session';
import { playTemplateRaces, writeJournal } from './journal';
import type { BenchFigure } from './report';
import { benchDir, percentile, round1 } from './support';

/**
 * The floor: 100 stations dealing at full speed into one PostgreSQL (a real server, Debian's, in
 * a throwaway cluster on this machine), each through its own least-privilege login. The lag is
 * the time from a record's append resolving at its station (written and fsynced) to the floor
 * holding it, seen by a watcher polling the floor every 20 ms.
 */

const STATIONS = 100;
/** Each station appends this many records, one after the other, as fast as its journal takes them. */
const RECORDS_PER_STATION = 150;
const POLL_MS = 20;
/** The status query's floor: 100 tables, 50 confirmed races each. */
const STATUS_TABLES = 100;
const STATUS_RACES = 50;
const STATUS_QUERIES = 20;

/** The template races' records, the race ids numbered on so every station's journal reads as real races. */
function stationRecords(races: readonly JournalLine<SessionRecord>[][], count: number): SessionRecord[] {
  const out: SessionRecord[] = [];
  for (let race = 0; out.length < count; race += 1) {
    for (const { record } of races[race % races.length] as JournalLine<SessionRecord>[]) {
      if (out.length === count) break;
      out.push('raceId' in record ? { ...record, raceId: `race-${race + 1}` } : record);
    }
  }
  return out;
}

export async function floorBenchmarks(): Promise<{ figures: BenchFigure[]; details: Record<string, unknown> }> {
  const dir = benchDir('floor');
  const { server, admin } = await startFloorDatabase();
  try {
    const races = await playTemplateRaces(join(dir, 'template'));
    const records = stationRecords(races, RECORDS_PER_STATION);

    // One login after the other: each is a transaction on the one admin connection.
    const logins = [];
    for (let index = 0; index < STATIONS; index += 1) logins.push(await createStationLogin(admin, `T${index + 1}`));
    const stations = await Promise.all(
      logins.map(async (login) => {
        const table = login.table;
        const dataDir = join(dir, table);
        mkdirSync(dataDir);
        const writer = await JournalWriter.open<SessionRecord>(journalPath(dataDir), null);
        // The console's own link, as a station runs it (main/floor/link.ts), with its own login.
        const link = await FloorLink.start({ dataDir, table, url: server.urlFor(login.role, login.password), from: 'settings', journalSeq: 0, onState: () => undefined });
        return { table, writer, link, appended: new Array<number>(RECORDS_PER_STATION + 1).fill(0), seen: 0 };
      }),
    );
    const byTable = new Map(stations.map((station) => [station.table, station]));
    const lags: number[] = [];
    let dealing = true;
    const watcher = (async () => {
      while (dealing || stations.some((station) => station.seen < RECORDS_PER_STATION)) {
        const polled = await admin.query<{ table_name: string; seq: string | null }>('SELECT t.table_name, (SELECT max(seq) FROM station_records r WHERE r.table_name = t.table_name) AS seq FROM floor_tables t');
        const now = performance.now();
        for (const row of polled.rows) {
          const station = byTable.get(row.table_name);
          const held = Number(row.seq ?? 0);
          if (station === undefined || held <= station.seen) continue;
          for (let seq = station.seen + 1; seq <= held; seq += 1) lags.push(now - (station.appended[seq] as number));
          station.seen = held;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })();
    const started = performance.now();
    await Promise.all(
      stations.map(async (station) => {
        for (const record of records) {
          const line = await station.writer.append(record);
          station.appended[line.seq] = performance.now();
          station.link.appended(line.seq);
        }
      }),
    );
    const dealtMs = performance.now() - started;
    dealing = false;
    await watcher;
    await Promise.all(stations.map(async (station) => Promise.all([station.writer.close(), station.link.close()])));
    const stored = await admin.query<{ n: number; refused: number }>('SELECT (SELECT count(*)::int FROM station_records) AS n, (SELECT count(*)::int FROM chain_failures) AS refused');
    const total = STATIONS * RECORDS_PER_STATION;
    if (stored.rows[0]?.n !== total || stored.rows[0]?.refused !== 0) throw new Error(`bench: the floor holds ${JSON.stringify(stored.rows[0])} records, ${total} expected and none refused`);

    // The status query: a floor holding 100 tables of 50 races each (the template races played
    // through the real service, written as the console writes them, replicated by sync).
    const eventsFor50 = Array.from({ length: STATUS_RACES }, (_, index) => (races[index % races.length] as unknown[]).length).reduce((a, b) => a + b, 0);
    let statusRecords = 0;
    for (let index = 0; index < STATUS_TABLES; index += 1) {
      const table = `S${index + 1}`;
      const dataDir = join(dir, table);
      mkdirSync(dataDir);
      const written = writeJournal(journalPath(dataDir), races, eventsFor50, true);
      if (written.confirmed !== STATUS_RACES) throw new Error(`bench: a status table's journal holds ${written.confirmed} races, ${STATUS_RACES} wanted`);
      statusRecords += written.events;
      await ensureTable(admin, table);
      await syncStation(admin, table, dataDir);
    }
    const foldStarted = performance.now();
    await foldFloor(admin);
    const firstFoldMs = performance.now() - foldStarted;
    const queries: number[] = [];
    let answer: Awaited<ReturnType<typeof floorStatus>> | null = null;
    for (let index = 0; index < STATUS_QUERIES; index += 1) {
      const queryStarted = performance.now();
      answer = await floorStatus(admin);
      queries.push(performance.now() - queryStarted);
    }
    const statusTables = answer?.tables.filter((table) => table.table.startsWith('S')) ?? [];
    if (statusTables.length !== STATUS_TABLES || statusTables.some((table) => table.races !== STATUS_RACES)) throw new Error(`bench: the floor's status shows ${statusTables.length} tables, not ${STATUS_TABLES} of ${STATUS_RACES} races each`);

    return {
      figures: [
        { name: `floor: replication lag p95, ${STATIONS} stations dealing at full speed (${total.toLocaleString('en-US')} records)`, value: Math.round(percentile(lags, 95)), unit: 'ms', target: 1000, better: 'lower' },
        { name: `floor: status (fold check + query), ${STATUS_TABLES} tables × ${STATUS_RACES} races, median of ${STATUS_QUERIES}`, value: round1(percentile(queries, 50)), unit: 'ms', target: 100, better: 'lower' },
      ],
      details: {
        status: {
          method: `floorStatus (what the floor page and \`floor status\` run: the fold's check for new records, then the status query) on a floor of ${STATUS_TABLES} tables with ${STATUS_RACES} confirmed races each (${statusRecords.toLocaleString('en-US')} records), after the first fold`,
          records: statusRecords,
          firstFoldMs: Math.round(firstFoldMs),
          medianMs: round1(percentile(queries, 50)),
          maxMs: round1(Math.max(...queries)),
        },
        lag: {
          method: `${STATIONS} stations in one process, each a real journal (append + fsync), its own login and the console's FloorLink; ${RECORDS_PER_STATION} records each (the template races') appended one after the other as fast as the journal takes them; a watcher polls the floor every ${POLL_MS} ms for each table's last record`,
          records: total,
          dealtMs: Math.round(dealtMs),
          recordsPerSecond: Math.round(total / (dealtMs / 1000)),
          p50Ms: round1(percentile(lags, 50)),
          p95Ms: round1(percentile(lags, 95)),
          maxMs: round1(Math.max(...lags)),
        },
      },
    };
  } finally {
    await admin.end().catch(() => undefined);
    await server.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}
