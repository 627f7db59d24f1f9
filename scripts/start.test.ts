import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { downloaderNodeWanted, electronExecutable, electronPackageDir, noRuntimeLine, NO_RUNTIME_MESSAGE } from './electron-runtime.mjs';

const dirs: string[] = [];
function fakeElectronPackage(options: { pathTxt?: string; binary?: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-electron-'));
  dirs.push(dir);
  if (options.pathTxt !== undefined) writeFileSync(join(dir, 'path.txt'), options.pathTxt);
  if (options.binary !== undefined) {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', options.binary), '');
  }
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('electronExecutable', () => {
  it('is null when the electron package is not installed', () => {
    expect(electronExecutable(null, {})).toBeNull();
  });

  it('is null when the binary was never downloaded (no path.txt)', () => {
    expect(electronExecutable(fakeElectronPackage({}), {})).toBeNull();
  });

  it('is null when path.txt names a binary that is missing', () => {
    expect(electronExecutable(fakeElectronPackage({ pathTxt: 'electron' }), {})).toBeNull();
  });

  it('finds dist/<path.txt>', () => {
    const dir = fakeElectronPackage({ pathTxt: 'electron', binary: 'electron' });
    expect(electronExecutable(dir, {})).toBe(join(dir, 'dist', 'electron'));
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const dist = fakeElectronPackage({ binary: 'electron' });
    expect(electronExecutable(fakeElectronPackage({}), { ELECTRON_OVERRIDE_DIST_PATH: join(dist, 'dist') })).toBe(
      join(dist, 'dist', 'electron'),
    );
  });
});

describe("the Node.js Electron's downloader needs", () => {
  function withEngines(engines: unknown): string {
    const dir = fakeElectronPackage({});
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'electron', engines }));
    return dir;
  }

  it("is the installed electron package's own floor where this Node is older, and the start line says so (issue 24: npm's EBADENGINE notes, unexplained)", () => {
    const dir = withEngines({ node: '>= 22.12.0' });
    expect(downloaderNodeWanted(dir, '20.20.2')).toBe('22.12.0');
    expect(downloaderNodeWanted(dir, '22.11.9')).toBe('22.12.0');
    expect(noRuntimeLine('22.12.0', '20.20.2')).toBe(`${NO_RUNTIME_MESSAGE} (Electron's downloader needs Node.js 22.12.0 or later; this is 20.20.2.)`);
  });

  it('is null where this Node is enough, or nothing is known (no package, no engines, a range it does not read)', () => {
    expect(downloaderNodeWanted(withEngines({ node: '>= 22.12.0' }), '22.12.0')).toBeNull();
    expect(downloaderNodeWanted(withEngines({ node: '>=22.12.0' }), '24.1.0')).toBeNull();
    expect(downloaderNodeWanted(withEngines({}), '20.20.2')).toBeNull();
    expect(downloaderNodeWanted(withEngines({ node: '^22 || >=24' }), '20.20.2')).toBeNull();
    expect(downloaderNodeWanted(null, '20.20.2')).toBeNull();
    expect(noRuntimeLine(null, '20.20.2')).toBe(NO_RUNTIME_MESSAGE);
  });

  it("reads this machine's electron package: 45 wants 22.12, so on Node 20 the line names it", () => {
    const wanted = downloaderNodeWanted();
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 22) expect(wanted).toBe('22.12.0');
  });
});

describe('npm start without the Electron runtime', () => {
  const hasRuntime = electronExecutable(electronPackageDir(), process.env) !== null;

  it.skipIf(hasRuntime)('says so in one line and starts browser mode, printing its address', async () => {
    const script = fileURLToPath(new URL('./start.mjs', import.meta.url));
    const data = mkdtempSync(join(tmpdir(), 'start-data-'));
    dirs.push(data);
    const run = spawn(process.execPath, [script], { env: { ...process.env, CHIP_RACE_PORT: '0', CHIP_RACE_DATA_DIR: data }, detached: true });
    let stdout = '';
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const address = await new Promise<string>((resolve, reject) => {
      run.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The address carries the data folder's browser key.
        // The player display's address carries a key of its own (it opens the display and nothing else).
        const match = /browser mode\): ((http:\/\/127\.0\.0\.1:\d+)\/\?key=([A-Za-z0-9_-]{43})) {2}· {2}player display: \2\/display\?key=([A-Za-z0-9_-]{43})#\/display {2}· {2}data: /.exec(stdout);
        if (match && match[3] !== match[4]) resolve(match[1] as string);
      });
      run.on('close', () => reject(new Error(`exited early: ${stderr}`)));
    });
    try {
      expect(stderr.split('\n')[0]).toBe(noRuntimeLine());
      expect(stderr.split('\n')[0]).toContain(NO_RUNTIME_MESSAGE);
      // The printed address lets a browser in (a cookie, and the key out of the address bar); the bare one does not.
      const opened = await fetch(address, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
      expect((await fetch(new URL('/', address), { headers: { cookie } })).status).toBe(200);
      expect((await fetch(new URL('/', address))).status).toBe(403);
    } finally {
      process.kill(-(run.pid as number), 'SIGTERM');
    }
  }, 90_000);

  it.skipIf(hasRuntime)('builds only when the sources changed: a second start with nothing changed is not rebuilt (issue 41: 8–10 s at every start)', async () => {
    const script = fileURLToPath(new URL('./start.mjs', import.meta.url));
    const data = mkdtempSync(join(tmpdir(), 'start-data-'));
    dirs.push(data);
    /** Starts npm start until browser mode prints its address; what it printed before that. */
    const startUntilServing = () => {
      const run = spawn(process.execPath, [script], { env: { ...process.env, CHIP_RACE_PORT: '0', CHIP_RACE_DATA_DIR: data }, detached: true });
      let stdout = '';
      let stderr = '';
      run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<string>((resolve, reject) => {
        run.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('Chip Race Console (browser mode): ')) {
            process.kill(-(run.pid as number), 'SIGTERM');
            resolve(stdout);
          }
        });
        run.on('close', () => reject(new Error(`exited early: ${stderr}`)));
      });
    };
    await startUntilServing();
    const second = await startUntilServing();
    expect(second.split('\n')[0]).toBe('Chip Race Console: the build is up to date with the sources; not rebuilt.');
  }, 120_000);
});
