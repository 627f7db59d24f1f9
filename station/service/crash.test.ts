// Crash safety. The console service runs as a child process with its own data dir, fed by a real
// pseudo-terminal shoe (socat; source kind serial, decoder text). It is killed with SIGKILL at a
// seeded random moment — while cards arrive, or while it confirms a race and starts the next —
// and a fresh child is started on the same data dir. It must recover exactly the events it
// acknowledged, plus at most the one it was saving at the kill: no card lost, none doubled. The
// fresh child then carries on dealing and is killed in turn, so each of the runs also proves that
// a recovered journal takes appends cleanly.
//
// "Acknowledged": the child prints a `state` line after every state publish (testing/serviceProcess.ts),
// and the service publishes only after the change is written and fsynced (ConsoleService.commit).
// The last state the parent read before the kill is the acknowledged state. Commands and shoe
// cards run one at a time, so at most one change can be on disk beyond it.
import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../engine/cards';
import { applyRaceEvent, startRace } from '../../engine/race/race';
import type { RaceSummary } from '../../engine/race/summary';
import { raceViewSummary } from '../../protocol/views';
import { seededRandom, shuffleDecks } from '../../engine/shoe';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import type { CommandResult, ConsoleSettings, ConsoleState, HistoryEntry, HistoryPage } from '../../protocol/contract';
import { DEFAULT_SETTINGS } from './settings';
import { bundleServiceProcess, ServiceChild } from './testing/serviceChild';

/** At least 50 (the gate). For a longer soak: CRASH_RUNS=1000 npx vitest run station/service/crash.test.ts */
const RUNS = Math.max(50, Number(process.env.CRASH_RUNS ?? 50));
const SEED = Number(process.env.CRASH_SEED ?? 20261129);
/** A kill while dealing lands this long at most after the first card of the child's deal. */
const DEAL_KILL_WINDOW_MS = 300;

const SEATS = Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: `P${index + 1}` }));
/** Ten players with three odd chips each: 8 race chips, 30 cards to deal. */
const COUNTS = SEATS.map(({ seat }) => ({ seat, chips: 3, hasOther: true }));
const CARDS_PER_RACE = 30;

function settings(source: ConsoleSettings['source']): ConsoleSettings {
  return { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 10 }, source };
}

/** The cards the shoe deals to race `id`, in order: its own seeded shuffle, whatever the kills. */
function shoeFor(id: string): Card[] {
  return shuffleDecks(1, seededRandom(SEED + Number(id.replace('race-', '')))).slice(0, CARDS_PER_RACE);
}

/** What an independent replay of these cards gives: the state of exactly those events. */
function expectedSummary(cards: readonly string[]): RaceSummary {
  const input = {
    rules: 'classic', removed: 25, next: 100, button: 10, decks: 1,
    seats: COUNTS.map((count) => ({ seat: count.seat, name: `P${count.seat}`, chips: count.chips, other: 100 })),
  };
  return raceViewSummary(cards.reduce((state, card) => applyRaceEvent(state, { type: 'card', card }), startRace(input)));
}

const cardsOf = (summary: RaceSummary): string[] => summary.cards.map((card) => card.card);

/**
 * Everything recorded, in order, as one list: each race's start, its cards and its confirmation.
 * An acknowledged state's trail must be a prefix of every later state's trail. A state carries
 * only the latest confirmed race (the history comes in pages), so the whole history is the one
 * the states showed race by race, or the one a fresh child gives page by page.
 */
function trail(history: readonly HistoryEntry[], race: ConsoleState['race']): string[] {
  const races = [...history.map((entry) => ({ id: entry.id, summary: entry.summary, done: true })), ...(race ? [{ id: race.id, summary: race.summary, done: false }] : [])];
  return races.flatMap(({ id, summary, done }) => [`start ${id}`, ...cardsOf(summary).map((card) => `${id} ${card}`), ...(done ? [`confirm ${id}`] : [])]);
}

/** The history as the states show it: one race confirmed at a time, each the state's `latest`. */
function followHistory(known: readonly HistoryEntry[], state: ConsoleState, where: string): HistoryEntry[] {
  const { total, latest } = state.history;
  if (total === known.length) return [...known];
  expect(total, `${where}: the history grows one race at a time`).toBe(known.length + 1);
  return [...known, latest as HistoryEntry];
}

/** The whole history of a running child, page by page. */
async function wholeHistory(child: ServiceChild): Promise<HistoryEntry[]> {
  const pages: HistoryEntry[][] = [];
  for (let before: number | null = null; before !== 0; ) {
    const page = (await child.request('historyPage', before, 100)) as CommandResult<HistoryPage>;
    if (!page.ok) throw new Error(`historyPage refused: ${page.error.message}`);
    pages.unshift([...page.value.entries]);
    before = page.value.start;
  }
  return pages.flat();
}

