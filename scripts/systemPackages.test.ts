import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresBinDir } from '../floor/testing/postgresBin.mjs';
import { missingPackages, onPath, setUpPlan } from './systemPackages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageScripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `system-packages-${label}-`));
  dirs.push(dir);
  return dir;
}

describe('the set-up plan', () => {
  it('does nothing when every package is there, whoever runs it', () => {
    expect(setUpPlan({ missing: [], root: false, sudo: false, aptGet: false })).toEqual({ action: 'nothing' });
    expect(setUpPlan({ missing: [], root: true, sudo: false, aptGet: true })).toEqual({ action: 'nothing' });
  });

  it('as root with apt-get, updates the lists and installs exactly the missing packages, asking nothing', () => {
    const plan = setUpPlan({ missing: ['socat', 'postgresql'], root: true, sudo: false, aptGet: true });
    expect(plan).toEqual({
      action: 'install',
      message: 'The tests and benchmarks need system packages missing here: socat, postgresql. Installing them: apt-get update && apt-get install -y socat postgresql',
      commands: [
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update'],
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'socat', 'postgresql'],
      ],
    });
  });

  it('through sudo when sudo asks no password, without a prompt to wait at', () => {
    const plan = setUpPlan({ missing: ['chromium'], root: false, sudo: true, aptGet: true });
    expect(plan.action === 'install' && plan.commands).toEqual([
      ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update'],
      ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium'],
    ]);
  });

  it('neither root nor sudo: stops, naming the missing packages and the one command to run', () => {
    expect(setUpPlan({ missing: ['chromium', 'socat', 'postgresql'], root: false, sudo: false, aptGet: true })).toEqual({
      action: 'stop',
      message: 'The tests and benchmarks need system packages missing here: chromium, socat, postgresql. Install them with: sudo apt-get install -y chromium socat postgresql',
    });
    expect(setUpPlan({ missing: ['socat'], root: false, sudo: false, aptGet: true })).toEqual({
      action: 'stop',
      message: 'The tests and benchmarks need system packages missing here: socat. Install them with: sudo apt-get install -y socat',
    });
  });

  it('without apt-get, even as root: stops, saying which packages to install', () => {
    for (const who of [{ root: true, sudo: false }, { root: false, sudo: true }, { root: false, sudo: false }]) {
      expect(setUpPlan({ missing: ['socat', 'postgresql'], ...who, aptGet: false })).toEqual({
        action: 'stop',
        message: "The tests and benchmarks need system packages missing here: socat, postgresql. This system has no apt-get: install them with its own package manager (Debian's names: socat postgresql).",
      });
    }
  });
});

describe('where the packages are looked for', () => {
  it("PostgreSQL: the newest major under Debian's root that has pg_ctl, else pg_config's folder only if pg_ctl is in it", () => {
    const debian = tempDir('pg');
    for (const [major, withPgCtl] of [['13', true], ['16', true], ['17', false]] as const) {
      mkdirSync(join(debian, major, 'bin'), { recursive: true });
      if (withPgCtl) writeFileSync(join(debian, major, 'bin', 'pg_ctl'), '');
    }
    mkdirSync(join(debian, 'common'));
    expect(postgresBinDir({ PATH: '' }, debian)).toBe(join(debian, '16', 'bin'));

    // A pg_config on PATH and no Debian server: its folder counts only with a server in it.
    const bin = tempDir('pg-config');
    const server = join(bin, 'server');
    mkdirSync(server);
    writeFileSync(join(bin, 'pg_config'), `#!/bin/sh\necho ${server}\n`, { mode: 0o755 });
    expect(postgresBinDir({ PATH: bin }, join(debian, 'none'))).toBeNull();
    writeFileSync(join(server, 'pg_ctl'), '');
    expect(postgresBinDir({ PATH: bin }, join(debian, 'none'))).toBe(server);
  });

  it('socat: an executable file of that name on PATH, as spawn finds it', () => {
    const bin = tempDir('path');
    writeFileSync(join(bin, 'socat'), '');
    expect(onPath('socat', { PATH: bin })).toBeNull();
    chmodSync(join(bin, 'socat'), 0o755);
    expect(onPath('socat', { PATH: `/nonexistent:${bin}` })).toBe(join(bin, 'socat'));
    expect(missingPackages({ PATH: bin, CHROMIUM_PATH: process.execPath })).not.toContain('socat');
    expect(missingPackages({ PATH: '/nonexistent', CHROMIUM_PATH: process.execPath })).toContain('socat');
  });
});

/**
 * A run of package.json's own `test` or `bench` command (`sh -c`, as npm runs it) in a copy of the
 * set-up script, on a PATH of stand-ins, so that no real package is installed and no real test runs:
 * `node` and `env` run the real ones, `true` is true; npm, vitest and tsx (what comes after the
 * check) only write their name to `ran`; pg_config names a folder with a pg_ctl, so PostgreSQL is
 * there whatever this machine has; CHROMIUM_PATH names a file that is there; socat is there only when
 * asked for.
 * - may install: apt-get writes its arguments and DEBIAN_FRONTEND to `ran`, and its install puts a
 *   socat in place; sudo (for a run that is not root's) asks no password and runs its command.
 * - may not: sudo fails, as one that wants a password does with -n; as root the run is the user
 *   nobody's. The copy is in a folder nobody owns: the checkout may be one only its owner can enter
 *   (.ci/run makes it so).
 */
