import { readFileSync } from 'node:fs';
import pg from 'pg';
import { adjustForMinutesLeft, clockSchedule, readClock } from '../engine/clock/clock';
import { readStructure } from '../engine/plan/structure';
import type { FloorClock } from '../protocol/clock';
import { actOnFloorClock, loadFloorTournament, type ClockAction } from './clock';
import { migrate, schemaVersion, SCHEMA_VERSION } from './db/migrate';
import { createStationLogin, ensureTable, StationLoginExists, type StationLogin } from './db/stations';
import { setHoldBreaks } from './hold';
import { breakProgress, damagedInWords, floorStatus, foldFloor, STATUS_FOLD_BUDGET_MS } from './fold';
import { EMPTY_SUMMARY, summaryCsv, summaryJson, tournamentSummary } from './summary';
import { decisionWordIn, parseSeparator, separatorFor } from '../replay/csv';
import { readSeating, seatingFromCsv, setSeating } from './seating';
import { isFloorRefusal } from './refusal';
import { removeTable } from './tables';
import { startFloorServer } from './server';
import { syncStation } from '../replication/sync';
import { floorUrlOf, parseFloorAddress } from '../replication/floorAddress';
import { connectFloorClient } from '../replication/floorClient';
import { capacityWarning, checkConnections, cliLanguage, type ConnectionNeed } from './db/capacity';

/**
 * `npm run floor -- <subcommand>`: the floor console from the command line.
 *
 * Its subcommands and options, and what each does, are HELP in floor/cliArguments.ts (`floor --help`, and
 * `floor SUBCOMMAND --help`).
 *
 * CHIP_RACE_DATABASE_URL stands for --database, CHIP_RACE_FLOOR_TOKEN for --token; --database-file
 * and --token-file read them from a file only its owner can read. Either keeps the secret off the
 * command line, which every user of the machine can read (/proc/PID/cmdline). A bad argument,
 * an unreachable database or a refusal: exit 2 with one line on standard error, nothing on
 * standard output (checks read standard output as the answer).
 */

import { DEFAULT_PORT, helpText, isHostList, parseArguments, readOptionFile, shown, type ClockCommand } from './cliArguments';

export { CLI_OPTIONS, helpText, parseArguments, SUBCOMMANDS, type CliArguments } from './cliArguments';

/** A connection to the floor's database: the first host of its list that accepts writes (the primary, else a standby once promoted). */
async function connect(url: string): Promise<pg.Client> {
  try {
    return await connectFloorClient(url, { connectionTimeoutMillis: 5_000, application_name: 'chip-race-floor' }, () => undefined);
  } catch (error) {
    throw new Error(`cannot reach the floor's database at ${shown(url)}: ${(error as Error).message}`);
  }
}

const isPermission = (error: unknown) => (error as { code?: unknown }).code === '42501';

/** Migrates when the role may; a role that may not (a station's) works on the schema as it is. */
async function migrateIfAllowed(client: pg.Client): Promise<void> {
  try {
    await migrate(client);
  } catch (error) {
    if (!isPermission(error)) throw error;
  }
}

const EMPTY_STATUS = { tables: [], totals: { races: 0, valueDelta: 0, bring: {}, collect: {} }, progress: breakProgress([]) };