let bundle: Awaited<ReturnType<typeof bundleServiceProcess>>;
beforeAll(async () => {
  bundle = await bundleServiceProcess();
}, 60_000);
afterAll(() => bundle?.dispose());

interface Tally {
  kills: number;
  duringCommands: number;
  whileDealing: number;
  acknowledged: number;
  savedNotAcknowledged: number;
  tornTails: number;
  racesConfirmed: number;
}

/** Checks a restart against what the killed child acknowledged (see the file comment). */
function checkRecovery(acknowledged: { history: readonly HistoryEntry[]; state: ConsoleState }, recovered: { history: readonly HistoryEntry[]; state: ConsoleState }, where: string, tally: Tally): void {
  const before = trail(acknowledged.history, acknowledged.state.race);
  const after = trail(recovered.history, recovered.state.race);
  // A SIGKILL can land inside the write of a record that spans two pages (the kernel stops
  // between pages): that record was never acknowledged, and is discarded and reported (its bytes kept).
  const findings = recovered.state.journal.findings;
  const torn = findings.filter((finding) => finding.code === 'torn-tail');
  expect(findings, where).toEqual(torn.slice(0, 1));
  expect(['intact', 'empty'], where).toContain(recovered.state.journal.chain);
  tally.tornTails += torn.length;
  // Nothing acknowledged lost, and at most the one change that was being saved beyond it.
  expect(after.slice(0, before.length), where).toEqual(before);
  expect(after.length - before.length, where).toBeLessThanOrEqual(1);
  if (after.length > before.length) tally.savedNotAcknowledged += 1;
  else {
    expect(recovered.state.race, where).toEqual(acknowledged.state.race);
    expect(recovered.history, where).toEqual(acknowledged.history);
  }
  // No card doubled or invented: every race holds the first cards its shoe sent, in order, and
  // its state is what an independent replay of those cards gives.
  const races = [...recovered.history, ...(recovered.state.race ? [recovered.state.race] : [])];
  for (const { id, summary } of races) {
    const cards = cardsOf(summary);
    expect(new Set(cards).size, `${where}, ${id}`).toBe(cards.length);
    expect(cards, `${where}, ${id}`).toEqual(shoeFor(id).slice(0, cards.length));
    expect(summary, `${where}, ${id}`).toEqual(expectedSummary(cards));
  }
}

