import { readdirSync, readFileSync } from 'node:fs';
import { round2 } from './support';

/**
 * The CPU time the floor's benchmarks gate on: this process's and its PostgreSQL processes'. A gate
 * on CPU rather than wall time still moves with what it cannot see, so:
 *
 * - The server's processes are read from /proc/PID/schedstat (nanoseconds on the CPU) rather than
 *   /proc/PID/stat (whole clock ticks of 10 ms): a status costs its backend some 25–35 ms, which
 *   ticks counted as 10, 20, 30 or 40. Every PostgreSQL process has one thread, so the leader's
 *   figure is the process's. /proc/PID/stat only where a kernel has no schedstat.
 * - This process's V8 collects garbage on helper threads too (concurrent marking and sweeping),
 *   charged to whatever runs while they do, not to the work that made the garbage: measured
 *   2026-12-07, the status's own CPU in this process was 3.3–7.8 ms on half of 20 looks and 41–67 ms
 *   on the others, each just after a bare read had left its parsed rows behind; its main thread's
 *   was 3.3–24 ms on the same looks. A short work measured beside a baseline that makes much
 *   garbage is gated on the main thread (`interleavedCpuRatio`). Forcing a full collection before
 *   each work does not help: it made the status cost 30–160 ms and a fold of one record 43–50 ms
 *   instead of 5–9 (V8 re-warms what a forced collection throws away, in the timed work).
 */

/** The kernel's clock ticks per second (getconf CLK_TCK: 100 on Linux), the unit of /proc/PID/stat's CPU times. */
const CLOCK_TICKS = 100;

/** CPU time (user + system) of a single-threaded process so far, ms: /proc/PID/schedstat's time on the CPU, else /proc/PID/stat's ticks. */
export function processCpuMs(pid: number): number {
  let schedstat: string | null = null;
  try {
    schedstat = readFileSync(`/proc/${pid}/schedstat`, 'utf8');
  } catch {
    // a kernel without schedstat: the ticks below
  }
  const onCpuNs = schedstat === null ? Number.NaN : Number(schedstat.split(' ')[0]);
  if (Number.isFinite(onCpuNs)) return onCpuNs / 1e6;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The server's processes: the postmaster (the parent of a backend) and its children. */
export function postgresPids(backend: number): number[] {
  const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  const postmaster = parentOf(backend);
  const pids = [postmaster];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (parentOf(Number(name)) === postmaster) pids.push(Number(name));
    } catch {
      // a process that ended while looked at
    }
  }
  return pids;
}

/** CPU time (user + system) the server's processes have used so far, ms (a process that ended meanwhile is not counted). */
export function serverCpuMs(backend: number): number {
  let total = 0;
  for (const pid of postgresPids(backend)) {
    try {
      total += processCpuMs(pid);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** This process's CPU time (user + system) since `start` (a process.cpuUsage reading), ms. */
export function ownCpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export interface TimedWork<T> {
  readonly value: T;
  readonly wallMs: number;
  /** This process's CPU and the backend's, together. */
  readonly cpuMs: number;
  readonly floorCpuMs: number;
  /** This process's main thread alone (no collector threads). */
  readonly mainThreadMs: number;
  readonly databaseCpuMs: number;
}

/** This thread's CPU time so far (the main thread's: /proc/self/task/PID/schedstat), ms. */
export function mainThreadCpuMs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/**
 * Times `work` on the connection whose backend is `backend`: its wall time, and the CPU time it
 * spends in this process (all its threads, and its main thread alone) and in that backend (what the
 * gates are on: the machine's other load changes the wall time, not the work done).
 */
export async function timed<T>(backend: number, work: () => Promise<T>): Promise<TimedWork<T>> {
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuMs();
  const backendBefore = processCpuMs(backend);
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const mainThreadMs = mainThreadCpuMs() - mainBefore;
  const floorCpuMs = ownCpuMsSince(cpuBefore);
  const databaseCpuMs = processCpuMs(backend) - backendBefore;
  return { value, wallMs, cpuMs: floorCpuMs + databaseCpuMs, floorCpuMs, mainThreadMs, databaseCpuMs };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The median of each look's `work[look] ÷ baseline[look]`, to 2 decimals: one look's outlier, in either, does not move it. */
export function medianRatio(work: readonly number[], baseline: readonly number[]): number {
  if (work.length === 0 || work.length !== baseline.length) throw new Error(`bench: ${work.length} looks of the work against ${baseline.length} of the baseline`);
  return round2(median(work.map((cpu, look) => cpu / (baseline[look] as number))));
}

export interface InterleavedLooks<T> {
  /** The median of the looks' ratios (each look's work ÷ the baseline just after it), to 2 decimals. */
  readonly ratio: number;
  readonly lastValue: T;
  readonly workWallMs: readonly number[];
  /** Each look's CPU, the main thread and the backend. */
  readonly workCpuMs: readonly number[];
  readonly baselineCpuMs: readonly number[];
  readonly workCpuMedianMs: number;
  readonly baselineCpuMedianMs: number;
}

/**
 * `work`, then `baseline`, `looks` times on one connection: the gate is the median of each look's
 * CPU ratio (this process's main thread and the backend, see above). A look's two works run within
 * the same fraction of a second, so the machine's speed that minute is in both; the median leaves
 * out the looks where a collection or another process's tick landed in one of the two.
 */
export async function interleavedCpuRatio<T>(backend: number, looks: number, work: () => Promise<T>, baseline: () => Promise<unknown>): Promise<InterleavedLooks<T>> {
  if (looks < 1) throw new Error('bench: interleavedCpuRatio needs one look at least');
  const workWallMs: number[] = [];
  const workCpuMs: number[] = [];
  const baselineCpuMs: number[] = [];
  let lastValue = undefined as T;
  for (let look = 0; look < looks; look += 1) {
    const measured = await timed(backend, work);
    const base = await timed(backend, baseline);
    lastValue = measured.value;
    workWallMs.push(measured.wallMs);
    workCpuMs.push(measured.mainThreadMs + measured.databaseCpuMs);
    baselineCpuMs.push(base.mainThreadMs + base.databaseCpuMs);
  }
  return { ratio: medianRatio(workCpuMs, baselineCpuMs), lastValue, workWallMs, workCpuMs, baselineCpuMs, workCpuMedianMs: median(workCpuMs), baselineCpuMedianMs: median(baselineCpuMs) };
}
