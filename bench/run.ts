import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { arch, cpus, loadavg, platform } from 'node:os';
import { join } from 'node:path';
import { engineBenchmarks } from './engine';
import { failsGate, formatTable, meetsTarget, type BenchFigure } from './report';
import { waitForQuiet, type QuietWait } from './quiet';
import { measureGroups, type GroupResult } from './secondLook';
import { buildApp } from './support';

/**
 * `npm run bench`: every figure beside its target, saved to bench/results.json; exits 1 when a
 * target is missed twice in a row (bench/secondLook). `npm run bench -- latency journal` runs
 * only the named groups.
 *
 * The groups that run the real app (browser mode and Chromium in their own processes) go first and
 * end all their processes before the in-process CPU benchmarks start, so neither disturbs the other;
 * the latency, the tightest target, goes first of all, once the machine has gone quiet. The floor
 * (a PostgreSQL server and 100 stations) goes last: it leaves the machine slower for minutes.
 */
interface Group {
  readonly name: string;
  readonly run: () => Promise<{ figures: BenchFigure[]; details?: Record<string, unknown> }>;
}

const GROUPS: readonly Group[] = [
  { name: 'latency', run: async () => (await import('./latency')).latencyBenchmarks() },
  { name: 'renderer', run: async () => (await import('./renderer')).rendererBenchmarks() },
  { name: 'journal', run: async () => (await import('./journal')).journalBenchmarks() },
  // The 1,000,000-line start (with and without its checkpoint, against a bare read-and-hash) and the 3 GB one.
  { name: 'journalStart', run: async () => (await import('./journalStart')).journalStartBenchmarks() },
  // The whole history of a 1,000,000-line journal exported (CSV and JSON, downloaded and saved), streaming: memory flat.
  { name: 'historyExport', run: async () => (await import('./historyExport')).historyExportBenchmarks() },
  { name: 'service', run: async () => (await import('./service')).serviceBenchmarks() },
  { name: 'engine', run: async () => ({ figures: await engineBenchmarks() }) },
  { name: 'poker', run: async () => ({ figures: (await import('./poker')).pokerBenchmarks() }) },
  // Last: a PostgreSQL server of its own and 100 stations' journals. The machine stays slower for
  // minutes after it (measured: the engine group right after it missed 100,000 races/s on three
  // looks of four, 72,000–96,000, and met it alone at 115,000–146,000), so nothing is measured after it.
  { name: 'floor', run: async () => (await import('./floor')).floorBenchmarks() },
  // Issue 23: 500 stations linked at once on the README's cardroom set-up (max_connections from its
  // cardroom-connections block), the floor's status with 500 tables × 50 races, the server's
  // connections and memory. After the floor group, for the same reason.
  { name: 'floorRoom', run: async () => (await import('./floorRoom')).floorRoomBenchmarks() },
  // Issue 44: the floor's overview while six exports download (streamed: floor/export.ts), beside the same request alone.
  { name: 'floorExports', run: async () => (await import('./floorExports')).floorExportsBenchmarks() },
];

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !GROUPS.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`bench: no group ${unknown.join(', ')} (groups: ${GROUPS.map((group) => group.name).join(', ')})`);
  process.exit(2);
}
const groups = GROUPS.filter((group) => asked.length === 0 || asked.includes(group.name));

const started = performance.now();
// The renderer, latency and browser-start figures run the built app: build it first, as `npm run web` does.
if (groups.some((group) => group.name === 'renderer' || group.name === 'latency' || group.name === 'journalStart')) buildApp();
const loadBefore = loadavg();

const figures: BenchFigure[] = [];
const details: Record<string, unknown> = {};
const settled: Record<string, QuietWait[]> = {};
/** Runs a group once the machine is quiet: after the build, the test suites (in CI) and the group before it have settled. */
async function measure(group: Group): Promise<GroupResult> {
  const quiet = await waitForQuiet();
  (settled[group.name] ??= []).push(quiet);
  console.log(
    quiet.quiet
      ? `bench: ${group.name}: machine quiet after ${quiet.waitedMs} ms (CPU ${((quiet.busy ?? 0) * 100).toFixed(1)}% busy)`
      : `bench: ${group.name}: the machine stayed busy (CPU ${((quiet.busy ?? 0) * 100).toFixed(1)}% busy after ${quiet.waitedMs} ms); measuring anyway, read the figures accordingly`,
  );
  return group.run();
}

/** Before the second, third and fourth look at a group that missed a target: a slow spell may last minutes. */
const LOOK_PAUSES_MS = [20_000, 60_000, 120_000];
const { runs } = await measureGroups(groups, { measure, pause: (look) => sleep(LOOK_PAUSES_MS[look - 1] ?? 120_000), say: (line) => console.log(line), looks: LOOK_PAUSES_MS.length + 1 });
const earlierRuns: Record<string, BenchFigure[][]> = {};
for (const { group, result, earlier } of runs) {
  figures.push(...result.figures);
  if (result.details) details[group.name] = result.details;
  if (earlier.length > 0) earlierRuns[group.name] = [...earlier];
}
console.log(formatTable(figures));
for (const [group, earlier] of Object.entries(earlierRuns)) {
  earlier.forEach((run, index) => console.log(`\n${group} was measured ${earlier.length + 1} times; run ${index + 1} gave:\n${formatTable(run)}`));
}
const results = {
  date: new Date().toISOString(),
  node: process.version,
  machine: `${platform()} ${arch()}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}`,
  // The machine's load (1, 5, 15 min averages) before and after: figures from a busy machine read accordingly.
  loadAverage: { before: loadBefore.map((value) => Math.round(value * 100) / 100), after: loadavg().map((value) => Math.round(value * 100) / 100) },
  seconds: Math.round((performance.now() - started) / 1000),
  settled,
  figures: figures.map((figure) => ({ ...figure, meetsTarget: meetsTarget(figure) })),
  // Groups measured again because a run missed a target, with the figures of every run before the last.
  earlierRuns: Object.fromEntries(Object.entries(earlierRuns).map(([group, earlier]) => [group, earlier.map((run) => run.map((figure) => ({ ...figure, meetsTarget: meetsTarget(figure) })))])),
  details,
};
const file = join(import.meta.dirname, 'results.json');
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nsaved ${file} (${results.seconds} s; load average before ${results.loadAverage.before.join(', ')}, after ${results.loadAverage.after.join(', ')})`);
// A missed target fails the run, so a regression cannot pass unnoticed.
if (figures.some(failsGate)) process.exitCode = 1;
