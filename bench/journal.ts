import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Card } from '../engine/cards';
import type { RuleSetName } from '../engine/race/rules';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import type { CommandResult, ConsoleSettings, SeatCount } from '../protocol/contract';
import { JournalEncoder } from '../journal/encoder';
import { JournalWriter, readJournal } from '../station/journal/journal';
import { type JournalLine } from '../journal/read';
import { ConsoleService } from '../station/service/service';
import { isSessionRecord, type SessionRecord } from '../replay/session';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import type { BenchFigure } from './report';
import type { ReplayReport } from './replayChild';
import { benchDir, diskOf, percentile, ROOT, round1, round2 } from './support';

/**
 * The journal: how long the console takes to start on a journal of 10,000 events (read, parse,
 * replay through the session reducer), and how long one append (write + fsync) takes.
 */

const EVENTS = 10_000;
const STARTS = 5;
/** The long journal: about 3,000 confirmed races behind a console, as after a long festival. */
const LONG_EVENTS = 100_000;
const LONG_STARTS = 3;
const LONG_RACES = 3000;
const APPENDS = 1000;
const WARM_UP_APPENDS = 20;

const SEATS = Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: `Player ${index + 1}` }));
const RULES: readonly RuleSetName[] = ['classic', 'tda', 'roberts', 'classic', 'tda', 'roberts', 'round'];
const TEMPLATE_RACES = 14;

function check<T>(what: string, result: CommandResult<T>): T {
  if (!result.ok) throw new Error(`bench: ${what} was refused: ${result.error.field}: ${result.error.message}`);
  return result.value;
}

/**
 * Races played through the real service (manual entry, as the dealer types): ten seats, the rule
 * sets in turn, mostly 25s raced into 100s from one deck, every fourth race 5s into 100s from four
 * decks (up to 19 cards a seat), every third a misread refused and a card voided. Returns the
 * journal it wrote, one group of lines per race.
 */
export async function playTemplateRaces(dir: string): Promise<JournalLine<SessionRecord>[][]> {
  const service = await ConsoleService.start({ dataDir: dir });
  const random = seededRandom(20261201);
  try {
    for (let race = 0; race < TEMPLATE_RACES; race += 1) {
      const big = race % 4 === 3;
      const table: ConsoleSettings['table'] = {
        ...DEFAULT_SETTINGS.table,
        seats: SEATS,
        button: 1 + (race % 10),
        rules: RULES[race % RULES.length] as RuleSetName,
        ...(big ? { chipSet: [5, 25, 100, 500, 1000], removed: 5, next: 100, decks: 4 } : { removed: 25, next: 100, decks: 1 }),
      };
      check('saveSettings', await service.saveSettings({ ...DEFAULT_SETTINGS, table }));
      const ratio = table.next / table.removed;
      const counts: SeatCount[] = SEATS.map(({ seat }) => ({ seat, chips: 1 + Math.floor(random() * (ratio * 2 + 3)), hasOther: random() < 0.9 }));
      check('startRace', await service.startRace(counts));
      const raceId = service.getState().race?.id as string;
      const shoe: Card[] = shuffleDecks(table.decks, random);
      let dealt = 0;
      const status = () => service.getState().race?.summary.status;
      while (status() !== 'complete') {
        const card = shoe.shift();
        if (card === undefined) throw new Error('bench: the template race ran out of cards');
        check('dealCard', await service.dealCard(raceId, card));
        dealt += 1;
        if (race % 3 === 1 && !big && dealt === 2 && status() !== 'complete') {
          // A misread: the first card again (one deck, so refused and journaled as refused) …
          const first = service.getState().race?.summary.cards[0]?.card as string;
          const refused = await service.dealCard(raceId, first);
          if (refused.ok) throw new Error('bench: a repeated card from one deck was accepted');
          // … and a card dealt wrongly, voided.
          check('dealCard', await service.dealCard(raceId, shoe.shift() as Card));
          check('voidCards', await service.voidCards(raceId, 1, 'misdealt'));
        }
      }
      check('confirmRace', await service.confirmRace(raceId));
    }
  } finally {
    await service.close();
  }
  const { lines, reading } = await readJournal(join(dir, 'journal.jsonl'), isSessionRecord);
  if (reading.findings.length > 0) throw new Error(`bench: the template journal has problems: ${JSON.stringify(reading.findings)}`);
  const races: JournalLine<SessionRecord>[][] = [];
  for (const line of lines) {
    if (line.record.kind === 'race-start') races.push([]);
    races.at(-1)?.push(line);
  }
  return races;
}

