// Browser mode that cannot start says why in one line and exits 2: never a stack trace. As the
// dealer would meet it: `npm run web` on a data folder that is a file, on a read-only disk, or
// with a journal key kept inside the data folder.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { canMountPrivateTmpfs } from '../service/testing/serviceChild';

const root = join(import.meta.dirname, '..', '..');
const start = ['--import', 'tsx', join(root, 'station', 'web', 'start.ts')];

function web(env: Record<string, string>, wrap: (command: string[]) => string[] = (command) => command) {
  const [program, ...args] = wrap([process.execPath, ...start]) as [string, ...string[]];
  return spawnSync(program, args, { cwd: root, encoding: 'utf8', env: { ...process.env, CHIP_RACE_PORT: '0', ...env }, timeout: 60_000 });
}

/** As `web`, without blocking this process (a port it holds must go on answering). */
function webAsync(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, start, { cwd: root, env: { ...process.env, CHIP_RACE_PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

function expectOneLine(run: { status: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^web: [^\n]+\n$/);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+/);
}

describe('browser mode that cannot start', () => {
  it('a file where the data folder should be', () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-start-'));
    writeFileSync(join(dir, 'data'), 'not a folder');
    expectOneLine(web({ CHIP_RACE_DATA_DIR: join(dir, 'data') }), /^web: the data folder .*\/data cannot be written \(it is a file, not a folder, ENOTDIR\): move the file away or choose another with CHIP_RACE_DATA_DIR\n$/);
  }, 60_000);

  it('a data folder on a read-only disk', () => {
    expect(canMountPrivateTmpfs(), 'unshare cannot mount a private tmpfs here: this test needs root or unprivileged user namespaces').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'web-start-ro-'));
    const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
    const readOnly = (command: string[]) => ['unshare', ...user, '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o ro,size=65536 chip-race-ro "$0" && exec "$@"', dir, ...command];
    expectOneLine(web({ CHIP_RACE_DATA_DIR: join(dir, 'console') }, readOnly), /cannot be written \(read-only file system, EROFS\): choose another with CHIP_RACE_DATA_DIR or make it writable\n$/);
  }, 60_000);

  it('a port another program holds: the port and CHIP_RACE_PORT named (issue 41: `listen EADDRINUSE` alone)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'web-start-port-'));
      const run = await webAsync({ CHIP_RACE_DATA_DIR: join(dir, 'data'), CHIP_RACE_PORT: String(port) });
      expectOneLine(run, new RegExp(`^web: port ${port} on 127\\.0\\.0\\.1 is already in use \\(is the console already running\\?\\): stop what holds it, or choose another port with CHIP_RACE_PORT \\(CHIP_RACE_PORT=${port + 1} npm start\\)\n$`));
      expect(run.stderr).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);

  it('a journal key kept inside the data folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-start-key-'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'journal.key'), 'k'.repeat(32));
    expectOneLine(web({ CHIP_RACE_DATA_DIR: join(dir, 'data'), CHIP_RACE_JOURNAL_KEY: join(dir, 'data', 'journal.key') }), /the journal key .* is inside the data folder .*: keep it elsewhere \(a key beside the journal protects nothing\)\n$/);
  }, 60_000);
});

/**
 * `npm run web` under a umask that would leave everything open, until it is serving (then stopped)
 * or has stopped by itself (not built yet: the service has started all the same).
 */
function webUntilUp(env: Record<string, string>): Promise<void> {
  const child = spawn('sh', ['-c', 'umask 000 && exec "$@"', 'sh', process.execPath, ...start], { cwd: root, env: { ...process.env, CHIP_RACE_PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm run web neither served nor stopped in 60 s')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Chip Race Console (browser mode)')) child.kill('SIGTERM');
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('browser mode keeps its data folder for its owner alone', () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('a folder it makes, whatever the umask, and one an older version left open', async () => {
    const made = join(mkdtempSync(join(tmpdir(), 'web-modes-')), 'chip-race-console');
    await webUntilUp({ CHIP_RACE_DATA_DIR: made });
    expect(modeOf(made)).toBe(0o700);
    const files = readdirSync(made);
    expect(files).toContain('journal.jsonl');
    for (const name of files) expect([name, modeOf(join(made, name))]).toEqual([name, 0o600]);

    const old = mkdtempSync(join(tmpdir(), 'web-modes-old-'));
    writeFileSync(join(old, 'settings.json'), '{}\n', { mode: 0o644 });
    writeFileSync(join(old, 'journal.jsonl'), '', { mode: 0o644 });
    chmodSync(old, 0o755);
    await webUntilUp({ CHIP_RACE_DATA_DIR: old });
    expect(modeOf(old)).toBe(0o700);
    for (const name of readdirSync(old)) expect([name, modeOf(join(old, name))]).toEqual([name, 0o600]);
  }, 120_000);
});
