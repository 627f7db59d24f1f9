import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, parseArguments } from './cli';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { makeCardroomCa } from './testing/ca';
import { ask } from './testing/requests';

// `floor serve` on the cardroom's network, as the README sets it up: its command line.

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');
const DATABASE = 'postgres://a:b@127.0.0.1:5432/x';

describe('floor serve: its options for the cardroom network', () => {
  it('takes --name more than once, each a host name, and for serve only', () => {
    expect(parseArguments(['serve', '--database', DATABASE, '--name', 'floor.local', '--name=floor-2.cardroom.lan'], {}).names).toEqual(['floor.local', 'floor-2.cardroom.lan']);
    expect(() => parseArguments(['serve', '--database', DATABASE, '--name', 'floor.local:8790'], {})).toThrow(/not a host name/);
    expect(() => parseArguments(['status', '--database', DATABASE, '--name', 'floor.local'], {})).toThrow(/--name is for serve only/);
  });

  it('reads the database URL and the token from files only their owner can read, or from the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-secrets-'));
    try {
      const database = join(dir, 'database');
      const token = join(dir, 'token');
      writeFileSync(database, `${DATABASE}\n`, { mode: 0o600 });
      writeFileSync(token, 'a token of the cardroom\n', { mode: 0o600 });
      expect(parseArguments(['serve', '--database-file', database, '--token-file', token], {}).options).toMatchObject({ database: DATABASE, token: 'a token of the cardroom' });
      expect(parseArguments(['serve'], { CHIP_RACE_DATABASE_URL: DATABASE, CHIP_RACE_FLOOR_TOKEN: 'from the environment' }).options).toMatchObject({ database: DATABASE, token: 'from the environment' });
      // The floor's token in the environment does not stop the other commands.
      expect(parseArguments(['status'], { CHIP_RACE_DATABASE_URL: DATABASE, CHIP_RACE_FLOOR_TOKEN: 'from the environment' }).options.token).toBeUndefined();
      const shared = join(dir, 'shared');
      writeFileSync(shared, 'a token of the cardroom\n', { mode: 0o644 });
      const errors: string[] = [];
      expect(await main(['serve', '--database-file', database, '--token-file', shared], {}, () => undefined, (line) => errors.push(line))).toBe(2);
      expect(errors).toEqual([`floor: --token-file ${shared} can be read by others: chmod 600 it (it holds a secret)\n`]);
      expect(() => parseArguments(['serve', '--database', DATABASE, '--database-file', database], {})).toThrow(/give one of them/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The process and every process under it (npm, sh, tsx, node): each one's command line. */
function commandLines(pid: number): string[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // Ended meanwhile.
    }
  }
  const lines: string[] = [];
  const visit = (id: number) => {
    try {
      lines.push(readFileSync(`/proc/${id}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      return;
    }
    for (const child of parents.get(id) ?? []) visit(child);
  };
  visit(pid);
  return lines;
}

describe.runIf(run)('floor serve keeps its secrets off the command line (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  const TOKEN = 'Ab+/cd==%41 ef+gh/ij==';
  const children: ChildProcess[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    const floor = await startFloorDatabase();
    server = floor.server;
    await floor.admin.end();
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await server?.remove();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** `npm run floor -- serve …` as the README shows it; resolves with the child and its port once it serves. */
  async function serve(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
    const child = spawn('npm', ['run', '--silent', 'floor', '--', 'serve', '--port', '0', ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '', CHIP_RACE_FLOOR_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /serving https?:\/\/[^:]+:(\d+)\//.exec(output);
        if (match !== null) resolve(Number(match[1]));
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) => reject(new Error(`floor serve exited ${code}: ${output}`)));
    });
    return { child, port };
  }

  it('from files (mode 600) or the environment: no secret in any /proc/PID/cmdline, and the floor signs in with the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-secrets-'));
    try {
      const password = 'throwaway-cluster-only';
      expect(server.url).toContain(password);
      writeFileSync(join(dir, 'database'), `${server.url}\n`, { mode: 0o600 });
      writeFileSync(join(dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
      // As the README serves the cardroom's network: on every interface, HTTPS, the token from a file.
      const ca = await makeCardroomCa('floor.local', '127.0.0.1');
      folders.push(ca.dir);
      const ways = [
        { started: serve(['--host', '0.0.0.0', '--name', 'floor.local', '--token-file', join(dir, 'token'), '--tls-cert', ca.cert, '--tls-key', ca.key], { CHIP_RACE_DATABASE_URL: server.url }), ca: readFileSync(ca.caCert) },
        { started: serve(['--database-file', join(dir, 'database'), '--token-file', join(dir, 'token')], {}), ca: undefined },
        { started: serve([], { CHIP_RACE_DATABASE_URL: server.url, CHIP_RACE_FLOOR_TOKEN: TOKEN }), ca: undefined },
      ];
      for (const way of ways) {
        const { child, port } = await way.started;
        const ca = way.ca === undefined ? {} : { ca: way.ca };
        const lines = commandLines(child.pid as number);
        expect(lines.some((line) => /cli\.ts serve/.test(line))).toBe(true);
        for (const line of lines) {
          expect(line).not.toContain(password);
          expect(line).not.toContain(TOKEN);
        }
        expect((await ask(port, '/', { headers: { authorization: `Bearer ${TOKEN}` }, ...ca })).status).toBe(200);
        expect((await ask(port, '/', ca)).status).toBe(401);
        child.kill('SIGTERM');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
