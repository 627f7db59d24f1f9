// One console start on a data folder, timed in this fresh process (bench/journal.ts runs it):
// `node --import tsx bench/replayChild.ts DATA_DIR [--messages] [--cold]` prints one JSON line, a ReplayReport.
// With --messages it then measures what the page is sent: the first state message, and the one a
// confirmed race sends (through the same StateFeed and JSON as browser mode's socket). With --cold
// only the cold start runs (its peak memory is then the process's).
import { existsSync } from 'node:fs';
import { checkpointPath } from '../station/journal/checkpoint';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import type { StateMessage } from '../protocol/contract';
import { StateFeed } from '../station/ipc/stateFeed';
import { findingText } from '../journal/findings';
import { ConsoleService } from '../station/service/service';

export interface ReplayReport {
  /** ConsoleService.start in a fresh process: read the journal, check its seals, parse it, replay it, open it for appending. */
  readonly coldMs: number;
  /** CPU time (user + system) of the cold start. */
  readonly coldCpuMs: number;
  /** The same again in this process, its code now compiled (0 with --cold). */
  readonly warmMs: number;
  /** The process's peak resident memory, MB, after the cold start (and the checkpoint it may write, on close). */
  readonly peakRssMb: number;
  readonly fromCheckpoint: boolean;
  readonly records: number;
  readonly problems: readonly string[];
  readonly chain: string;
  readonly history: number;
  readonly raceOpen: boolean;
  /** Bytes of the messages a page gets (with --messages). */
  readonly messages?: { readonly firstState: number; readonly card: number; readonly confirm: number };
}

async function timedStart(dataDir: string): Promise<{ ms: number; cpuMs: number; service: ConsoleService }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const service = await ConsoleService.start({ dataDir });
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, service };
}

function must(what: string, result: { ok: boolean; error?: { message: string } }): void {
  if (!result.ok) throw new Error(`bench: ${what} was refused: ${result.error?.message}`);
}

/** The page's messages: a whole state first, then one race played to its confirmation, as a dealer would. */
async function measureMessages(service: ConsoleService): Promise<NonNullable<ReplayReport['messages']>> {
  const sent: string[] = [];
  const feed = new StateFeed((message: StateMessage) => sent.push(JSON.stringify(message)));
  service.onState((state) => feed.push(state));
  feed.push(service.getState());
  const firstState = Buffer.byteLength(sent[0] as string);
  const open = service.getState().race;
  if (open !== null) must('abandonRace', await service.abandonRace(open.id, 'bench: restarted mid-race'));
  const seats = service.getState().settings.table.seats;
  must('startRace', await service.startRace(seats.map(({ seat }) => ({ seat, chips: 3, hasOther: true }))));
  const raceId = service.getState().race?.id as string;
  const shoe = shuffleDecks(service.getState().settings.table.decks, seededRandom(7));
  let card = 0;
  while (service.getState().race?.summary.status !== 'complete') {
    const before = sent.length;
    must('dealCard', await service.dealCard(raceId, shoe.shift() as string));
    card = Math.max(card, ...sent.slice(before).map((message) => Buffer.byteLength(message)));
  }
  const before = sent.length;
  must('confirmRace', await service.confirmRace(raceId));
  const confirm = Math.max(...sent.slice(before).map((message) => Buffer.byteLength(message)));
  return { firstState, card, confirm };
}

const [dataDir, ...flags] = process.argv.slice(2);
if (dataDir === undefined) throw new Error('usage: node --import tsx bench/replayChild.ts DATA_DIR [--messages]');
// A checkpoint there before the start, and no finding that it was passed over: the start read on from it.
const hadCheckpoint = existsSync(checkpointPath(dataDir));
const cold = await timedStart(dataDir);
const state = cold.service.getState();
await cold.service.close();
const peakRssMb = process.resourceUsage().maxRSS / 1024;
const warm = flags.includes('--cold') ? null : await timedStart(dataDir);
const messages = warm !== null && flags.includes('--messages') ? await measureMessages(warm.service) : undefined;
await warm?.service.close();
const report: ReplayReport = {
  coldMs: cold.ms,
  coldCpuMs: cold.cpuMs,
  warmMs: warm?.ms ?? 0,
  peakRssMb,
  fromCheckpoint: hadCheckpoint && !state.journal.findings.some((finding) => finding.code.startsWith('checkpoint-')),
  records: state.journal.records,
  problems: state.journal.findings.map(findingText),
  chain: state.journal.chain,
  history: state.history.total,
  raceOpen: state.race !== null,
  ...(messages ? { messages } : {}),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
