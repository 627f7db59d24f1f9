import { createHmac } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import pg from 'pg';
import { readCookie } from '../net/cookies';
import { allowedHosts } from '../net/hosts';
import { keyMatches } from '../net/keys';
import { InputError, isInputError } from '../engine/errors';
import type { Message, MessageKey, MessageParam } from '../engine/messages';
import { isLoopbackHost, listenOn } from '../net/loopback';
import { adjustForMinutesLeft } from '../engine/clock/clock';
import { actOnFloorClock, loadFloorTournament, readFloorClock, TOURNAMENT_MAX_BYTES, type ClockAction } from './clock';
import { holdStep, setHoldBreaks, tablesLeftAt } from './hold';
import { reconcile, readTicks, recordTick, runnerBreak, runnerName } from './runner';
import { renderRunner, RUNNER_PRINT_CSS } from './page/runnerPage';
import { isTableName } from '../protocol/tableName';
import { NAME_MAX } from '../protocol/constants';
import { floorCsvChunks, floorJsonChunks } from './export';
import { summaryCsv, summaryJson, tournamentSummary } from './summary';
import { decisionWordIn, parseSeparator, separatorFor } from '../replay/csv';
import { tableCalls } from './calls';
import { recordDecision, tableDecisions } from './decisions';
import { floorRaceRecord, foldFloor, readFloorStatus, tableRaces, type FloorStatus } from './fold';
import type { FloorClock } from '../protocol/clock';
import { multipartBoundary, readMultipart } from './multipart';
import { breakTable, checkPlace, checkStations, moveSeat, readSeating, readSeatingChanges, SEATING_MAX_BYTES, seatingFromCsv, setSeating, typedTableName, undoableChange, undoSeatingChange, unseat } from './seating';
import { brokenMidColourUp, clockSection, FLOOR_CSS, renderSeating, renderTournament, seatingChangeText, seatsText, tableSeatsSection, outageBanner, type SeatConfirmation, renderLogin, renderMessage, renderOutage, renderOverview, renderRaceRecord, renderTable } from './page/render';
import { isFloorLanguage, languageOf, say, sayMessage, type FloorLanguage } from './page/words';
import { createGuessPacer, guessSource } from './guesses';
import { floorPoolConfig, onSilentHost } from '../replication/floorClient';
import { createWatchdog, type WatchdogOptions } from './watchdog';

/**
 * The floor page: every table of the tournament, server-side rendered, read-only. Who may use it:
 *
 * - `Host` must be one of the floor's own names with its port (DNS rebinding: main/web/access.ts):
 *   its loopback names, its bound address, this machine's interface addresses when bound to all of
 *   them, and the names given with `--name`;
 * - `Origin`, when a browser sends one, must be the floor's own page (another site's script is
 *   refused), and a POST (the sign-in form, the clock's buttons, the tournament's and the seating's forms: the only ones) must carry it;
 * - on loopback nobody else is asked; on any other address the floor starts only with a token
 *   (a password) and over HTTPS (its certificate and key), and then every request shows it:
 *   `Authorization: Bearer`, or the cookie the sign-in form sets (compared in constant time, main/web/key.ts keyMatches). The cookie holds
 *   a value derived from the token, not the token: any printable token (`openssl rand -base64`'s
 *   `+ / =`, a space, `%`) signs in, and no cookie encoding stands between the two. Wrong tokens
 *   are answered slowly, one after another per client address (floor/guesses.ts), and each
 *   is logged with its time and address (never the guess).
 *
 * No route writes station data: the pages and the exports only read what the background fold
 * wrote (the fold writes only the floor's own summary tables; the clock's buttons and the tournament's upload only the floor's clock;
 * the seating's forms only the floor's seating, floor/seating.ts; the decision form only floor_decisions;
 * the runner's ticks only floor_runner_ticks).
 */

export interface FloorServerOptions {
  readonly databaseUrl: string;
  /** 127.0.0.1 by default; another address only with a token. */
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  /** The names the floor answers to besides its addresses (`--name floor.local`): the cardroom's DNS or mDNS names for it. */
  readonly names?: readonly string[];
  /** HTTPS: the floor's certificate and key (PEM). Required off loopback: the token and the page would travel in clear. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  readonly log?: (line: string) => void;
  /** The clock the link states are judged by (tests). */
  readonly now?: () => number;
  /** How long the background fold rests between passes (ms). */
  readonly foldEveryMs?: number;
  /** How often the floor looks whether to hold or let go a break (tests: faster). */
  readonly holdEveryMs?: number;
  /** How long one statement on the floor's database may go unanswered before its connection is cut and the database said unreachable (QUERY_TIMEOUT_MS). */
  readonly queryTimeoutMs?: number;
  /** The watchdog over the stations' statements (floor/watchdog.ts): its limits and pace (tests: shorter). */
  readonly watchdog?: WatchdogOptions;
}

export interface FloorServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The background fold's rest between passes, and the most one pass folds before it lets the next begin. */
const FOLD_EVERY_MS = 250;
const FOLD_PASS_BUDGET_MS = 2000;

/**
 * How long one statement of the floor's may go unanswered: past it the connection is cut and the
 * page says the database cannot be reached (a floor computer gone without a word: power, cable).
 * On the bench's floor (bench/floor.ts: 100 tables × 50 races, and a table whose open race holds
 * 40,000 records), on a 2-CPU machine under a load of 7: the status query took 92 ms at most (40
 * median), a fold step's write 32 ms, the longest of all, the fold's read of 20,000 records of the
 * open race's table, 217 ms, an export's 212 ms. 10 s is 45 times that (a slower computer, a
 * server busy with stations' statements, themselves cut at their login's statement_timeout), and
 * what a director waits at most before the page says so.
 */
export const QUERY_TIMEOUT_MS = 10_000;

