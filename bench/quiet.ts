import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The CPU's busy and total time so far, from /proc/stat (null off Linux). */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the CPU's waiting; everything else (user, system, steal …) is work.
    const waiting = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - waiting, total };
  } catch {
    return null;
  }
}

export interface QuietWait {
  /** How long the wait took. */
  readonly waitedMs: number;
  /** The share of the CPU busy over the last window looked at (0–1); null where it cannot be read. */
  readonly busy: number | null;
  readonly quiet: boolean;
}

/**
 * Waits until the machine is quiet — less than `maxBusy` of the CPU busy over a `windowMs`
 * window — for at most `timeoutMs`. A benchmark started straight after a test suite otherwise
 * measures the tail of that suite (processes ending, the disk writing back what they wrote).
 */
export async function waitForQuiet(maxBusy = 0.1, windowMs = 2000, timeoutMs = 60_000): Promise<QuietWait> {
  const started = performance.now();
  let busy: number | null = null;
  while (performance.now() - started < timeoutMs) {
    const before = cpuTimes();
    await sleep(windowMs);
    const after = cpuTimes();
    if (before === null || after === null || after.total === before.total) return { waitedMs: Math.round(performance.now() - started), busy: null, quiet: true };
    busy = (after.busy - before.busy) / (after.total - before.total);
    if (busy < maxBusy) return { waitedMs: Math.round(performance.now() - started), busy: Math.round(busy * 1000) / 1000, quiet: true };
  }
  return { waitedMs: Math.round(performance.now() - started), busy: busy === null ? null : Math.round(busy * 1000) / 1000, quiet: false };
}
