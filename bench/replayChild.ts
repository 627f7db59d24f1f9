// One console start on a data folder, timed in this fresh process (bench/journal.ts runs it):
// `node --import tsx bench/replayChild.ts DATA_DIR` prints one JSON line, a ReplayReport.
import { ConsoleService } from '../main/service/service';

export interface ReplayReport {
  /** ConsoleService.start in a fresh process: read the journal, parse it, replay it, open it for appending. */
  readonly coldMs: number;
  /** The same again in this process, its code now compiled. */
  readonly warmMs: number;
  readonly records: number;
  readonly problems: readonly string[];
  readonly history: number;
  readonly raceOpen: boolean;
}

async function timedStart(dataDir: string): Promise<{ ms: number; service: ConsoleService }> {
  const started = performance.now();
  const service = await ConsoleService.start({ dataDir });
  return { ms: performance.now() - started, service };
}

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: node --import tsx bench/replayChild.ts DATA_DIR');
const cold = await timedStart(dataDir);
const state = cold.service.getState();
await cold.service.close();
const warm = await timedStart(dataDir);
await warm.service.close();
const report: ReplayReport = {
  coldMs: cold.ms,
  warmMs: warm.ms,
  records: state.journal.records,
  problems: state.journal.problems,
  history: state.history.length,
  raceOpen: state.race !== null,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