/** The shortest token the floor takes for the LAN: a password guessed in minutes would guard nothing. */
export const TOKEN_MIN_LENGTH = 12;
const TOKEN_MAX_LENGTH = 512;
/** The longest request target the floor reads: its own links are far shorter. */
export const MAX_TARGET_LENGTH = 2048;
const MAX_FORM_BYTES = 4096;
/** How far apart one client address's wrong tokens are answered: at most 4 guesses a second. */
export const GUESS_SPACING_MS = 250;
/** Guesses one address may have waiting for their answer; more are refused unchecked (429). */
const MAX_WAITING_GUESSES = 32;
/** Whether a token holds a control character: a form, a header or a file would not carry it as typed. */
const hasControlCharacter = (value: string): boolean => [...value].some((character) => {
  const code = character.codePointAt(0) as number;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
});

/** Only same-origin styles, no script, no frames, forms only to the floor itself. */
export const FLOOR_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': FLOOR_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` with the page's own forms (the
  // sign-in, the clock's buttons), which the Origin check must refuse. same-origin sends the
  // floor's origin to itself and nothing to anyone else.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Query parameters each page takes; any other (or one given twice) is a bad request. */
const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  '/': ['lang'],
  '/table': ['lang', 'table'],
  '/race': ['lang', 'table', 'race'],
  '/export.csv': ['lang', 'sep'],
  '/export.json': [],
  '/export/summary.csv': ['lang', 'sep'],
  '/export/summary.json': [],
  '/floor.css': [],
  '/login': ['lang'],
  '/clock': [],
  '/runner': ['lang', 'level'],
  '/seating': ['lang', 'loaded'],
  '/tournament': ['lang', 'loaded'],
  '/seat': [],
  '/decision': [],
};

/** The clock's buttons: what each posts, and what it does. */
const CLOCK_ACTIONS: Readonly<Record<string, ClockAction>> = {
  start: { type: 'start' },
  pause: { type: 'pause' },
  resume: { type: 'resume' },
  // "−1 min" and "+1 min": a minute less or more left in the level.
  less: { type: 'adjust', by: adjustForMinutesLeft(-1) },
  more: { type: 'adjust', by: adjustForMinutesLeft(1) },
};

/** The held break's option (floor/hold.ts): what each button posts, on or off. */
const HOLD_ACTIONS: Readonly<Record<string, boolean>> = { 'hold-on': true, 'hold-off': false };

/** How often the floor looks whether a break is to be held or let go (the pause itself is dated to the break's end). */
const HOLD_EVERY_MS = 1000;

/** A name given with `--name`: a DNS name such as floor.local. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function isHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

/**
 * This machine's interface addresses, as a LAN client's Host header names them: a floor bound to
 * every interface (0.0.0.0, ::) is reached by any of them. An IP literal cannot be rebound by DNS,
 * so each is safe to answer to; a zone (`%eth0`) is no part of a Host header.
 */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.replace(/%.*$/, '')));
}

/** Whether a database error means the server is gone (stopped, restarting, the network down), not a refused statement. */
function isDatabaseGone(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (/^(08|57P)/.test(code) || /^E[A-Z]+$/.test(code)) return true;
  return code === '' && /terminated|ended|closed|timeout|not queryable/i.test(String((error as Error | null)?.message ?? ''));
}

/**
 * How a background loop of the server (the fold, the held break) reports its passes: a failure
 * logged when it is not the one logged last (the database gone: a line or two, not four a second
 * for as long as it is gone), and the first pass that works after failures.
 */
function loopReport(name: string, log: (line: string) => void): { passed: () => void; failed: (error: unknown) => void } {
  let failing: string | null = null;
  return {
    passed() {
      if (failing !== null) log(`${name}: going again`);
      failing = null;
    },
    failed(error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== failing) log(`${name}: ${message}`);
      failing = message;
    },
  };
}

const RACE_ID = /^race-[1-9][0-9]{0,8}$/;

/** A request the floor will not read, and why (in keys: the answer is said in the asker's language). */
class BadRequest extends Error {
  readonly said: Message;
  constructor(said: Message) {
    super(said.key);
    this.said = said;
  }
}

/**
 * The language of a request the floor answers in plain text: its `lang` when it names one (read
 * leniently: the request may be one the floor refuses), else its Accept-Language, else English.
 */
function requestLanguage(request: IncomingMessage): FloorLanguage {
  const lang = /[?&]lang=([a-z]{2})(?:&|$)/.exec((request.url ?? '').slice(0, MAX_TARGET_LENGTH))?.[1] ?? null;
  const accept = request.headers['accept-language'];
  return languageOf(lang, typeof accept === 'string' ? accept : undefined);
}

function parseTarget(url: string | undefined): { path: string; query: Map<string, string> } {
  if (url === undefined || url.length > MAX_TARGET_LENGTH || !url.startsWith('/') || url.startsWith('//')) throw new BadRequest({ key: 'floor.http.why.target' });
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  const allowed = PARAMETERS[path];
  if (allowed === undefined) return { path, query: new Map() };
  const query = new Map<string, string>();
  if (search !== '') {
    for (const part of search.split('&')) {
      const equals = part.indexOf('=');
      const rawName = equals < 0 ? part : part.slice(0, equals);
      const rawValue = equals < 0 ? '' : part.slice(equals + 1);
      let name: string;
      let value: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
        value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
      } catch {
        throw new BadRequest({ key: 'floor.http.why.query' });
      }
      if (!allowed.includes(name) || query.has(name)) throw new BadRequest({ key: 'floor.http.why.parameter', params: { name: name.slice(0, 20) } });
      query.set(name, value);
    }
  }
  const lang = query.get('lang');
  if (lang !== undefined && !isFloorLanguage(lang)) throw new BadRequest({ key: 'floor.http.why.lang' });
  const table = query.get('table');
  if (table !== undefined && !isTableName(table)) throw new BadRequest({ key: 'floor.http.why.table' });
  const race = query.get('race');
  if (race !== undefined && !RACE_ID.test(race)) throw new BadRequest({ key: 'floor.http.why.race' });
  const sep = query.get('sep');
  if (sep !== undefined && parseSeparator(sep) === null) throw new BadRequest({ key: 'floor.http.why.sep' });
  return { path, query };
}

