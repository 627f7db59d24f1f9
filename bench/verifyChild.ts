// One `verify` of a journal file, timed in this fresh process (bench/journalStart.ts runs it):
// `node --import tsx bench/verifyChild.ts FILE` prints one JSON line, a VerifyRun. The check is the
// command line's own (station/journal/verify.ts verifyJournalFile: every line's seal and link), timed
// alone: the process's start and its compiling are not in the figures, its peak memory is.
import { verifyJournalFile } from '../station/journal/verify';

export interface VerifyRun {
  readonly ms: number;
  /** CPU time (user + system) of the check alone. */
  readonly cpuMs: number;
  /** The process's peak resident memory, MB. */
  readonly peakRssMb: number;
  readonly exit: number;
  readonly records: number;
  readonly problems: number;
}

const file = process.argv[2];
if (file === undefined) throw new Error('usage: bench/verifyChild.ts FILE');
const cpu = process.cpuUsage();
const started = performance.now();
const outcome = await verifyJournalFile(file, null);
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const run: VerifyRun = {
  ms,
  cpuMs: (used.user + used.system) / 1000,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  exit: outcome.exit,
  records: outcome.exit === 2 ? 0 : outcome.report.records,
  problems: outcome.exit === 2 ? 1 : outcome.report.problems.length,
};
console.log(JSON.stringify(run));