async function status(url: string, out: (text: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrateIfAllowed(client);
    if ((await schemaVersion(client)) < SCHEMA_VERSION) {
      out(`${JSON.stringify(EMPTY_STATUS)}\n`);
      return;
    }
    const floor = await floorStatus(client);
    const seating = new Map((await readSeating(client)).map((entry) => [entry.table, entry]));
    // A seated table: its players; a broken one says so, with its race still open (a colour-up broken mid-race).
    const seated = (table: string, openRace: string | null) => {
      const entry = seating.get(table);
      if (entry === undefined) return {};
      return { players: entry.seats.length, ...(entry.brokenAt === null ? {} : { broken: true, ...(openRace === null ? {} : { brokenWithOpenRace: openRace }) }) };
    };
    const document = {
      tables: floor.tables.map((table) => ({ table: table.table, races: table.races, valueDelta: table.valueDelta, lastSeen: table.lastSeen, colourUp: table.colourUp, foldBehind: table.foldBehind, ...(table.foldProblems.length > 0 ? { foldProblems: table.foldProblems } : {}), ...(table.damaged.length > 0 ? { damaged: table.damaged } : {}), ...((table.damagedRaces ?? []).length > 0 ? { damagedRaces: (table.damagedRaces ?? []).map((race) => ({ ...race, status: race.confirmed ? 'confirmed' : 'damaged', words: damagedInWords(race) })) } : {}), bring: table.bring, collect: table.collect, sheetAfterLevel: table.sheetAfterLevel, ...((table.exchanges ?? []).length > 0 ? { exchanges: table.exchanges } : {}), ...seated(table.table, table.openRace?.raceId ?? null), ...(table.heardFrom === false ? { heardFrom: false } : {}) })),
      // The chip runner's sheet: each table's for its own break (floor/fold.ts tableSheet, its exchanges outside a race listed beside it), added up.
      totals: { races: floor.totals.races, valueDelta: floor.totals.valueDelta, bring: floor.totals.bring, collect: floor.totals.collect },
      // The current break's progress board: tables at each colour-up status, and how many are left.
      progress: floor.progress,
    };
    out(`${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function sync(url: string, table: string, dataDir: string, out: (text: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrateIfAllowed(client);
    try {
      await ensureTable(client, table);
    } catch (error) {
      // A station's own login cannot register tables: its table was registered when it was made.
      if (!isPermission(error)) throw error;
    }
    const outcome = await syncStation(client, table, dataDir);
    out(`${JSON.stringify({ table, sent: outcome.sent, stored: outcome.stored, refused: outcome.refused, floorHas: outcome.floorHas })}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function addTable(url: string, table: string, rotate: boolean, out: (text: string) => void, warn: (need: ConnectionNeed) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrate(client);
    // One table more than the logins made so far (none more for a rotation): said, the login still made.
    const need = await checkConnections(client, rotate ? 0 : 1);
    if (!need.enough) warn(need);
    let login: StationLogin;
    try {
      login = await createStationLogin(client, table, { rotate });
    } catch (error) {
      if (error instanceof StationLoginExists) throw new Error(`table ${table} already has a station login: add --rotate to give it a new password (its station's old one then stops working)`);
      throw error;
    }
    out(`${stationUrl(url, login)}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The floor's URL with a station's login: every host of its list, so the station follows a promoted standby too. */
function stationUrl(url: string, login: StationLogin): string {
  const reading = parseFloorAddress(url);
  if (isHostList(url) && reading.ok) return floorUrlOf(reading.address, { user: encodeURIComponent(login.role), password: encodeURIComponent(login.password) });
  const station = new URL(url);
  station.username = encodeURIComponent(login.role);
  station.password = encodeURIComponent(login.password);
  return station.toString();
}

/** A table the floor holds nothing of removed (floor/tables.ts removeTable), one JSON line; refused (exit 2) saying why. */
async function removeTableCommand(url: string, table: string, out: (text: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrate(client);
    out(`${JSON.stringify(await removeTable(client, table))}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function serve(options: Readonly<Record<string, string>>, names: readonly string[], out: (text: string) => void, warn: (need: ConnectionNeed) => void): Promise<void> {
  const database = options.database as string;
  const tls = options['tls-cert'] === undefined ? undefined : { cert: readOptionFile(options['tls-cert'], 'tls-cert', 64 * 1024, false), key: readOptionFile(options['tls-key'] as string, 'tls-key', 64 * 1024, true) };
  // Reachable and migrated before the page starts: a floor that cannot read is no floor.
  const client = await connect(database);
  try {
    await migrate(client);
    // The server's connection slots against the tables that have a login: said at start, with what
    // to change; the floor still serves (the stations that got a slot are counted as ever).
    const need = await checkConnections(client);
    if (!need.enough) warn(need);
  } finally {
    await client.end().catch(() => undefined);
  }
  const server = await startFloorServer({
    databaseUrl: database,
    port: options.port === undefined ? DEFAULT_PORT : Number(options.port),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(tls === undefined ? {} : { tls }),
    names,
  });
  out(`floor: serving ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
}

/** Where the floor's clock is now, as one JSON line: what the floor page shows. */
function clockLine(clock: FloorClock, now: number): string {
  const reading = readClock(clockSchedule(readStructure(clock.structure)), clock.events, now);
  return `${JSON.stringify({ status: reading.status, period: reading.period, msLeft: reading.msLeft, nextBreak: reading.nextBreak, events: clock.events.length, held: clock.held ?? null })}\n`;
}

/** The tournament loaded from its file, as the floor page's upload loads it (floor/clock.ts loadFloorTournament). */
async function structure(url: string, file: string, out: (text: string) => void): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const client = await connect(url);
  try {
    await migrate(client);
    out(clockLine(await loadFloorTournament(client, text, Date.now()), Date.now()));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The seat list loaded: the whole seating replaced, one JSON line saying how many tables and players. */
async function seating(url: string, file: string, out: (text: string) => void): Promise<void> {
  const rows = seatingFromCsv(readFileSync(file, 'utf8'));
  const client = await connect(url);
  try {
    await migrate(client);
    out(`${JSON.stringify(await setSeating(client, rows, 'floor seating (command line)'))}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function clockCommand(url: string, command: ClockCommand, minutes: string | undefined, out: (text: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrate(client);
    if (command === 'hold' || command === 'no-hold') {
      await setHoldBreaks(client, command === 'hold', Date.now());
      out(`${JSON.stringify({ holdBreaks: command === 'hold' })}\n`);
      return;
    }
    const action: ClockAction = command === 'adjust' ? { type: 'adjust', by: adjustForMinutesLeft(Number(minutes)) } : { type: command };
    out(clockLine(await actOnFloorClock(client, action, Date.now()), Date.now()));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The chip audit's summary of the whole tournament, folded first (as `status` folds), on standard output. */
async function summary(url: string, format: string | undefined, sep: string | undefined, env: NodeJS.ProcessEnv, out: (text: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await migrateIfAllowed(client);
    // A floor whose schema this role may not bring up to date has nothing folded to sum: the empty summary.
    const current = (await schemaVersion(client)) >= SCHEMA_VERSION;
    if (current) await foldFloor(client, STATUS_FOLD_BUDGET_MS, { waitForBusy: true });
    const made = current ? await tournamentSummary(client) : EMPTY_SUMMARY;
    const separator = (sep === undefined ? null : parseSeparator(sep)) ?? separatorFor(env.LC_ALL || env.LANG);
    out(format === 'json' ? summaryJson(made) : summaryCsv(made, { separator, decisionWord: decisionWordIn(cliLanguage(env)) }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  try {
    const parsed = parseArguments(argv, env);
    const { command, options } = parsed;
    if (parsed.help === true) {
      out(helpText(parsed.all === true ? null : command));
      return 0;
    }
    const database = options.database as string;
    const warn = (need: ConnectionNeed) => err(`floor: ${capacityWarning(need, cliLanguage(env))}\n`);
    if (command === 'status') await status(database, out);
    else if (command === 'sync') await sync(database, options.table as string, options.data as string, out);
    else if (command === 'add-table') await addTable(database, options.table as string, options.rotate !== undefined, out, warn);
    else if (command === 'remove-table') await removeTableCommand(database, options.table as string, out);
    else if (command === 'structure') await structure(database, options.file as string, out);
    else if (command === 'seating') await seating(database, options.file as string, out);
    else if (command === 'clock') await clockCommand(database, parsed.clock as ClockCommand, options.minutes, out);
    else if (command === 'summary') await summary(database, options.format, options.sep, env, out);
    else await serve(options, parsed.names, out, warn);
    return 0;
  } catch (error) {
    // The engine's refusals (a structure without minutes, the clock paused twice) by field and reason.
    const message = isFloorRefusal(error) ? `${error.field}: ${error.reason}` : error instanceof Error ? error.message : String(error);
    err(`floor: ${message.replace(/\s+/g, ' ').trim().slice(0, 500)}\n`);
    return 2;
  }
}

if (process.argv[1] !== undefined && /cli\.ts$/.test(process.argv[1])) {
  void main(process.argv.slice(2), process.env, (text) => process.stdout.write(text), (text) => process.stderr.write(text)).then((code) => {
    process.exitCode = code;
  });
}