describe('crash safety: SIGKILL at random moments, restart on the same data dir', () => {
  it(`recovers exactly the acknowledged events after each of ${RUNS} seeded kills: no card lost, none doubled`, async () => {
    const started = Date.now();
    const random = seededRandom(SEED);
    const dataDir = mkdtempSync(join(tmpdir(), 'chip-race-crash-'));
    const pair = await PtyPair.create('crash');
    const writer = await PtyWriter.open(pair.a);
    const tally: Tally = { kills: 0, duringCommands: 0, whileDealing: 0, acknowledged: 0, savedNotAcknowledged: 0, tornTails: 0, racesConfirmed: 0 };
    let child: ServiceChild | undefined;
    try {
      let acknowledged: { history: HistoryEntry[]; state: ConsoleState } | null = null;
      for (let run = 0; run <= RUNS; run += 1) {
        child = new ServiceChild(bundle.path, dataDir, { serial: true });
        const recoveredState = await child.started;
        const where = `kill ${run} (seed ${SEED})`;
        const recovered = { history: await wholeHistory(child), state: recoveredState };
        if (acknowledged !== null) checkRecovery(acknowledged, recovered, where, tally);
        if (run === RUNS) break;
        if (run === 0) expect(await child.request('saveSettings', settings({ kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' }))).toEqual({ ok: true, value: null });

        // What this child is asked to do: finish the last race and start the next, then deal.
        const commands: Array<[string, ...unknown[]]> = [];
        const open = recovered.state.race;
        if (open?.summary.status === 'complete') commands.push(['confirmRace', open.id]);
        if (open === null || open.summary.status === 'complete') commands.push(['startRace', COUNTS]);
        const running = child;
        if (commands.length > 0 && random() < 0.6) {
          // Killed while it journals the confirmation or the new race.
          for (const [method, ...args] of commands) void running.request(method, ...args).catch(() => undefined);
          await sleep(Math.floor(random() * 15));
          running.kill('SIGKILL');
          tally.duringCommands += 1;
        } else {
          for (const [method, ...args] of commands) expect(await running.request(method, ...args), where).toEqual({ ok: true, value: null });
          await waitFor(() => running.acks.at(-1)?.source.state === 'connected', 'the service to open the shoe port');
          const race = running.acks.at(-1)?.race;
          const shoe = shoeFor(race?.id ?? '');
          const killAt = Math.floor(random() * DEAL_KILL_WINDOW_MS);
          let killed = false;
          const timer = setTimeout(() => {
            killed = true;
            running.kill('SIGKILL');
          }, killAt);
          // The shoe sends the cards this race has not recorded yet, a few milliseconds apart.
          for (const card of shoe.slice(race?.summary.cards.length ?? 0)) {
            if (killed) break;
            await writer.write(`${card}\r\n`);
            await sleep(2 + Math.floor(random() * 12));
          }
          await running.exited;
          clearTimeout(timer);
          tally.whileDealing += 1;
        }
        expect(await running.exited, where).toMatchObject({ signal: 'SIGKILL' });
        tally.kills += 1;
        // Every acknowledged state grows from the one before: nothing shown is ever taken back.
        let history = recovered.history;
        let previous = trail(history, recovered.state.race);
        for (const state of running.acks) {
          history = followHistory(history, state, where);
          const current = trail(history, state.race);
          expect(current.slice(0, previous.length), where).toEqual(previous);
          previous = current;
        }
        acknowledged = { history, state: running.acks.at(-1) ?? recovered.state };
        tally.acknowledged = trail(acknowledged.history, acknowledged.state.race).filter((token) => !token.startsWith('start') && !token.startsWith('confirm')).length;
        tally.racesConfirmed = acknowledged.history.length;
      }
      await child?.stop();
    } finally {
      child?.kill();
      await writer.close();
      await pair.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.info(
      `crash safety: ${tally.kills} SIGKILLs in ${seconds} s (${tally.whileDealing} while dealing, ${tally.duringCommands} while confirming or starting a race); ` +
        `${tally.acknowledged} cards acknowledged over ${tally.racesConfirmed} confirmed races and one open; 0 lost, 0 doubled; ` +
        `${tally.savedNotAcknowledged} kills left one change saved but not yet acknowledged (kept, as allowed), ` +
        `${tally.tornTails} cut a record in half (discarded and reported, as allowed)`,
    );
    expect(tally.kills).toBe(RUNS);
    // The seeds must spread the kills over both kinds of moment, or the test proves little.
    expect(tally.duringCommands, JSON.stringify(tally)).toBeGreaterThan(0);
    expect(tally.racesConfirmed, JSON.stringify(tally)).toBeGreaterThan(2);
  }, 400_000);

  it('recovers a journal whose last line a crash cut off: the partial record is discarded and reported', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chip-race-torn-'));
    const shoe = shoeFor('race-1');
    const child = new ServiceChild(bundle.path, dataDir);
    await child.started;
    expect(await child.request('saveSettings', settings({ kind: 'manual', path: '', baud: 9600, decoder: 'text' }))).toEqual({ ok: true, value: null });
    expect(await child.request('startRace', COUNTS)).toEqual({ ok: true, value: null });
    for (const card of shoe.slice(0, 5)) expect(await child.request('dealCard', 'race-1', card)).toEqual({ ok: true, value: null });
    child.kill('SIGKILL');
    await child.exited;
    // A SIGKILL cannot split one write(2) of a line; a power cut can. Cut the last record
    // somewhere inside it (seeded), as that would.
    const journal = join(dataDir, 'journal.jsonl');
    const bytes = readFileSync(journal);
    const lastLineStart = bytes.lastIndexOf('\n', bytes.length - 2) + 1;
    const keep = 1 + Math.floor(seededRandom(SEED)() * (bytes.length - lastLineStart - 2));
    truncateSync(journal, lastLineStart + keep);

    const torn = bytes.subarray(lastLineStart, lastLineStart + keep);
    const first = new ServiceChild(bundle.path, dataDir);
    const state = await first.started;
    expect(state.journal.findings).toEqual([{ code: 'torn-tail', bytes: keep, savedAs: 'journal.jsonl.torn-1' }]);
    expect(state.race?.summary).toEqual(expectedSummary(shoe.slice(0, 4)));
    // The torn bytes are kept as they were; the journal is cut back to whole records, and its
    // next line, the note of what was cut, appends cleanly after them.
    expect(readFileSync(`${journal}.torn-1`)).toEqual(torn);
    const after = readFileSync(journal);
    expect(after.subarray(0, lastLineStart)).toEqual(bytes.subarray(0, lastLineStart));
    expect(JSON.parse(after.subarray(lastLineStart).toString()).record).toMatchObject({ kind: 'journal', note: 'torn-tail', bytes: keep, savedAs: 'journal.jsonl.torn-1' });
    expect(await first.request('dealCard', 'race-1', shoe[4])).toEqual({ ok: true, value: null });
    first.kill('SIGKILL');
    await first.exited;

    const second = new ServiceChild(bundle.path, dataDir);
    const again = await second.started;
    await second.stop();
    expect(again.journal.findings).toEqual([]);
    expect(again.journal.chain).toBe('intact');
    expect(again.race?.summary).toEqual(expectedSummary(shoe.slice(0, 5)));
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);
});
