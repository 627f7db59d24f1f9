import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import type { CommandName } from '../protocol/commands';
import { chromiumPath } from '../scripts/systemPackages.mjs';

/** Helpers shared by the benchmarks that run the real app (browser mode, journal, Chromium). */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Debian's Chromium, launched as the end-to-end tests launch it (e2e/playwright.config.ts). */
export const CHROMIUM_PATH = chromiumPath();
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Builds the console into out/ (as the e2e global setup and `npm run web` do); browser mode serves out/renderer. */
export function buildApp(): void {
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('bench: the build (electron-vite build) failed');
}

export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`bench: Chromium is missing at ${CHROMIUM_PATH}: \`npm run bench\` installs it where it may (scripts/systemPackages.mjs), else: sudo apt-get install -y chromium`);
}

/**
 * A fresh folder for benchmark data inside the project (node_modules/.tmp, already ignored by git),
 * not the system's /tmp: /tmp is a RAM disk (tmpfs) on many machines, where fsync costs nothing and a
 * journal figure would say nothing about the disk the console's data really lives on.
 */
export function benchDir(label: string): string {
  const parent = join(ROOT, 'node_modules', '.tmp');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, `bench-${label}-`));
}

/** The file system and device holding `path` (from /proc/mounts; "unknown" off Linux). */
export function diskOf(path: string): string {
  try {
    const real = realpathSync(path);
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields.length >= 3)
      .map(([device, mountPoint, type]) => ({ device: device as string, mountPoint: (mountPoint as string).replace(/\\040/g, ' '), type: type as string }))
      .filter(({ mountPoint }) => real === mountPoint || real.startsWith(mountPoint === '/' ? '/' : `${mountPoint}/`))
      .sort((a, b) => b.mountPoint.length - a.mountPoint.length);
    const mount = mounts[0];
    return mount === undefined ? 'unknown disk' : `${mount.type} on ${mount.device}`;
  } catch {
    return 'unknown disk';
  }
}

/** The value at percentile `p` (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] as number;
}

export const round1 = (value: number): number => Math.round(value * 10) / 10;
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Milliseconds since the Unix epoch with sub-millisecond resolution; the page uses the same expression. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * One command through browser mode's WebSocket bridge (`/bridge`), as the page sends it: the same
 * validated command set as the Electron preload. A refused command throws with the service's message.
 */
export async function bridgeCall(consoleUrl: string, method: CommandName, ...args: unknown[]): Promise<unknown> {
  const url = new URL('bridge', consoleUrl);
  url.protocol = 'ws:';
  // The browser key of the printed address (`?key=`), as a parameter: no cookie jar here.
  url.searchParams.set('key', new URL(consoleUrl).searchParams.get('key') ?? '');
  // The bridge takes connections from its own page only: present the page's origin.
  const socket = new WebSocket(url, { origin: new URL(consoleUrl).origin });
  try {
    return await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bench: ${method} got no answer from the bridge in 10 s`)), 10_000);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method, args })));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: number; result?: { ok: boolean; value?: unknown; error?: { field: string; message: string } } };
        if (message.type !== 'result' || message.id !== 1) return;
        clearTimeout(timer);
        const result = message.result;
        // getState answers with the state itself; every other command with a CommandResult.
        if (method === 'getState') resolve(result);
        else if (result?.ok === true) resolve(result.value);
        else reject(new Error(`bench: ${method} was refused: ${result?.error?.field ?? '?'}: ${result?.error?.message ?? JSON.stringify(result)}`));
      });
    });
  } finally {
    socket.close();
  }
}
