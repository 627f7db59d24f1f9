// The floor console's arguments: its subcommands, options and help, read and checked before
// anything connects (floor/cli.ts runs them).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { englishText } from '../engine/messages';
import { isLoopbackHost } from '../net/loopback';
import { tableNameOf } from '../protocol/tableName';
import { floorUrlOf, parseFloorAddress } from '../replication/floorAddress';
import { parseSeparator } from '../replay/csv';
import { TOURNAMENT_MAX_BYTES } from './clock';
import { SEATING_MAX_BYTES } from './seating';
import { isHostName } from './server';

export class UsageError extends Error {}

const USAGE = 'usage: floor [status|sync|add-table|remove-table|serve|structure|seating|clock start|pause|resume|adjust|hold|no-hold|summary] --database URL|--database-file F [--table NAME [--rotate]] [--data DIR] [--port N] [--host H --token T|--token-file F --tls-cert F --tls-key F] [--name N]… [--file PATH] [--minutes N] [--format csv|json] [--sep ,|;] (floor --help says what each does)';
export const SUBCOMMANDS = ['status', 'sync', 'add-table', 'remove-table', 'serve', 'structure', 'seating', 'clock', 'summary'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
export const CLI_OPTIONS = new Set(['database', 'database-file', 'table', 'data', 'port', 'host', 'token', 'token-file', 'tls-cert', 'tls-key', 'name', 'file', 'minutes', 'rotate', 'format', 'sep']);
/** Options that take no value. */
const FLAGS = new Set(['rotate']);
/** Options that may be given more than once, each adding a value. */
const REPEATABLE = new Set(['name']);
const CLOCK_COMMANDS = ['start', 'pause', 'resume', 'adjust', 'hold', 'no-hold'] as const;
export type ClockCommand = (typeof CLOCK_COMMANDS)[number];

/** What `--help` says of a subcommand: how it is called, what it does, its options. */
interface CommandHelp {
  readonly use: string;
  readonly what: string;
  readonly options: readonly (readonly [string, string])[];
}

/** The floor page's port when --port is not given. */
export const DEFAULT_PORT = 8790;

/** The database options every subcommand takes. Where a port other than 5432 goes: in the URL. */
const DATABASE_OPTIONS: readonly (readonly [string, string])[] = [
  ['--database URL', "the floor's database, postgres://ROLE:PASSWORD@HOST:PORT/DATABASE (PORT 5432 when left out; a cluster on another port: :5433; with a standby, both: @HOST:PORT,STANDBY:PORT/, the first that accepts writes used); else CHIP_RACE_DATABASE_URL"],
  ['--database-file F', 'the same URL read from a file only its owner may read (chmod 600): no password on the command line'],
];

/** Every subcommand's help (`floor SUBCOMMAND --help`); `floor --help` lists them. */
const HELP: Readonly<Record<Subcommand, CommandHelp>> = {
  serve: {
    use: 'floor [serve] [--port N] [--host H --token T|--token-file F --tls-cert F --tls-key F] [--name N]…',
    what: `serves the floor page (the default): on loopback port ${DEFAULT_PORT} unless told otherwise; off loopback only with a token and HTTPS`,
    options: [
      ['--port N', `the port to listen on (0 to 65535; 0: any free one); default ${DEFAULT_PORT}`],
      ['--host H', "the address to listen on (default 127.0.0.1; 0.0.0.0: the cardroom's network, which needs the next three)"],
      ['--token T | --token-file F', "the floor page's password (or CHIP_RACE_FLOOR_TOKEN); the file only its owner may read"],
      ['--tls-cert F --tls-key F', "the floor's certificate and its key (HTTPS), made with the cardroom's own certificate authority"],
      ['--name N', 'a host name the floor answers to besides its addresses (such as floor.local); may be given more than once'],
    ],
  },
  status: { use: 'floor status', what: "folds the records that arrived and prints every table's status as JSON", options: [] },
  sync: { use: 'floor sync --table NAME --data DIR', what: "sends a station's journal from its data folder to the floor (a station that was offline, by hand)", options: [['--table NAME', 'the table the journal is for'], ['--data DIR', "the station's data folder (the one holding journal.jsonl)"]] },
  'add-table': { use: 'floor add-table --table NAME [--rotate]', what: "makes a table's station login and prints its URL (CHIP_RACE_DATABASE_URL for that station)", options: [['--table NAME', 'the table: 1 to 32 characters'], ['--rotate', 'give a table that has a login a new password (the old one stops working)']] },
  'remove-table': {
    use: 'floor remove-table --table NAME',
    what: 'removes a table the floor holds nothing of (a typo); refused, saying why, for a table that sent records, was decided on or has players seated',
    options: [['--table NAME', 'the table, exactly as the floor lists it']],
  },
  structure: { use: 'floor structure --file PATH', what: "loads the tournament's structure (levels, breaks, chips) for every table and the clock", options: [['--file PATH', "the structure as JSON, or the planner's CSV"]] },
  seating: { use: 'floor seating --file PATH', what: 'loads the seating (who sits where) for every table', options: [['--file PATH', 'the seat list as CSV: table, seat, player']] },
  clock: {
    use: 'floor clock start|pause|resume|adjust|hold|no-hold [--minutes N]',
    what: "runs the tournament clock every station follows: start, pause, resume, adjust it; hold the breaks with a colour-up until every table is done, or not",
    options: [['--minutes N', 'for adjust: N more minutes left in the level (fewer when negative), -600 to 600, not 0']],
  },
  summary: { use: 'floor summary [--format csv|json] [--sep ,|;]', what: "prints the chip audit's summary of the whole tournament", options: [['--format csv|json', 'CSV (the default) or JSON'], ['--sep ,|;', "the CSV's separator (default: by the locale, ; where the decimal mark is a comma)"]] },
};

/** `floor --help` (no subcommand: all of them) or `floor SUBCOMMAND --help`: how to call it, in lines. */
export function helpText(command: Subcommand | null): string {
  const optionLines = (options: readonly (readonly [string, string])[]) => options.map(([flag, what]) => `  ${flag.padEnd(28)} ${what}`);
  if (command === null) {
    return [
      'usage: npm run floor -- [SUBCOMMAND] [OPTIONS]   (or: npx tsx floor/cli.ts …)',
      '',
      'subcommands:',
      ...SUBCOMMANDS.map((name) => `  ${name.padEnd(28)} ${HELP[name].what}`),
      '',
      'every subcommand:',
      ...optionLines([...DATABASE_OPTIONS, ['--help, -h', 'this help; floor SUBCOMMAND --help: that subcommand\'s options']]),
      '',
    ].join('\n');
  }
  const help = HELP[command];
  return [`usage: ${help.use} --database URL|--database-file F`, '', help.what, '', 'options:', ...optionLines([...help.options, ...DATABASE_OPTIONS]), ''].join('\n');
}

export interface CliArguments {
  readonly command: Subcommand;
  /** `--help` (or `-h`) was asked: say how to call the command, and do nothing else. */
  readonly help?: boolean;
  /** The help asked with no subcommand: every subcommand listed. */
  readonly all?: boolean;
  readonly options: Readonly<Record<string, string>>;
  /** What `clock` does. */
  readonly clock?: ClockCommand;
  /** serve's `--name`s: the host names the floor answers to besides its addresses. */
  readonly names: readonly string[];
}

export function parseArguments(argv: readonly string[], env: NodeJS.ProcessEnv): CliArguments {
  let rest = [...argv];
  let command: Subcommand = 'serve';
  const first = rest[0];
  if (first === '--help' || first === '-h' || first === 'help') return { command, options: {}, names: [], help: true, all: true };
  if (first !== undefined && !first.startsWith('-')) {
    if (!(SUBCOMMANDS as readonly string[]).includes(first)) throw new UsageError(`unknown subcommand "${first.slice(0, 40)}": ${USAGE}`);
    command = first as Subcommand;
    rest = rest.slice(1);
  }
  // Asked anywhere on the line, help is all that is done: nothing else is checked, nothing connects.
  if (rest.some((arg) => arg === '--help' || arg === '-h')) return { command, options: {}, names: [], help: true };
  let clock: ClockCommand | undefined;
  if (command === 'clock') {
    const action = rest.shift();
    if (action === undefined || !(CLOCK_COMMANDS as readonly string[]).includes(action)) throw new UsageError(`clock needs start, pause, resume, adjust, hold or no-hold (got ${JSON.stringify((action ?? '').slice(0, 20))}): ${USAGE}`);
    clock = action as ClockCommand;
  }
  const options: Record<string, string> = {};
  const names: string[] = [];
  while (rest.length > 0) {
    const flag = rest.shift() as string;
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(flag);
    if (match === null || !CLI_OPTIONS.has(match[1] as string)) throw new UsageError(`unknown argument "${flag.slice(0, 40)}": ${USAGE}`);
    const name = match[1] as string;
    if (FLAGS.has(name)) {
      if (match[2] !== undefined) throw new UsageError(`--${name} takes no value`);
      if (name in options) throw new UsageError(`--${name} given twice`);
      options[name] = 'yes';
      continue;
    }
    const value = match[2] ?? rest.shift();
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value: ${USAGE}`);
    if (REPEATABLE.has(name)) {
      if (!isHostName(value)) throw new UsageError(`--name ${JSON.stringify(value.slice(0, 64))} is not a host name (such as floor.local)`);
      names.push(value);
      options[name] = value;
      continue;
    }
    if (name in options) throw new UsageError(`--${name} given twice`);
    options[name] = value;
  }
  for (const [name, fileName] of [['database', 'database-file'], ['token', 'token-file']] as const) {
    const file = options[fileName];
    if (file === undefined) continue;
    if (options[name] !== undefined) throw new UsageError(`--${name} and --${fileName} are one setting: give one of them`);
    options[name] = readSecretFile(file, fileName);
    delete options[fileName];
  }
  if (options.database === undefined && env.CHIP_RACE_DATABASE_URL) options.database = env.CHIP_RACE_DATABASE_URL;
  // The token is serve's alone: one exported for the floor's page does not stop `status`.
  if (command === 'serve' && options.token === undefined && env.CHIP_RACE_FLOOR_TOKEN) options.token = env.CHIP_RACE_FLOOR_TOKEN;
  if (options.database === undefined) throw new UsageError(`--database URL is needed (or CHIP_RACE_DATABASE_URL): ${USAGE}`);
  checkDatabaseUrl(options.database);
  if (command === 'sync' || command === 'add-table' || command === 'remove-table') {
    if (options.table === undefined) throw new UsageError(`${command} needs --table NAME`);
    // Composed (NFC) as every table name is filed (protocol/tableName.ts).
    const table = tableNameOf(options.table);
    if (table === null) throw new UsageError('--table must be a table name of 1 to 32 characters, no control or invisible formatting characters, no spaces around it');
    options.table = table;
  }
  if (command === 'sync') {
    if (options.data === undefined) throw new UsageError('sync needs --data DIR (the station\'s data folder)');
    if (!existsSync(options.data) || !statSync(options.data).isDirectory()) throw new UsageError(`--data ${options.data.slice(0, 200)} is not a folder`);
  }
  if (options.port !== undefined && !/^\d{1,5}$/.test(options.port)) throw new UsageError('--port must be a port number (0 to 65535)');
  if (options.port !== undefined && Number(options.port) > 65_535) throw new UsageError('--port must be a port number (0 to 65535)');
  // Checked before anything connects: a floor on the cardroom's network without a password never starts.
  if (command === 'serve' && options.host !== undefined && !isLoopbackHost(options.host) && options.token === undefined) throw new UsageError(`refusing to serve on ${options.host.slice(0, 64)} without --token (or CHIP_RACE_FLOOR_TOKEN): the floor page on the cardroom's network needs a password`);
  if (command !== 'add-table' && 'rotate' in options) throw new UsageError('--rotate is for add-table only');
  if (('tls-cert' in options) !== ('tls-key' in options)) throw new UsageError('--tls-cert and --tls-key go together: the certificate and its key');
  if (command === 'serve' && options.host !== undefined && !isLoopbackHost(options.host) && options['tls-cert'] === undefined) throw new UsageError(`refusing to serve on ${options.host.slice(0, 64)} without HTTPS: add --tls-cert FILE --tls-key FILE (docs/floor.md makes them with the cardroom's own certificate authority)`);
  if (command !== 'serve') for (const name of ['port', 'host', 'token', 'token-file', 'tls-cert', 'tls-key', 'name']) if (name in options) throw new UsageError(`--${name} is for serve only`);
  if (command === 'structure') {
    if (options.file === undefined) throw new UsageError('structure needs --file PATH (the structure as JSON, or the planner\'s CSV)');
    if (!existsSync(options.file) || !statSync(options.file).isFile()) throw new UsageError(`--file ${options.file.slice(0, 200)} is not a file`);
    if (statSync(options.file).size > TOURNAMENT_MAX_BYTES) throw new UsageError(`--file is larger than a structure can be (${TOURNAMENT_MAX_BYTES / 1024} KB)`);
  } else if (command === 'seating') {
    if (options.file === undefined) throw new UsageError('seating needs --file PATH (the seat list as CSV: table, seat, player)');
    if (!existsSync(options.file) || !statSync(options.file).isFile()) throw new UsageError(`--file ${options.file.slice(0, 200)} is not a file`);
    if (statSync(options.file).size > SEATING_MAX_BYTES) throw new UsageError(`--file is larger than a seat list can be (${SEATING_MAX_BYTES / 1024} KB)`);
  } else if ('file' in options) throw new UsageError('--file is for structure and seating only');
  if (clock === 'adjust') {
    if (options.minutes === undefined || !/^[+-]?\d{1,3}$/.test(options.minutes) || Number(options.minutes) === 0 || Math.abs(Number(options.minutes)) > 600) throw new UsageError('clock adjust needs --minutes N: a whole number of minutes from -600 to 600, not 0 (N more minutes left in the level; fewer when negative)');
  } else if ('minutes' in options) throw new UsageError('--minutes is for clock adjust only');
  if (command === 'summary') {
    if (options.format !== undefined && options.format !== 'csv' && options.format !== 'json') throw new UsageError('--format is csv or json');
    if (options.sep !== undefined && parseSeparator(options.sep) === null) throw new UsageError('--sep is , or ; (comma, semicolon)');
    if (options.sep !== undefined && options.format === 'json') throw new UsageError('--sep is for the CSV only');
  } else for (const name of ['format', 'sep']) if (name in options) throw new UsageError(`--${name} is for summary only`);
  return { command, options, names, ...(clock === undefined ? {} : { clock }) };
}

/** A file's text, at most `maxBytes`; with `secret`, refused when anyone but its owner can read it. */
export function readOptionFile(file: string, option: string, maxBytes: number, secret: boolean): string {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    throw new UsageError(`--${option} ${file.slice(0, 200)} cannot be read`);
  }
  if (!stats.isFile()) throw new UsageError(`--${option} ${file.slice(0, 200)} is not a file`);
  if (secret && (stats.mode & 0o077) !== 0) throw new UsageError(`--${option} ${file.slice(0, 200)} can be read by others: chmod 600 it (it holds a secret)`);
  if (stats.size > maxBytes) throw new UsageError(`--${option} ${file.slice(0, 200)} is larger than it can be (${maxBytes / 1024} KB)`);
  return readFileSync(file, 'utf8');
}

/** A secret kept in a file only its owner can read: its one line is the value (a final newline is no part of it). */
function readSecretFile(file: string, option: string): string {
  const value = readOptionFile(file, option, 4096, true).replace(/\r?\n$/, '');
  if (value === '' || /[\r\n]/.test(value)) throw new UsageError(`--${option} ${file.slice(0, 200)} must hold one line`);
  return value;
}

function checkDatabaseUrl(url: string): void {
  // A list of hosts (the floor and its standby), which WHATWG's URL cannot read: libpq's syntax, read by the floor's own reading.
  if (isHostList(url)) {
    const reading = parseFloorAddress(url);
    if (!reading.ok) throw new UsageError(`--database: ${englishText(reading.problem)}`);
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('--database must be a URL: postgres://user:password@host:port/database');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw new UsageError('--database must be a postgres:// URL');
  if (parsed.hostname === '') throw new UsageError('--database names no host');
}

/** Whether a URL names a list of hosts (`floor.local,standby.local`) rather than one. */
export function isHostList(url: string): boolean {
  return /^[a-z]+:\/\/[^/?#]*,/i.test(url);
}

/** The URL without its password, for messages. */
export function shown(url: string): string {
  const reading = parseFloorAddress(url);
  if (isHostList(url)) return reading.ok ? floorUrlOf(reading.address, { password: '' }) : 'the database';
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}
