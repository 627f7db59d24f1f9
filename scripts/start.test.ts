import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { electronExecutable, electronPackageDir, NO_RUNTIME_MESSAGE } from './electron-runtime.mjs';

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

describe('npm start without the Electron runtime', () => {
  const hasRuntime = electronExecutable(electronPackageDir(), process.env) !== null;

  it.skipIf(hasRuntime)('prints one line and exits 1', () => {
    const script = fileURLToPath(new URL('./start.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${NO_RUNTIME_MESSAGE}\n`);
    expect(NO_RUNTIME_MESSAGE).toContain('npm run race -- FILE');
  });
});
