import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchFigure } from './report';
import { percentile, ROOT, round1 } from './support';
import type { VerifyRun } from './verifyChild';

/**
 * `npm run verify` on a long journal (issue 44: a 2.2 GB journal's check did not finish in 120 s):
 * the check alone, every line's seal and link, of the first 128 MiB of the long journal, in a fresh
 * process (bench/verifyChild.ts), as CPU time over a bare read and SHA-256 of the same file measured
 * in the same run (the machine's speed divided out), with its throughput and what it makes of 2.2 GB
 * beside it; and the same journal with one line damaged near its start, whose check must not hold
 * anything a record for the rest of the file (before issue 44 it kept an object a record: 218 MB
 * against 86 MB on these 128 MiB, 2.52×, and CPU 1.47× the intact journal's).
 */

/** The check, CPU, at most this many times the bare read + SHA-256 of the same file (measured 6.7–8.1× on 200 MB, 2026-12-07, a busy machine; a quarter above the highest). */
const VERIFY_TIMES_BARE = 10.5;
/** The check of the journal with a damaged line, peak memory over the intact journal's (measured 0.99–1.04×; 2.52× before issue 44's fix). */
const DAMAGED_PEAK_RATIO = 1.5;
const HUGE = 2.2 * 1000 ** 3;

function timedVerify(file: string): VerifyRun {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join('bench', 'verifyChild.ts'), file], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  if (child.status !== 0) throw new Error(`bench: the verify process failed (${child.status ?? child.signal}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as VerifyRun;
}

function mustHaveChecked(run: VerifyRun, what: string, records: number, problems: number): VerifyRun {
  if (run.records !== records || run.problems !== problems || run.exit !== (problems === 0 ? 0 : 1)) {
    throw new Error(`bench: the ${what} check did not read the journal as written: ${JSON.stringify({ ...run, expected: { records, problems } })}`);
  }
  return run;
}

/** A copy of `journal` with a few bytes in the middle of its line `line` flipped, as a failing disk leaves them. */
function damagedCopy(journal: string, copy: string, line: number): void {
  copyFileSync(journal, copy);
  const head = Buffer.alloc(4 * 1024 * 1024);
  const file = openSync(copy, 'r+');
  try {
    const length = readSync(file, head, 0, head.length, 0);
    let start = 0;
    for (let index = 0; index < line; index += 1) start = head.indexOf(0x0a, start) + 1;
    const end = head.indexOf(0x0a, start);
    if (start <= 0 || end < 0 || end >= length) throw new Error(`bench: line ${line} is not in the journal's first ${length} bytes`);
    const middle = (start + end) >> 1;
    const flipped = head.subarray(middle, middle + 4).map((byte) => byte ^ 0xff);
    writeSync(file, flipped, 0, flipped.length, middle);
  } finally {
    closeSync(file);
  }
}

const median = (values: readonly number[]) => percentile(values, 50);

/** How much of the long journal is checked: enough lines for a steady figure, little enough to add seconds, not minutes, to the bench. */
const CHECKED_BYTES = 128 * 1024 ** 2;

/** The first whole lines of `journal` up to `bytes` (a journal of its own: the header and the records after it), and how many records. */
function journalPrefix(journal: string, copy: string, bytes: number): { bytes: number; records: number } {
  const head = Buffer.alloc(bytes);
  const source = openSync(journal, 'r');
  let length: number;
  try {
    length = readSync(source, head, 0, bytes, 0);
  } finally {
    closeSync(source);
  }
  const whole = head.subarray(0, head.lastIndexOf(0x0a, length - 1) + 1);
  const target = openSync(copy, 'w');
  try {
    writeSync(target, whole);
  } finally {
    closeSync(target);
  }
  let lines = 0;
  for (let at = whole.indexOf(0x0a); at >= 0; at = whole.indexOf(0x0a, at + 1)) lines += 1;
  // The long journal has one header, its first line; every line after it is a record.
  return { bytes: whole.length, records: lines - 1 };
}