/** What a table's page shows, read in one connection: its status row, races, seating, the director's decisions and its calls of the floor; null for no such table. */
async function tablePage(client: pg.ClientBase, table: string) {
  const row = (await readFloorStatus(client)).tables.find((entry) => entry.table === table);
  if (row === undefined) return null;
  return {
    row,
    races: await tableRaces(client, table),
    seating: (await readSeating(client)).find((entry) => entry.table === table),
    changes: await readSeatingChanges(client, table),
    decisions: await tableDecisions(client, table),
    calls: await tableCalls(client, table),
  };
}

type TablePage = NonNullable<Awaited<ReturnType<typeof tablePage>>>;

/** A table's page as HTML, with what a form came back with: the decision form's refusal, the seats' refusal, or the question a seat form waits on. */
function tableHtml(found: TablePage, table: string, language: FloorLanguage, now: number, shown: { readonly decisionProblem?: string; readonly seatsProblem?: string; readonly confirmation?: SeatConfirmation } = {}): string {
  const seats = tableSeatsSection(table, found.seating, language, shown.seatsProblem ?? null, found.changes, shown.confirmation ?? null);
  return renderTable(found.row, found.races, language, now, seats, found.decisions, shown.decisionProblem ?? null, found.calls);
}

/**
 * The question a seat form asks before it acts (issue 43: "Out", "moved" and "table broken" were
 * one tap from harm): the action in words, with the player it is about as the floor holds them now.
 * Refused as the action itself would be when there is nothing to act on.
 */
/** A seat number as a form gives it (1 or 2 digits, spaces around allowed), else NaN: refused where it is checked (checkPlace). */
const seatOf = (value: string | undefined): number => (value !== undefined && /^\s*\d{1,2}\s*$/.test(value) ? Number(value) : NaN);
/** A change's id as the undo form gives it, else NaN (no change has it). */
const changeIdOf = (value: string | undefined): number => (value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : NaN);

async function seatQuestion(client: pg.ClientBase, form: ReadonlyMap<string, string>, table: string, language: FloorLanguage): Promise<SeatConfirmation> {
  const action = form.get('action');
  const seat = seatOf(form.get('seat'));
  const all = await readSeating(client);
  const seating = all.find((entry) => entry.table === table);
  const playerAt = (at: number) => {
    checkPlace(table, at);
    const player = seating?.seats.find((entry) => entry.seat === at)?.player;
    if (player === undefined) throw new InputError('seat', { key: 'floor.seating.noSeat', params: { table, seat: at } });
    return player;
  };
  if (action === 'out') return { question: say(language, 'floor.page.seats.confirmOut', { player: playerAt(seat), seat, table }), fields: { action, seat: String(seat) } };
  if (action === 'move') {
    const player = playerAt(seat);
    const toTable = typedTableName(form.get('to-table') ?? '');
    const toSeat = seatOf(form.get('to-seat'));
    checkPlace(toTable, toSeat);
    // A table the floor has no station for is refused before the question (issue 44: a typo made a table).
    if (toTable !== table) await checkStations(client, [toTable]);
    // Asked only about a move that can be made now (the seat free, the table not broken).
    const there = all.find((entry) => entry.table === toTable);
    const taken = there?.seats.find((entry) => entry.seat === toSeat)?.player;
    if (taken !== undefined) throw new InputError('seat', { key: 'floor.seating.seatTaken', params: { table: toTable, seat: toSeat, player: taken } });
    if (there?.brokenAt) throw new InputError('seat', { key: 'floor.seating.broken', params: { table: toTable } });
    return { question: say(language, 'floor.page.seats.confirmMove', { player, table, seat, toTable, toSeat }), fields: { action, seat: String(seat), 'to-table': toTable, 'to-seat': String(toSeat) } };
  }
  if (action === 'break') {
    await checkStations(client, [table], { seated: true });
    return { question: say(language, 'floor.page.seats.confirmBreak', { table, players: seatsText(seating?.seats ?? []) }), fields: { action } };
  }
  const id = changeIdOf(form.get('change'));
  // Refused as the undo itself would be (another table's change is not this page's to undo).
  const change = await undoableChange(client, id, table);
  return { question: say(language, 'floor.page.seats.confirmUndo', { id, change: seatingChangeText(change, language) }), fields: { action: 'undo', change: String(id) } };
}

/** How many whole-floor exports are written at once; the others wait their turn (streamExport). */
const EXPORTS_AT_ONCE = 2;

/** At most `n` holders at a time, the others queued in order. */
function turns(n: number): { take(): Promise<void>; give(): void } {
  let free = n;
  const waiting: (() => void)[] = [];
  return {
    take: () => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give: () => {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    },
  };
}

/**
 * How long an export waits for its reader to take more before the connection is cut: a client
 * that stops reading (a laptop closed mid-download) would hold one of the EXPORTS_AT_ONCE turns,
 * and its place in line, for as long as its connection lasted.
 */
export const EXPORT_STALL_MS = 60_000;

/**
 * Resolves when `response` takes more (drained), or is closed; a response that takes nothing for
 * `stallMs` is destroyed (then it resolves, closed).
 */