/**
 * A journal of exactly `events` lines: the template races over and over, renumbered (race ids,
 * sequence numbers, one line every 2 s), as the writer writes them. The last race may be cut
 * short: a console restarted in the middle of a race. With `wholeRaces`, the journal ends with the
 * last race that fits whole instead: a console with only confirmed races behind it.
 */
export function writeJournal(
  path: string,
  races: readonly JournalLine<SessionRecord>[][],
  events = EVENTS,
  wholeRaces = false,
): { confirmed: number; raceOpen: boolean; bytes: number; events: number } {
  const out: string[] = [];
  // Sealed and chained exactly as the console's writer does it (the same encoder), header first.
  const encoder = JournalEncoder.fresh();
  const start = Date.parse('2026-11-29T17:00:00.000Z');
  let raceNumber = 0;
  let confirmed = 0;
  let lastKind = '';
  for (let next = 0; ; next = (next + 1) % races.length) {
    const race = races[next] as JournalLine<SessionRecord>[];
    if (wholeRaces && out.length + race.length > events) break;
    raceNumber += 1;
    for (const { record } of race) {
      if (out.length === events) break;
      const seq = out.length + 1;
      out.push(encoder.next(new Date(start + seq * 2000).toISOString(), seq * 2000, { ...record, raceId: `race-${raceNumber}` }));
      if (record.kind === 'race-confirm') confirmed += 1;
      lastKind = record.kind;
    }
    if (out.length === events) break;
  }
  const text = out.join('');
  writeFileSync(path, text);
  return { confirmed, raceOpen: lastKind !== 'race-confirm', bytes: Buffer.byteLength(text), events: out.length };
}

