import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrate } from '../db/migrate';
import { postgresBinDir } from './postgresBin.mjs';
import { findInDocumentation } from './documentation';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL server for the tests and the benchmarks: a real one, Debian's, in a new
 * cluster of its own (`initdb` in a temporary folder, `pg_ctl` on a free loopback port), never an
 * in-memory stand-in. As root (CI) the cluster is the `postgres` user's: the server refuses to
 * run as root.
 */
export interface ThrowawayPostgres {
  /** The superuser's URL (password authentication over TCP on 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  /** The cluster's data folder (what `pg_ctl -D` names). */
  readonly dataDir: string;
  /** The URL of another role (or database) on the same server. */
  urlFor(user: string, password: string, database?: string): string;
  /** Stops the server (the cluster stays): a station's database going away. */
  stop(): Promise<void>;
  /** Stops the server as a power cut would (`pg_ctl stop -m immediate`: no checkpoint, what its WAL holds on disk is what it comes back with). */
  crash(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /**
   * Stops the server cleanly, keeps a copy of its data folder, and starts it again. The function it
   * returns stops the server as a power cut would, puts that copy back and starts it: the server
   * comes back without anything committed after the copy, every time, as one whose commits did not
   * wait for its disk comes back after a crash (whether a real crash loses them is the WAL writer's timing).
   */
  keepDataFolder(): Promise<() => Promise<void>>;
  /** Stops the server and removes the cluster. */
  remove(): Promise<void>;
}

const SUPERUSER = 'floor_admin';
/** Debian's postgresql.conf: the connections a stock server allows. */
export const DEBIAN_MAX_CONNECTIONS = 100;
const SUPERUSER_PASSWORD = 'throwaway-cluster-only';

/** Whether the tests can start a server here (`npm test` installs Debian's `postgresql`: scripts/systemPackages.mjs). */
export const POSTGRES_AVAILABLE = postgresBinDir() !== null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const asRoot = userInfo().uid === 0;

/** Runs a server program, as the `postgres` user when this process is root. */
async function runAsOwner(program: string, args: readonly string[]): Promise<void> {
  if (asRoot) await run('runuser', ['-u', 'postgres', '--', program, ...args], { timeout: 120_000 });
  else await run(program, [...args], { timeout: 120_000 });
}

/** A server speaking TLS (ssl = on) with this certificate and key (PEM files, copied into the cluster). */
export interface ThrowawayTls {
  readonly cert: string;
  readonly key: string;
  /** Only TLS connections over TCP (hostssl in pg_hba.conf), as the README sets a cardroom up. */
  readonly only?: boolean;
}

/**
 * A cluster laid out as Debian's package lays one out, for the README's commands run as written on
 * it (system/cardroom.test.ts): its superuser `postgres`, reached by that system user over the Unix
 * socket in Debian's socket folder (peer authentication, Debian's pg_hba.conf default), on `port`.
 * Only as root (the server runs as `postgres`, the commands through `runuser`).
 */
export interface DebianLayout {
  readonly port: number;
}
export const DEBIAN_SOCKET_DIR = '/var/run/postgresql';

export async function startThrowawayPostgres(settings: readonly string[] = [], tls?: ThrowawayTls, debian?: DebianLayout): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql)');
  const folder = mkdtempSync(join(tmpdir(), 'chip-race-pg-'));
  const data = join(folder, 'data');
  const sockets = join(folder, 'sockets');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
  const owner = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) } : null;
  if (owner !== null) {
    chownSync(folder, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }
  chmodSync(folder, 0o700);
  if (debian !== undefined && owner === null) throw new Error("a cluster in Debian's layout runs as the postgres user: only as root");
  const superuser = debian === undefined ? SUPERUSER : 'postgres';
  const localAuth = debian === undefined ? 'scram-sha-256' : 'peer';
  await runAsOwner(join(bin, 'initdb'), ['-D', data, '-U', superuser, `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', `--auth-local=${localAuth}`, '-E', 'UTF8', '--locale=C.UTF-8', '--no-instructions']);
  await runAsOwner('mkdir', ['-p', sockets]);
  const tlsSettings: string[] = [];
  if (tls !== undefined) {
    // The server refuses a key anyone but its owner can read.
    for (const [from, name] of [[tls.cert, 'server.crt'], [tls.key, 'server.key']] as const) {
      const to = join(data, name);
      copyFileSync(from, to);
      chmodSync(to, 0o600);
      if (owner !== null) chownSync(to, owner.uid, owner.gid);
    }
    tlsSettings.push('ssl=on', 'ssl_cert_file=server.crt', 'ssl_key_file=server.key');
    if (tls.only === true) {
      const hba = join(data, 'pg_hba.conf');
      writeFileSync(hba, readFileSync(hba, 'utf8').replace(/^host(\s)/gm, 'hostssl$1'));
    }
  }
  const port = debian?.port ?? (await freePort());
  // Debian's own defaults for the connections (its postgresql.conf: max_connections = 100, 3 kept
  // for the superuser), written in the cluster's file, not on the command line: the README's
  // `ALTER SYSTEM` (postgresql.auto.conf) then takes their place as on a cardroom's server.
  writeFileSync(join(data, 'postgresql.conf'), `${readFileSync(join(data, 'postgresql.conf'), 'utf8')}\n# Debian's defaults (floor/testing/postgres.ts)\nmax_connections = ${DEBIAN_MAX_CONNECTIONS}\nsuperuser_reserved_connections = 3\n`);
  const socketDir = debian === undefined ? sockets : DEBIAN_SOCKET_DIR;
  return runCluster({ folder, data, port, superuser, socketDir, settings: [...tlsSettings, ...settings] });
}

/** How a cluster's server is started: what a standby of it is started with too (its own port). */
interface ClusterStart {
  readonly folder: string;
  readonly data: string;
  readonly port: number;
  readonly superuser: string;
  readonly socketDir: string;
  readonly settings: readonly string[];
}

const STARTS = new WeakMap<ThrowawayPostgres, ClusterStart>();

async function runCluster(cluster: ClusterStart): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir() as string;
  const { folder, data, port, superuser } = cluster;
  const options = ['-p', String(port), '-k', cluster.socketDir, '-c', 'listen_addresses=127.0.0.1', ...cluster.settings.flatMap((setting) => ['-c', setting])].join(' ');
  const pgCtl = join(bin, 'pg_ctl');
  const start = () => runAsOwner(pgCtl, ['-D', data, '-w', '-t', '60', '-l', join(folder, 'server.log'), '-o', options, 'start']);
  const stop = (mode = 'fast') => runAsOwner(pgCtl, ['-D', data, '-w', '-t', '60', '-m', mode, 'stop']);
  await start();
  const urlFor = (user: string, password: string, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  let running = true;
  const server: ThrowawayPostgres = {
    url: urlFor(superuser, SUPERUSER_PASSWORD),
    port,
    dataDir: data,
    urlFor,
    async stop() {
      if (!running) return;
      await stop();
      running = false;
    },
    async crash() {
      if (!running) return;
      await stop('immediate');
      running = false;
    },
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async keepDataFolder() {
      const kept = join(folder, `data-kept-${Date.now()}`);
      if (running) await stop();
      running = false;
      await runAsOwner('cp', ['-a', data, kept]);
      await start();
      running = true;
      return async () => {
        if (running) await stop('immediate');
        running = false;
        await runAsOwner('rm', ['-rf', data]);
        await runAsOwner('cp', ['-a', kept, data]);
        await start();
        running = true;
      };
    },
    async remove() {
      if (running) await stop().catch(() => undefined);
      running = false;
      rmSync(folder, { recursive: true, force: true });
    },
  };
  STARTS.set(server, cluster);
  return server;
}

/** Runs a shell line as the clusters' owner (the `postgres` user when this process is root, as `sudo -u postgres` runs it on Debian). */
export async function runAsServerOwner(line: string, env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  const bin = postgresBinDir();
  const withBin = { ...process.env, ...env, PATH: `${bin ?? ''}:${process.env.PATH ?? ''}` };
  const options = { env: withBin, timeout: 120_000, cwd: tmpdir() };
  return asRoot ? run('runuser', ['-u', 'postgres', '--', 'sh', '-e', '-c', line], options) : run('sh', ['-e', '-c', line], options);
}

/**
 * A standby of `primary` on a port of its own, on this machine's loopback as the README's second
 * computer: its data folder made by `copy` (the README's `pg_basebackup -R` line, which the test
 * runs as the clusters' owner into the folder it is given, which does not exist yet), then started
 * with the primary's settings and TLS (a data folder holds its certificate, as the README's does)
 * and `settings` after them (the standby's own certificate).
 */
export async function startStandby(primary: ThrowawayPostgres, copy: (dataDir: string) => Promise<void>, settings: readonly string[] = []): Promise<ThrowawayPostgres> {
  const started = STARTS.get(primary);
  if (started === undefined) throw new Error('not a throwaway server');
  const folder = mkdtempSync(join(tmpdir(), 'chip-race-pg-standby-'));
  chmodSync(folder, 0o700);
  if (asRoot) await run('chown', ['postgres:postgres', folder]);
  const data = join(folder, 'data');
  await copy(data);
  return runCluster({ ...started, folder, data, port: await freePort(), settings: [...started.settings, ...settings] });
}

/**
 * A connection to a test server under a login (a station's, the floor's): its own error reports
 * taken, as a server stopped under it would otherwise end the process.
 */
export async function connectedClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Runs `work` on a connection of its own under a login, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectedClient(url);
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A throwaway server with the floor's schema migrated, and a connection to it as its superuser
 * (the floor's own role): what most floor tests start from. The connection's own error reports
 * are taken (a server stopped under it would otherwise end the process); its queries still reject.
 */
export async function startFloorDatabase({ cardroom = false }: { readonly cardroom?: boolean } = {}): Promise<{ server: ThrowawayPostgres; admin: pg.Client }> {
  // cardroom: the README's cardroom-connections block run on it (a floor of many stations), else Debian's defaults.
  const server = cardroom ? await startCardroomPostgres() : await startThrowawayPostgres();
  const admin = await connectedClient(server.url);
  await migrate(admin);
  return { server, admin };
}

const CONNECTIONS_BLOCK = /<!-- cardroom-connections:begin[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- cardroom-connections:end -->/;

/**
 * The documentation's commands that give a cardroom's server its connections (`cardroom-connections:begin`
 * … `end`, in docs/floor.md), as written there; or those of the text given.
 */
export function readmeConnectionCommands(readme?: string): string[] {
  const marked = readme === undefined ? findInDocumentation('cardroom-connections:begin … cardroom-connections:end block', CONNECTIONS_BLOCK).match : CONNECTIONS_BLOCK.exec(readme);
  if (marked === null) throw new Error('the text has no cardroom-connections:begin … cardroom-connections:end block');
  return (marked[1] as string).split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Runs the README's cardroom-connections commands on a throwaway server as a director runs them on
 * the floor's computer: each `sudo -u postgres psql …` through psql as the server's superuser
 * (libpq's variables stand for `sudo -u postgres`'s socket), `sudo systemctl restart postgresql`
 * as a restart of this cluster. A line of any other kind is refused: the README would ask the
 * director for something the tests do not do.
 */
export async function applyReadmeConnections(server: ThrowawayPostgres): Promise<void> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error('PostgreSQL is not installed');
  const superuser = new URL(server.url);
  const env = { ...process.env, PGHOST: '127.0.0.1', PGPORT: String(server.port), PGUSER: decodeURIComponent(superuser.username), PGPASSWORD: decodeURIComponent(superuser.password), PGDATABASE: 'postgres', PATH: `${bin}:${process.env.PATH ?? ''}` };
  for (const line of readmeConnectionCommands()) {
    if (line.startsWith('sudo -u postgres psql ')) await run('sh', ['-c', line.replace(/^sudo -u postgres /, '')], { env, timeout: 60_000 });
    else if (/^sudo systemctl restart postgresql(@[\w-]+)?$/.test(line)) {
      await server.stop();
      await server.start();
    } else throw new Error(`docs/floor.md's cardroom-connections block has a line the tests cannot run: ${line}`);
  }
}

/** A throwaway server set up as the README's cardroom: Debian's defaults, then the README's cardroom-connections block. */
export async function startCardroomPostgres(settings: readonly string[] = []): Promise<ThrowawayPostgres> {
  const server = await startThrowawayPostgres(settings);
  try {
    await applyReadmeConnections(server);
  } catch (error) {
    await server.remove();
    throw error;
  }
  return server;
}