function runPackageScript(script: string, { socat, mayInstall }: { socat: boolean; mayInstall: boolean }): { status: number | null; stdout: string; stderr: string; ran: string[]; env: NodeJS.ProcessEnv } {
  const home = tempDir('run');
  for (const file of ['scripts/systemPackages.mjs', 'scripts/test.mjs', 'floor/testing/postgresBin.mjs']) {
    mkdirSync(join(home, file, '..'), { recursive: true });
    copyFileSync(join(root, file), join(home, file));
  }
  const bin = join(home, 'bin');
  const postgres = join(home, 'postgres');
  mkdirSync(bin);
  mkdirSync(postgres);
  writeFileSync(join(postgres, 'pg_ctl'), '');
  const ran = join(home, 'ran');
  const socatStandIn = `#!/bin/sh\necho socat >> '${ran}'\n`;
  const standIns: Record<string, string> = {
    node: `exec '${process.execPath}' "$@"`,
    env: `exec '${onPath('env') ?? '/usr/bin/env'}' "$@"`,
    true: 'exit 0',
    pg_config: `echo '${postgres}'`,
    'apt-get': `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> '${ran}'\n[ "$1" = install ] && printf '%s' "${socatStandIn}" > '${join(bin, 'socat')}' && '${onPath('chmod') ?? '/bin/chmod'}' 755 '${join(bin, 'socat')}'\nexit 0`,
    sudo: mayInstall ? `echo "sudo $*" >> '${ran}'\n[ "$1" = -n ] && shift\nexec "$@"` : `echo "sudo $*" >> '${ran}'\nexit 1`,
  };
  for (const tool of ['npm', 'vitest', 'tsx']) standIns[tool] = `echo ${tool} >> '${ran}'`;
  for (const [tool, body] of Object.entries(standIns)) writeFileSync(join(bin, tool), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  if (socat) writeFileSync(join(bin, 'socat'), socatStandIn, { mode: 0o755 });
  const env = { PATH: bin, HOME: home, CHROMIUM_PATH: process.execPath };
  const command = ['/bin/sh', '-c', script];
  const options: SpawnSyncOptionsWithStringEncoding = { cwd: home, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 };
  let run;
  if (process.getuid?.() === 0 && !mayInstall) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout);
    const [uid, gid] = [id('-u'), id('-g')];
    expect(spawnSync('chown', ['-R', `${uid}:${gid}`, home]).status).toBe(0);
    const setpriv = onPath('setpriv');
    if (setpriv === null) throw new Error('setpriv (util-linux) is needed to run the check as nobody');
    // setpriv, unlike su and runuser, passes the environment on as it is (the PATH of stand-ins).
    run = spawnSync(setpriv, [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', ...command], options);
  } else {
    run = spawnSync(command[0] as string, command.slice(1), options);
  }
  const tools = existsSync(ran) ? readFileSync(ran, 'utf8').split('\n').filter(Boolean) : [];
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, ran: tools, env };
}

describe('`npm test` and `npm run bench` start with the check', () => {
  for (const name of ['test', 'bench'] as const) {
    it(`${name}: socat missing and no right to install: exits 1 with the one line; no test, benchmark or apt-get runs`, () => {
      const run = runPackageScript(packageScripts[name] as string, { socat: false, mayInstall: false });
      expect(missingPackages(run.env)).toEqual(['socat']);
      expect(run.stderr).toBe('The tests and benchmarks need system packages missing here: socat. Install them with: sudo apt-get install -y socat\n');
      // npm test says how long it took, the check that failed included (scripts/test.mjs).
      expect(run.stdout).toMatch(name === 'test' ? /^npm test: system packages \d+\.\d min; \d+\.\d min in all; system packages FAILED\n$/ : /^$/);
      expect(run.status).toBe(1);
      // sudo was asked (and refused); nothing after the check started, and nothing was installed.
      expect(run.ran).toEqual(['sudo -n true']);
    });
  }

  it('socat missing where it may install: says so in one line, installs only socat without a question, then the tests start', () => {
    const run = runPackageScript(packageScripts['test'] as string, { socat: false, mayInstall: true });
    expect(run.stderr).toBe('The tests and benchmarks need system packages missing here: socat. Installing them: apt-get update && apt-get install -y socat\n');
    expect(run.status).toBe(0);
    expect(run.ran.filter((line) => !line.startsWith('sudo'))).toEqual([
      'apt-get update DEBIAN_FRONTEND=noninteractive',
      'apt-get install -y socat DEBIAN_FRONTEND=noninteractive',
      'npm',
      'npm',
      'vitest',
      'npm',
    ]);
  });

  it('with every package there, it prints nothing, asks no one, and the tests start', () => {
    const run = runPackageScript(packageScripts['test'] as string, { socat: true, mayInstall: false });
    expect(missingPackages(run.env)).toEqual([]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^npm test: system packages [\d.]+ min, lint [\d.]+ min, types [\d.]+ min, vitest [\d.]+ min, Playwright [\d.]+ min; [\d.]+ min in all\n$/);
    expect(run.status).toBe(0);
    expect(run.ran).toEqual(['npm', 'npm', 'vitest', 'npm']);
  });
});