/** One console start in a fresh Node process (cold, as after a restart), timed there (flags: see replayChild.ts). */
export function timedStart(dataDir: string, messages = false, flags: readonly string[] = [], timeout = 120_000): ReplayReport {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join('bench', 'replayChild.ts'), dataDir, ...(messages ? ['--messages'] : []), ...flags], { cwd: ROOT, encoding: 'utf8', timeout, maxBuffer: 16 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`bench: the replay process failed (${child.status ?? child.signal}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as ReplayReport;
}

/**
 * A data folder `name` under `dir` holding the journal `write` makes there, with the template's
 * settings beside it (a console that has run this many races has its settings saved).
 */
export function benchDataFolder<T>(dir: string, templateDir: string, name: string, write: (journal: string) => T): { folder: string; journal: string; written: T } {
  const folder = join(dir, name);
  mkdirSync(folder);
  const journal = join(folder, 'journal.jsonl');
  const written = write(journal);
  copyFileSync(join(templateDir, 'settings.json'), join(folder, 'settings.json'));
  return { folder, journal, written };
}

export interface JournalResult {
  readonly figures: BenchFigure[];
  readonly details: Record<string, unknown>;
}

export async function journalBenchmarks(): Promise<JournalResult> {
  const dir = benchDir('journal');
  try {
    const templateDir = join(dir, 'template');
    const races = await playTemplateRaces(templateDir);
    const { folder: replayDir, written } = benchDataFolder(dir, templateDir, 'replay', (journal) => writeJournal(journal, races));
    const starts: ReplayReport[] = [];
    for (let run = 0; run < STARTS; run += 1) {
      const report = timedStart(replayDir);
      // The start must have replayed every event cleanly into the session the journal describes.
      if (report.records !== EVENTS || report.problems.length > 0 || report.chain !== 'intact' || report.history !== written.confirmed || report.raceOpen !== written.raceOpen) {
        throw new Error(`bench: the replay did not rebuild the journal's session: ${JSON.stringify({ ...report, expected: { records: EVENTS, ...written } })}`);
      }
      starts.push(report);
    }
    const cold = starts.map((start) => start.coldMs);
    const warm = starts.map((start) => start.warmMs);

    // The long journal: 100,000 lines, at least 3,000 confirmed races. Its start, and what a page
    // is sent by a console with that history (the first state; a confirmed race).
    const { folder: longDir, written: long } = benchDataFolder(dir, templateDir, 'long', (journal) => writeJournal(journal, races, LONG_EVENTS));
    if (long.confirmed < LONG_RACES) throw new Error(`bench: the long journal holds only ${long.confirmed} confirmed races (at least ${LONG_RACES} wanted)`);
    const longStarts: ReplayReport[] = [];
    for (let run = 0; run < LONG_STARTS; run += 1) {
      // The last start measures the messages too; it plays a race, so it runs on a copy.
      const last = run === LONG_STARTS - 1;
      const report = timedStart(longDir, last);
      if (report.records !== LONG_EVENTS || report.problems.length > 0 || report.chain !== 'intact' || report.history !== long.confirmed) {
        throw new Error(`bench: the replay did not rebuild the long journal's session: ${JSON.stringify({ ...report, expected: { records: LONG_EVENTS, ...long } })}`);
      }
      longStarts.push(report);
    }
    const messages = longStarts.at(-1)?.messages;
    if (messages === undefined) throw new Error('bench: the message sizes were not measured');
    const longCold = longStarts.map((start) => start.coldMs);

    const appendDir = join(dir, 'append');
    mkdirSync(appendDir);
    const records = races.flat().map((line) => line.record);
    const writer = await JournalWriter.open<SessionRecord>(join(appendDir, 'journal.jsonl'), null);
    const appends: number[] = [];
    try {
      for (let index = 0; index < WARM_UP_APPENDS + APPENDS; index += 1) {
        const record = records[index % records.length] as SessionRecord;
        const started = performance.now();
        await writer.append(record);
        if (index >= WARM_UP_APPENDS) appends.push(performance.now() - started);
      }
    } finally {
      await writer.close();
    }
    const disk = diskOf(appendDir);
    const replayMedian = Math.round(percentile(cold, 50));
    return {
      figures: [
        { name: `journal: start on ${EVENTS.toLocaleString('en-US')} events (read, parse, replay), median of ${STARTS} cold starts`, value: replayMedian, unit: 'ms', target: 200, better: 'lower' },
        { name: `journal: start on ${LONG_EVENTS.toLocaleString('en-US')} events (${long.confirmed.toLocaleString('en-US')} races), median of ${LONG_STARTS} cold starts`, value: Math.round(percentile(longCold, 50)), unit: 'ms', target: 1000, better: 'lower' },
        { name: `state: first message to a page, ${long.confirmed.toLocaleString('en-US')} races in the history`, value: round1(messages.firstState / 1024), unit: 'KB', target: 256, better: 'lower' },
        { name: `state: a confirmed race's message, ${long.confirmed.toLocaleString('en-US')} races in the history`, value: round1(messages.confirm / 1024), unit: 'KB', target: 16, better: 'lower' },
        { name: `journal: append + fsync p50 (${disk}, ${APPENDS.toLocaleString('en-US')} appends)`, value: round2(percentile(appends, 50)), unit: 'ms', target: 5, better: 'lower' },
        { name: `journal: append + fsync p95 (${disk}, ${APPENDS.toLocaleString('en-US')} appends)`, value: round2(percentile(appends, 95)), unit: 'ms', target: 20, better: 'lower' },
      ],
      details: {
        replay: {
          method: `ConsoleService.start timed in a fresh Node process on a data folder whose journal.jsonl holds ${EVENTS} lines: ${TEMPLATE_RACES} races played through the real service, repeated and renumbered, beside their settings.json`,
          events: EVENTS,
          journalBytes: written.bytes,
          racesConfirmed: written.confirmed,
          coldMs: cold.map(round1),
          warmMs: warm.map(round1),
        },
        long: {
          method: `the same on ${LONG_EVENTS} lines (the template races repeated), then one more race played and confirmed in that process; messages are the StateFeed's JSON, as browser mode sends them`,
          events: LONG_EVENTS,
          journalBytes: long.bytes,
          racesConfirmed: long.confirmed,
          coldMs: longCold.map(round1),
          warmMs: longStarts.map((start) => round1(start.warmMs)),
          messageBytes: messages,
        },
        append: {
          method: `JournalWriter.append (write + fsync) of the template's records, ${WARM_UP_APPENDS} warm-up appends not counted`,
          disk,
          p50Ms: round2(percentile(appends, 50)),
          p95Ms: round2(percentile(appends, 95)),
          maxMs: round1(Math.max(...appends)),
        },
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