export function writable(response: ServerResponse, stallMs: number = EXPORT_STALL_MS): Promise<void> {
  return new Promise((resolve) => {
    const stalled = setTimeout(() => response.destroy(), stallMs);
    const done = () => {
      clearTimeout(stalled);
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

export async function startFloorServer(options: FloorServerOptions): Promise<FloorServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token;
  const log = options.log ?? ((line: string) => process.stderr.write(`floor: ${line}\n`));
  const now = options.now ?? Date.now;
  if (token !== undefined && (token.length < TOKEN_MIN_LENGTH || token.length > TOKEN_MAX_LENGTH)) throw new Error(`the floor's token must be ${TOKEN_MIN_LENGTH} to ${TOKEN_MAX_LENGTH} characters`);
  if (token !== undefined && (hasControlCharacter(token) || token.trim() !== token)) throw new Error("the floor's token must be printable characters, with no space at its start or end");
  // What the sign-in cookie holds: the token's own proof, base64url (a cookie carries it unencoded).
  const session = token === undefined ? undefined : createHmac('sha256', token).update('chip-race-floor session').digest('base64url');
  const pacer = createGuessPacer({ spacingMs: GUESS_SPACING_MS, maxWaiting: MAX_WAITING_GUESSES });
  const lan = !isLoopbackHost(host);
  if (lan && token === undefined) throw new Error(`refusing to listen on ${host}: the floor serves the cardroom's network only behind a token (--token or CHIP_RACE_FLOOR_TOKEN)`);
  if (lan && options.tls === undefined) throw new Error(`refusing to listen on ${host} without HTTPS: add --tls-cert FILE --tls-key FILE (docs/floor.md makes them with the cardroom's own certificate authority)`);
  const names = options.names ?? [];
  for (const name of names) if (!isHostName(name)) throw new Error(`--name ${JSON.stringify(name.slice(0, 64))} is not a host name (such as floor.local)`);

  const pool = new pg.Pool(floorPoolConfig(options.databaseUrl, { max: 4, connectionTimeoutMillis: 5_000 }, options.queryTimeoutMs ?? QUERY_TIMEOUT_MS));
  // A connection the server drops (a restart) is replaced on the next request; it is no crash.
  pool.on('error', (error) => log(`database: ${error.message}`));

  let hosts: ReadonlySet<string> = new Set();
  let origins: ReadonlySet<string> = new Set();
  let cookie = 'chip-race-floor';

  const send = (response: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}, head = false) => {
    response.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
    response.end(head ? undefined : body);
  };
  const html = 'text/html; charset=utf-8';
  const text = 'text/plain; charset=utf-8';
  /** A plain-text answer in the asker's language (floor.http.*). */
  const plain = (request: IncomingMessage, response: ServerResponse, status: number, key: MessageKey, params?: Readonly<Record<string, MessageParam>>, extra: Record<string, string> = {}, head = false) =>
    send(response, status, text, `${say(requestLanguage(request), key, params)}\n`, extra, head);

  /**
   * A shown token paced: answered once its address's wrong guesses are paid for ('busy': too many
   * waiting). A wrong one is logged (time and address, never the guess).
   */
  const checkGuess = async (request: IncomingMessage, matches: boolean): Promise<'right' | 'wrong' | 'busy'> => {
    const address = request.socket.remoteAddress ?? 'unknown';
    if (!matches) log(`${new Date().toISOString()} wrong token from ${address}`);
    if (!(await pacer.pace(guessSource(address), matches))) return 'busy';
    return matches ? 'right' : 'wrong';
  };

  /** Whether the request shows the token (Bearer, or the sign-in cookie); 'none' when it shows nothing. */
  const authorised = async (request: IncomingMessage): Promise<'right' | 'wrong' | 'busy' | 'none'> => {
    if (token === undefined || session === undefined) return 'right';
    const header = request.headers.authorization;
    // A header's bytes arrive as Latin-1: read back as the UTF-8 the client sent.
    if (typeof header === 'string' && header.startsWith('Bearer ')) return checkGuess(request, keyMatches(token, Buffer.from(header.slice(7), 'latin1').toString('utf8')));
    const cookieHeader = request.headers.cookie;
    const shown = readCookie(typeof cookieHeader === 'string' ? cookieHeader : undefined, cookie);
    if (shown === null) return 'none';
    return checkGuess(request, keyMatches(session, shown));
  };
  const tooManyGuesses = (request: IncomingMessage, response: ServerResponse) => plain(request, response, 429, 'floor.http.tooManyGuesses', undefined, { 'Retry-After': '10' });

  /** Since when the database has not answered (null: it answered the last time it was asked). */
  let unreachableSince: number | null = null;
  /** The overview's data as last read: shown, with the outage banner, while the database is gone. */
  let lastView: { status: FloorStatus; clock: FloorClock | null; at: number } | null = null;

  const exportTurn = turns(EXPORTS_AT_ONCE);

  /**
   * Runs `work` on a connection of the pool: every route, the fold, the hold step, the clock's
   * buttons, the exports. While the connection is checked out its own 'error' is taken here (the
   * pool's listener covers idle ones only): the server stopped or crashed under a statement, or
   * between two, ends that statement (it rejects: the page says the database is gone, the fold and
   * the hold step try again on their next pass), never the process. A connection that failed is
   * dropped from the pool, not handed to the next request. A statement unanswered past the
   * deadline (the database's computer gone without a word) has its connection cut
   * (replication/floorClient.ts): it fails the same way. An idle connection to a host of the list
   * that stopped answering so is dropped unused, and the next goes to the list's other hosts.
   */
  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const checkOut = async (): Promise<pg.PoolClient> => {
      try {
        return await pool.connect();
      } catch (error) {
        unreachableSince ??= now();
        throw error;
      }
    };
    let client = await checkOut();
    while (onSilentHost(client)) {
      client.release(new Error('its host stopped answering'));
      client = await checkOut();
    }
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost ??= error;
      unreachableSince ??= now();
      log(`database: ${error.message}`);
    };
    client.on('error', onError);
    let failed: Error | undefined;
    try {
      const result = await work(client);
      if (lost === undefined) unreachableSince = null;
      return result;
    } catch (error) {
      if (isDatabaseGone(error)) {
        unreachableSince ??= now();
        failed = error as Error;
      }
      throw error;
    } finally {
      // Released with the error (the pool ends it) when the connection failed; the pool's own
      // listener is back on it before this one comes off.
      client.release(lost ?? failed);
      client.removeListener('error', onError);
    }
  };

  /**
   * The answer while the database is gone: the page in its language, 503, refreshing itself, with
   * the banner saying since when; the overview keeps its last view (the clock still counting).
   */
  const sendOutage = (request: IncomingMessage, response: ServerResponse, since: number) => {
    let path = '/';
    let language: FloorLanguage;
    try {
      const target = parseTarget(request.url);
      path = target.path;
      language = languageOf(target.query.get('lang') ?? null, typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined);
    } catch {
      language = requestLanguage(request);
    }
    const banner = outageBanner(language, since, path === '/' && lastView !== null ? lastView.at : null);
    const body = path === '/' && lastView !== null ? renderOverview(lastView.status, language, now(), clockSection(lastView.clock, language, now()), banner) : renderOutage(language, banner);
    send(response, 503, html, body, { 'Retry-After': '5' }, request.method === 'HEAD');
  };

  /** The clock's buttons and the held break's option: the clock acted on, or the overview again with the refusal (paused twice, no structure). */
  async function postClock(request: IncomingMessage, response: ServerResponse, language: FloorLanguage): Promise<void> {
    const form = await readForm(request);
    const named = form?.get('action') ?? '';
    const action = CLOCK_ACTIONS[named];
    const hold = HOLD_ACTIONS[named];
    if (form === null || (action === undefined && hold === undefined) || form.size > 2) {
      send(response, 400, html, renderMessage(language, 'floor.page.badRequest'));
      return;
    }
    const formLanguage = languageOf(form.get('lang') ?? null, undefined);
    try {
      await withClient(async (client) => {
        if (hold !== undefined) await setHoldBreaks(client, hold, now());
        else await actOnFloorClock(client, action as ClockAction, now());
      });
    } catch (error) {
      if (!isInputError(error) || error.said === undefined) throw error;
      // Refused (paused twice, no structure): the floor again, the refusal in its language.
      const said = error.said;
      const page = await withClient(async (client) => {
        const clock = await readFloorClock(client);
        return renderOverview(await readFloorStatus(client), formLanguage, now(), clockSection(clock, formLanguage, now(), sayMessage(formLanguage, said)));
      });
      send(response, 409, html, page);
      return;
    }
    send(response, 303, text, '', { Location: `/?lang=${formLanguage}` });
  }

  /** The chip runner's tick (a form of the runner's sheet): the chips the sheet says now, who ticked them; refused without a name or for a table without this break. */
  async function postRunnerTick(request: IncomingMessage, response: ServerResponse, language: FloorLanguage): Promise<void> {
    const form = await readForm(request);
    const formLanguage = languageOf(form?.get('lang') ?? null, undefined);
    const kind = form?.get('kind');
    const level = Number(form?.get('level'));
    const tableName = form?.get('table') ?? '';
    if (form === null || form.size > 5 || (kind !== 'delivered' && kind !== 'collected') || !Number.isSafeInteger(level) || level < 0 || !isTableName(tableName)) {
      send(response, 400, html, renderMessage(language, 'floor.page.badRequest'));
      return;
    }
    const by = runnerName(form.get('by'));
    const refused = await withClient(async (client) => {
      const status = await readFloorStatus(client);
      const row = status.tables.find((entry) => entry.table === tableName && entry.sheetAfterLevel === level);
      if (by === null || row === undefined) return renderRunner(reconcile(status, await readTicks(client, level), level), formLanguage, say(formLanguage, 'floor.page.runner.badTick', { n: NAME_MAX }));
      // The chips the sheet says now: what the runner took or brought.
      await recordTick(client, { table: tableName, afterLevel: level, kind, by, chips: kind === 'delivered' ? row.bring : row.collect });
      return null;
    });
    if (refused !== null) send(response, 422, html, refused);
    else send(response, 303, text, '', { Location: `/runner?lang=${formLanguage}&level=${level}` });
  }

  /** The director's decision on a table (its page's form): refused without a note or a name, said on the table's page again. */
  async function postDecision(request: IncomingMessage, response: ServerResponse, language: FloorLanguage): Promise<void> {
    const form = await readForm(request);
    const decidedTable = form?.get('table');
    if (form === null || decidedTable === undefined || form.size > 6) {
      send(response, 400, html, renderMessage(language, 'floor.page.badRequest'));
      return;
    }
    const formLanguage = languageOf(form.get('lang') ?? null, undefined);
    try {
      await withClient((client) => recordDecision(client, { table: decidedTable, decision: form.get('decision'), note: form.get('note'), by: form.get('by'), raceId: form.get('race') }));
    } catch (error) {
      if (!isInputError(error) || error.said === undefined) throw error;
      // Refused (no note, nobody named): the table's page again, the refusal in its language.
      const said = error.said;
      const found = await withClient((client) => tablePage(client, decidedTable));
      if (found === null) send(response, 404, html, renderMessage(formLanguage, 'floor.page.notFound'));
      else send(response, 400, html, tableHtml(found, decidedTable, formLanguage, now(), { decisionProblem: sayMessage(formLanguage, said) }));
      return;
    }
    send(response, 303, text, '', { Location: `/table?table=${encodeURIComponent(decidedTable)}&lang=${formLanguage}` });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hostHeader = request.headers.host;
    if (typeof hostHeader !== 'string' || !hosts.has(hostHeader.toLowerCase())) {
      plain(request, response, 421, 'floor.http.misdirected');
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && (Array.isArray(origin) || !origins.has(origin.toLowerCase()))) {
      plain(request, response, 403, 'floor.http.otherSite');
      return;
    }
    const method = request.method ?? 'GET';
    let target: ReturnType<typeof parseTarget>;
    try {
      target = parseTarget(request.url);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      plain(request, response, 400, 'floor.http.badRequest', { why: { message: error.said } });
      return;
    }
    const { path, query } = target;
    const language: FloorLanguage = languageOf(query.get('lang') ?? null, typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined);
    const head = method === 'HEAD';

    if (path === '/login' && method === 'POST') {
      // A POST: it must come from the floor's own page.
      if (origin === undefined) {
        plain(request, response, 403, 'floor.http.formOrigin');
        return;
      }
      const form = await readForm(request);
      if (form === null) {
        plain(request, response, 400, 'floor.http.badRequest', { why: { message: { key: 'floor.http.why.form' } } });
        return;
      }
      const formLanguage = languageOf(form.get('lang') ?? null, undefined);
      if (token === undefined || session === undefined) {
        send(response, 401, html, renderLogin(formLanguage, true));
        return;
      }
      const guess = await checkGuess(request, keyMatches(token, form.get('token') ?? null));
      if (guess === 'busy') {
        tooManyGuesses(request, response);
        return;
      }
      if (guess === 'wrong') {
        send(response, 401, html, renderLogin(formLanguage, true));
        return;
      }
      send(response, 303, text, '', { Location: `/?lang=${formLanguage}`, 'Set-Cookie': `${cookie}=${session}; HttpOnly; SameSite=Strict; Path=/${scheme === 'https' ? '; Secure' : ''}` });
      return;
    }
    if ((path === '/clock' || path === '/tournament' || path === '/seating' || path === '/seat' || path === '/runner' || path === '/decision') && method === 'POST') {
      // The page's forms (the clock's buttons, the tournament's upload, the seating's, the runner's
      // ticks, the director's decisions): from the floor's own page only, by whoever may see the floor.
      if (origin === undefined) {
        plain(request, response, 403, 'floor.http.formOrigin');
        return;
      }
      const shown = await authorised(request);
      if (shown === 'busy') {
        tooManyGuesses(request, response);
        return;
      }
      if (shown !== 'right') {
        send(response, 401, html, renderLogin(language, false));
        return;
      }
      if (path === '/clock') await postClock(request, response, language);
      else if (path === '/tournament') await postTournament(request, response);
      else if (path === '/seating') await postSeating(request, response);
      else if (path === '/seat') await postSeat(request, response);
      else if (path === '/runner') await postRunnerTick(request, response, language);
      else await postDecision(request, response, language);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      plain(request, response, 405, 'floor.http.method', undefined, { Allow: 'GET, HEAD' });
      return;
    }
    if (path === '/floor.css') {
      send(response, 200, 'text/css; charset=utf-8', FLOOR_CSS + RUNNER_PRINT_CSS, {}, head);
      return;
    }
    const shown = await authorised(request);
    if (shown === 'busy') {
      tooManyGuesses(request, response);
      return;
    }
    if (shown !== 'right') {
      send(response, 401, html, renderLogin(language, false), {}, head);
      return;
    }
    if (path === '/login') {
      send(response, 200, html, renderLogin(language, false), {}, head);
      return;
    }
    if (path === '/clock' || path === '/decision') {
      plain(request, response, 405, path === '/clock' ? 'floor.http.clockMethod' : 'floor.http.decisionMethod', undefined, { Allow: 'POST' }, head);
      return;
    }
    if (PARAMETERS[path] === undefined) {
      send(response, 404, html, renderMessage(language, 'floor.page.notFound'), {}, head);
      return;
    }
    if (path === '/') {
      const { status, clock, seating } = await withClient(async (client) => ({ status: await readFloorStatus(client), clock: await readFloorClock(client), seating: await readSeating(client) }));
      lastView = { status, clock, at: now() };
      send(response, 200, html, renderOverview(status, language, now(), clockSection(clock, language, now()), '', brokenMidColourUp(status, seating, language)), {}, head);
      return;
    }
    if (path === '/tournament') {
      const page = await withClient(async (client) => renderTournament(await readFloorClock(client), language, null, query.get('loaded') === '1'));
      send(response, 200, html, page, {}, head);
      return;
    }
    if (path === '/seating') {
      const page = await withClient(async (client) => renderSeating(await readFloorStatus(client), await readSeating(client), language, null, query.get('loaded') === '1'));
      send(response, 200, html, page, {}, head);
      return;
    }
    if (path === '/seat') {
      plain(request, response, 405, 'floor.http.seatMethod', undefined, { Allow: 'POST' }, head);
      return;
    }
    if (path === '/runner') {
      const asked = query.get('level');
      const page = await withClient(async (client) => {
        const status = await readFloorStatus(client);
        const level = asked !== undefined && /^\d{1,4}$/.test(asked) ? Number(asked) : runnerBreak(status);
        return renderRunner(reconcile(status, level === null ? [] : await readTicks(client, level), level), language);
      });
      send(response, 200, html, page, {}, head);
      return;
    }
    if (path === '/export.csv' || path === '/export.json' || path === '/export/summary.csv' || path === '/export/summary.json') {
      // The CSVs: a byte-order mark, the separator the language's office expects (?lang=, else the
      // browser's) unless ?sep= says, the local times in the floor's own time zone (replay/csv.ts).
      const csv = path.endsWith('.csv');
      const separator = parseSeparator(query.get('sep') ?? '') ?? separatorFor(language);
      const summary = path.startsWith('/export/summary');
      const file = `${summary ? 'floor-summary' : 'floor'}.${csv ? 'csv' : 'json'}`;
      const type = csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
      const disposition = { 'Content-Disposition': `attachment; filename="${file}"` };
      if (!summary) {
        // Every race of the tournament: streamed a page at a time (floor/export.ts), a pool client
        // lent for each read only, so the pages answer while exports are under way.
        await streamExport(response, type, disposition, head, csv ? floorCsvChunks(withClient, { separator, decisionWord: decisionWordIn(language) }) : floorJsonChunks(withClient));
        return;
      }
      const body = await withClient(async (client) => {
        const made = await tournamentSummary(client);
        return csv ? summaryCsv(made, { separator, decisionWord: decisionWordIn(language) }) : summaryJson(made);
      });
      send(response, 200, type, body, disposition, head);
      return;
    }
    const table = query.get('table');
    if (table === undefined) {
      send(response, 400, html, renderMessage(language, 'floor.page.badRequest'), {}, head);
      return;
    }
    if (path === '/table') {
      const found = await withClient((client) => tablePage(client, table));
      if (found === null) send(response, 404, html, renderMessage(language, 'floor.page.notFound'), {}, head);
      else send(response, 200, html, tableHtml(found, table, language, now()), {}, head);
      return;
    }
    const race = query.get('race');
    if (race === undefined) {
      send(response, 400, html, renderMessage(language, 'floor.page.badRequest'), {}, head);
      return;
    }
    const record = await withClient(async (client) => floorRaceRecord(client, table, race));
    if (record === null) send(response, 404, html, renderMessage(language, 'floor.page.notFound'), {}, head);
    else send(response, 200, html, renderRaceRecord(table, record, language), {}, head);
  }

  /**
   * An export written as its pieces come (chunked; HEAD: the headers only, nothing read), each
   * written when the connection takes it. A failure before the first piece is any request's
   * (thrown, answered as the others are); after it the answer has begun: the connection is cut, so
   * the download is seen to have failed rather than taken short. A connection closed stops it.
   */
  async function streamExport(response: ServerResponse, type: string, extra: Record<string, string>, head: boolean, pieces: AsyncGenerator<string, void, undefined>): Promise<void> {
    if (head) {
      response.writeHead(200, { ...HEADERS, 'Content-Type': type, ...extra });
      response.end();
      return;
    }
    // Two at a time: the others wait their turn, so the pages answer between the pieces of two, not of every download.
    await exportTurn.take();
    if (response.destroyed) {
      // Gone while it waited its turn.
      exportTurn.give();
      return;
    }
    let first: IteratorResult<string, void>;
    try {
      first = await pieces.next();
    } catch (error) {
      exportTurn.give();
      throw error;
    }
    response.writeHead(200, { ...HEADERS, 'Content-Type': type, ...extra });
    try {
      for (let next = first; next.done !== true; next = await pieces.next()) {
        if (!response.write(next.value) && !response.destroyed) await writable(response);
        if (response.destroyed) {
          await pieces.return(undefined);
          return;
        }
      }
      response.end();
    } catch (error) {
      log(`export: ${(error as Error).message}`);
      response.destroy();
    } finally {
      exportTurn.give();
    }
  }

  /**
   * An upload's form (multipart: the page's language and one file of at most `maxBytes`, with room
   * for the form's own lines), or null once answered: 400, too large or malformed.
   */
  async function readUpload(request: IncomingMessage, response: ServerResponse, maxBytes: number): Promise<{ file: string; language: FloorLanguage } | null> {
    const boundary = multipartBoundary(request.headers['content-type']);
    const body = boundary === null ? null : await readBody(request, maxBytes + 4096);
    const form = boundary === null || body === null ? null : readMultipart(body, boundary, ['lang', 'file']);
    const file = form?.get('file');
    if (form === null || file === undefined) {
      plain(request, response, 400, 'floor.http.badRequest', { why: { message: { key: 'floor.http.why.form' } } });
      return null;
    }
    return { file: file.value, language: languageOf(form.get('lang')?.value ?? null, undefined) };
  }

  /**
   * The tournament sheet uploaded (multipart): loaded as `floor structure --file` loads it, or the
   * tournament page again with the refusal (a line of the sheet, a break on, a race open), the
   * tournament the floor held kept.
   */
  async function postTournament(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const upload = await readUpload(request, response, TOURNAMENT_MAX_BYTES);
    if (upload === null) return;
    const formLanguage = upload.language;
    try {
      await withClient((client) => loadFloorTournament(client, upload.file, now()));
    } catch (error) {
      if (!isInputError(error) || error.said === undefined) throw error;
      const said = error.said;
      const page = await withClient(async (client) => renderTournament(await readFloorClock(client), formLanguage, sayMessage(formLanguage, said)));
      send(response, 409, html, page);
      return;
    }
    send(response, 303, text, '', { Location: `/tournament?lang=${formLanguage}&loaded=1` });
  }

  /** The seat list uploaded (multipart): the whole seating replaced, or the seating page again with the refusal naming the line. */
  async function postSeating(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const upload = await readUpload(request, response, SEATING_MAX_BYTES);
    if (upload === null) return;
    const { file, language: formLanguage } = upload;
    try {
      const rows = seatingFromCsv(file);
      await withClient((client) => setSeating(client, rows, 'seating page'));
    } catch (error) {
      if (!isInputError(error) || error.said === undefined) throw error;
      const said = error.said;
      const page = await withClient(async (client) => renderSeating(await readFloorStatus(client), await readSeating(client), formLanguage, sayMessage(formLanguage, said)));
      send(response, 409, html, page);
      return;
    }
    send(response, 303, text, '', { Location: `/seating?lang=${formLanguage}&loaded=1` });
  }

  /** The table's page again after a seat form, with what the form came back with (a refusal, a question); 404 for no such table. */
  async function sendTablePage(response: ServerResponse, table: string, language: FloorLanguage, status: number, shown: Parameters<typeof tableHtml>[4]): Promise<void> {
    const page = await withClient(async (client) => {
      const found = await tablePage(client, table);
      return found === null ? null : tableHtml(found, table, language, now(), shown);
    });
    if (page === null) send(response, 404, html, renderMessage(language, 'floor.page.notFound'));
    else send(response, status, html, page);
  }

  /**
   * A seat's form on a table's page: a player out, moved, the table broken, a change undone. Asked
   * once: without `confirm=yes` the table's page comes back with the question and a field for the
   * director's name; with it (and the name) the change is made and kept with who and when. A
   * refusal is shown on the table's page, nothing changed.
   */
  async function postSeat(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const table = form?.get('table');
    const action = form?.get('action');
    const allowed: Readonly<Record<string, readonly string[]>> = { out: ['seat'], move: ['seat', 'to-table', 'to-seat'], break: [], undo: ['change'] };
    const fields = action === undefined ? undefined : allowed[action];
    if (form === null || table === undefined || !isTableName(table) || fields === undefined || [...form.keys()].some((name) => !['table', 'action', 'lang', 'confirm', 'by', ...fields].includes(name))) {
      plain(request, response, 400, 'floor.http.badRequest', { why: { message: { key: 'floor.http.why.form' } } });
      return;
    }
    const formLanguage = languageOf(form.get('lang') ?? null, undefined);
    const by = form.get('by') ?? '';
    let confirmation: SeatConfirmation | null = null;
    try {
      await withClient(async (client) => {
        if (form.get('confirm') !== 'yes') confirmation = await seatQuestion(client, form, table, formLanguage);
        else if (action === 'out') await unseat(client, table, seatOf(form.get('seat')), by);
        else if (action === 'move') await moveSeat(client, table, seatOf(form.get('seat')), typedTableName(form.get('to-table') ?? ''), seatOf(form.get('to-seat')), by);
        else if (action === 'break') await breakTable(client, table, by);
        else await undoSeatingChange(client, changeIdOf(form.get('change')), by, table);
      });
    } catch (error) {
      if (!isInputError(error) || error.said === undefined) throw error;
      await sendTablePage(response, table, formLanguage, 409, { seatsProblem: sayMessage(formLanguage, error.said) });
      return;
    }
    if (confirmation !== null) {
      await sendTablePage(response, table, formLanguage, 200, { confirmation });
      return;
    }
    send(response, 303, text, '', { Location: `/table?${new URLSearchParams({ table, lang: formLanguage }).toString()}` });
  }

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      log(`${request.method ?? ''} ${(request.url ?? '').slice(0, 100)}: ${(error as Error).message}`);
      if (response.headersSent) response.destroy();
      else if (unreachableSince !== null) sendOutage(request, response, unreachableSince);
      else plain(request, response, 503, 'floor.http.unreadable');
    });
  };
  const serverOptions = { requireHostHeader: false, maxHeaderSize: 16 * 1024 };
  const server: Server = options.tls === undefined ? createServer(serverOptions, listener) : createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, listener);
  const scheme = options.tls === undefined ? 'http' : 'https';
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = await listenOn(server, options.port ?? 0, host, log);
  const shownHost = address.shownHost;
  const everyInterface = host === '0.0.0.0' || host === '::';
  hosts = allowedHosts({ port: address.port, boundHost: shownHost, listenHost: host, allowNonLoopback: lan, names: [...(everyInterface ? interfaceAddresses() : []), ...names] });
  origins = new Set([...hosts].map((name) => `${scheme}://${name}`));
  // Cookies ignore ports: two floors on one machine each need a name of their own.
  cookie = `chip-race-floor-${address.port}`;

  // The fold, off the request path: a pass now (so a floor started on folded records shows them
  // at once), then one pass after another, each table in transactions of its own; the pages read
  // what is folded and say how far behind it is.
  const foldEvery = options.foldEveryMs ?? FOLD_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let folding: Promise<void> = Promise.resolve();
  const foldReport = loopReport('fold', log);
  const foldPass = () => withClient((client) => foldFloor(client, FOLD_PASS_BUDGET_MS)).then(foldReport.passed, foldReport.failed);
  const foldOn = () => {
    if (stopped) return;
    folding = foldPass().then(() => {
      if (!stopped) timer = setTimeout(foldOn, foldEvery);
    });
  };
  folding = foldPass();
  await folding;
  timer = setTimeout(foldOn, foldEvery);
  // The held break, beside the fold: a look at the clock each second; the tables left counted from
  // what is folded only when a break is due or held.
  let holding: Promise<void> = Promise.resolve();
  let holdTimer: NodeJS.Timeout | undefined;
  const holdReport = loopReport('hold', log);
  const holdOn = () => {
    if (stopped) return;
    holding = withClient((client) => holdStep(client, now(), async (afterLevel) => tablesLeftAt(await readFloorStatus(client), afterLevel))).then(holdReport.passed, holdReport.failed).then(() => {
      if (!stopped) holdTimer = setTimeout(holdOn, options.holdEveryMs ?? HOLD_EVERY_MS);
    });
  };
  holdTimer = setTimeout(holdOn, options.holdEveryMs ?? HOLD_EVERY_MS);
  // The watchdog, beside them: a station's statement or open transaction past its limits stopped.
  const watchdog = createWatchdog(options.watchdog, log);
  let watching: Promise<void> = Promise.resolve();
  let watchTimer: NodeJS.Timeout | undefined;
  const watchReport = loopReport('watchdog', log);
  const watchOn = () => {
    if (stopped) return;
    watching = withClient((client) => watchdog.pass(client)).then(watchReport.passed, watchReport.failed).then(() => {
      if (!stopped) watchTimer = setTimeout(watchOn, watchdog.everyMs);
    });
  };
  watchTimer = setTimeout(watchOn, watchdog.everyMs);
  return {
    url: `${scheme}://${shownHost}:${address.port}/`,
    port: address.port,
    async close() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(holdTimer);
      clearTimeout(watchTimer);
      await folding;
      await holding;
      await watching;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await pool.end();
    },
  };
}

/** The sign-in form's fields, or null when it is too large or not a form. */
async function readForm(request: IncomingMessage): Promise<Map<string, string> | null> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/x-www-form-urlencoded')) return null;
  const body = await readBody(request, MAX_FORM_BYTES);
  if (body === null) return null;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (fields.has(name)) return null;
    fields.set(name, value);
  }
  return fields;
}

/** A request's body, or null when it is larger than `maxBytes`. */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
