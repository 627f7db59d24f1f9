import { foldFloor, readFloorStatus } from './fold';
import { holdStep, tablesLeftAt } from './hold';
import type { WithClient } from './pool';
import { createWatchdog, type WatchdogOptions } from './watchdog';

/**
 * The floor's background work, off the request path, each loop on a connection of the server's
 * pool (floor/pool.ts withClient) and each pass scheduled after the last one ends: the fold, the
 * held break (floor/hold.ts) and the watchdog over the stations' statements (floor/watchdog.ts).
 * The floor server (floor/server.ts) starts it once it listens and stops it before it closes.
 */

/** The background fold's rest between passes, and the most one pass folds before it lets the next begin. */
const FOLD_EVERY_MS = 250;
const FOLD_PASS_BUDGET_MS = 2000;
/** How often the floor looks whether a break is to be held or let go (the pause itself is dated to the break's end). */
const HOLD_EVERY_MS = 1000;

export interface FloorDaemonOptions {
  readonly withClient: WithClient;
  readonly log: (line: string) => void;
  readonly now: () => number;
  /** How long the background fold rests between passes (ms). */
  readonly foldEveryMs?: number;
  /** How often the floor looks whether to hold or let go a break (tests: faster). */
  readonly holdEveryMs?: number;
  /** The watchdog's limits and pace (tests: shorter). */
  readonly watchdog?: WatchdogOptions;
}

export interface FloorDaemon {
  /** No pass begins after it; resolves when the passes under way have ended. */
  stop(): Promise<void>;
}

/**
 * How a background loop reports its passes: a failure logged when it is not the one logged last
 * (the database gone: a line or two, not four a second for as long as it is gone), and the first
 * pass that works after failures.
 */
function loopReport(name: string, log: (line: string) => void): { passed: () => void; failed: (error: unknown) => void } {
  let failing: string | null = null;
  return {
    passed() {
      if (failing !== null) log(`${name}: going again`);
      failing = null;
    },
    failed(error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== failing) log(`${name}: ${message}`);
      failing = message;
    },
  };
}

/** One loop: `pass` after `everyMs`, again `everyMs` after each pass ends, until stopped. */
function loop(report: ReturnType<typeof loopReport>, everyMs: number, pass: () => Promise<unknown>) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const on = () => {
    if (stopped) return;
    running = pass().then(report.passed, report.failed).then(() => {
      if (!stopped) timer = setTimeout(on, everyMs);
    });
  };
  timer = setTimeout(on, everyMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Starts the loops. The fold makes a pass first, awaited (so a floor started on folded records
 * shows them at once), then one pass after another, each table in transactions of its own; the
 * pages read what is folded and say how far behind it is. The held break, beside it: a look at the
 * clock each second, the tables left counted from what is folded only when a break is due or held.
 * The watchdog, beside them: a station's statement or open transaction past its limits stopped.
 */
export async function startFloorDaemon(options: FloorDaemonOptions): Promise<FloorDaemon> {
  const { withClient, log, now } = options;
  const foldPass = () => withClient((client) => foldFloor(client, FOLD_PASS_BUDGET_MS));
  const foldReport = loopReport('fold', log);
  await foldPass().then(foldReport.passed, foldReport.failed);
  const foldLoop = loop(foldReport, options.foldEveryMs ?? FOLD_EVERY_MS, foldPass);
  const holdLoop = loop(loopReport('hold', log), options.holdEveryMs ?? HOLD_EVERY_MS, () => withClient((client) => holdStep(client, now(), async (afterLevel) => tablesLeftAt(await readFloorStatus(client), afterLevel))));
  const watchdog = createWatchdog(options.watchdog, log);
  const watchLoop = loop(loopReport('watchdog', log), watchdog.everyMs, () => withClient((client) => watchdog.pass(client)));
  return {
    async stop() {
      await Promise.all([foldLoop.stop(), holdLoop.stop(), watchLoop.stop()]);
    },
  };
}