/**
 * The figures, from `runs` checks of the first CHECKED_BYTES of `journal` (a long journal of intact
 * records with one header), each beside a bare read of the same file by `bare` in this process,
 * and one check of a copy with a damaged line; the files are made in `dir` and removed.
 */
export async function verifyBenchmarks(dir: string, journal: string, bare: (path: string) => Promise<{ readonly cpuMs: number }>, runs: number): Promise<{ figures: BenchFigure[]; details: Record<string, unknown> }> {
  const checked = join(dir, 'verify.jsonl');
  const copy = join(dir, 'damaged.jsonl');
  const intact: VerifyRun[] = [];
  const bareCpu: number[] = [];
  let damaged: VerifyRun;
  let bytes: number;
  let records: number;
  try {
    ({ bytes, records } = journalPrefix(journal, checked, CHECKED_BYTES));
    for (let run = 0; run < runs; run += 1) {
      bareCpu.push((await bare(checked)).cpuMs);
      intact.push(mustHaveChecked(timedVerify(checked), 'intact', records, 0));
    }
    damagedCopy(checked, copy, 1000);
    damaged = mustHaveChecked(timedVerify(copy), 'damaged', records - 1, 1);
  } finally {
    rmSync(checked, { force: true });
    rmSync(copy, { force: true });
  }
  const cpu = median(intact.map((run) => run.cpuMs));
  const wall = median(intact.map((run) => run.ms));
  const bareMedian = median(bareCpu);
  const perSecond = (ms: number) => bytes / 1000 ** 2 / (ms / 1000);
  const intactPeak = Math.max(...intact.map((run) => run.peakRssMb));
  const size = `${round1(bytes / 1024 ** 2)} MiB, ${records.toLocaleString('en-US')} records`;
  return {
    figures: [
      {
        name: `journal verify (every line's seal and link) ÷ bare read + SHA-256 of the same file, CPU (${Math.round(cpu)} ms ÷ ${Math.round(bareMedian)} ms; ${size})`,
        value: Math.round((cpu / bareMedian) * 100) / 100,
        unit: '×',
        target: VERIFY_TIMES_BARE,
        better: 'lower',
      },
      {
        name: `journal verify throughput, CPU (${Math.round(perSecond(wall))} MB/s wall; 2.2 GB in about ${Math.round(HUGE / 1000 ** 2 / perSecond(cpu))} s CPU, ${Math.round(HUGE / 1000 ** 2 / perSecond(wall))} s wall)`,
        value: Math.round(perSecond(cpu)),
        unit: 'MB/s',
        target: 20,
        better: 'higher',
        reportOnly: 'the machine\'s speed in it; the multiple of the bare read above gates',
      },
      {
        name: `journal verify with one line damaged near its start, peak memory ÷ the intact journal's (${Math.round(damaged.peakRssMb)} MB ÷ ${Math.round(intactPeak)} MB; CPU ${Math.round(damaged.cpuMs)} ms)`,
        value: Math.round((damaged.peakRssMb / intactPeak) * 100) / 100,
        unit: '×',
        target: DAMAGED_PEAK_RATIO,
        better: 'lower',
      },
    ],
    details: {
      method: 'bench/verifyChild.ts (verifyJournalFile, as `npm run verify` checks) in a fresh process, the check alone timed; the bare read + SHA-256 in the bench process, in the same run',
      bytes,
      records,
      bareCpuMs: bareCpu.map(round1),
      intact: intact.map((run) => ({ ms: round1(run.ms), cpuMs: round1(run.cpuMs), peakRssMb: round1(run.peakRssMb) })),
      damaged: { ms: round1(damaged.ms), cpuMs: round1(damaged.cpuMs), peakRssMb: round1(damaged.peakRssMb) },
    },
  };
}
