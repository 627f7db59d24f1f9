import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { startConsole } from '../e2e/harness/console';
import type { ConsoleState, StateMessage } from '../protocol/contract';
import { mergeState } from '../protocol/stateMerge';

/** One launch of browser mode, as the dealer starts it, timed from the launch. */
export interface BrowserStart {
  /** Until the address was printed (the service started, the port held). */
  readonly addressMs: number;
  /** Until a page connected to that address got its first whole state: what the dealer waits for. */
  readonly firstStateMs: number;
  /** Until the checkpoint's cover was checked in the background (null: nothing to check, an empty journal). */
  readonly coverCheckedMs: number | null;
  /** What the cover check found ('ok' expected; 'damaged' is a bench failure). */
  readonly coverCheck: string | null;
  /** The process's peak resident memory (VmHWM) once the cover check ended: the start and its background check together. */
  readonly peakRssMb: number;
  /** The history the first state carried (confirmed races): proves the long journal was read. */
  readonly history: number;
}

/** VmHWM of a Linux process, in MB (MiB, as the other peaks): its resident peak so far. */
function peakRss(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (line === null) throw new Error(`bench: no VmHWM in /proc/${pid}/status`);
  return Number(line[1]) / 1024;
}

/**
 * Browser mode launched on `dataDir` as the e2e specs launch it (`station/web/start.ts`, as `npm run
 * web` runs it after its build): the wall time from the launch to the address printed and to a
 * page's first state over the bridge, then the state followed as the page merges it until the
 * background cover check ends, and the process's peak memory read from /proc before it is stopped
 * (SIGTERM, a clean shutdown).
 */
export async function browserStart(dataDir: string, timeoutMs = 120_000): Promise<BrowserStart> {
  const launched = performance.now();
  const app = await startConsole(dataDir, 0);
  const addressMs = performance.now() - launched;
  const url = new URL('bridge', app.url);
  url.protocol = 'ws:';
  url.searchParams.set('key', app.key);
  const socket = new WebSocket(url, { origin: new URL(app.url).origin });
  try {
    let firstStateMs = 0;
    let history = 0;
    const ended = await new Promise<ConsoleState>((resolve, reject) => {
      let state: ConsoleState | null = null;
      const timer = setTimeout(() => reject(new Error(`bench: browser mode on ${dataDir} did not end its cover check within ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', reject);
      socket.once('close', () => reject(new Error(`bench: browser mode on ${dataDir} closed the page's connection while starting`)));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as StateMessage | { type: 'result' };
        if (message.type !== 'state' && message.type !== 'patch') return;
        if (state === null && message.type === 'state') {
          firstStateMs = performance.now() - launched;
          history = message.state.history.total;
        }
        state = mergeState(state, message);
        if (state !== null && state.journal.coverCheck?.status !== 'checking') {
          clearTimeout(timer);
          resolve(state);
        }
      });
    });
    const cover = ended.journal.coverCheck;
    return {
      addressMs,
      firstStateMs,
      coverCheckedMs: cover === undefined ? null : performance.now() - launched,
      coverCheck: cover?.status ?? null,
      peakRssMb: peakRss(app.pid),
      history,
    };
  } finally {
    socket.removeAllListeners('close');
    socket.close();
    await app.kill('SIGTERM');
  }
}
