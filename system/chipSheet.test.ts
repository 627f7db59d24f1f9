import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChipExchange, type ChipExchangeReason } from '../engine/race/exchange';
import { RULE_SET_NAMES, type RuleSetName } from '../engine/race/rules';
import { addChips, type RaceSummary } from '../engine/race/summary';
import { journalPath } from '../journal/location';
import { JournalWriter, readJournal } from '../station/journal/journal';
import { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import type { ConsoleSettings, SeatCount } from '../protocol/contract';
import { chipExchangeRecord, type ChipExchangeRecord } from '../replay/chipExchange';
import { COLOR_UP_LOG_KINDS } from '../replay/colorUps';
import { CSV_BOM } from '../replay/csv';
import { isSessionRecord } from '../replay/session';
import { parseCsv } from '../replay/testing/readCsv';
import { foldLines, markedBreakOf, readFloorStatus, tableSheet, type FoldedRace, type FoldLine } from '../floor/fold';
import { renderOverview, renderTable } from '../floor/page/render';
import { renderRunner } from '../floor/page/runnerPage';
import { readTicks, recordTick, reconcile } from '../floor/runner';
import { summaryCsv, tournamentSummary } from '../floor/summary';
import { floorCsv, floorJson } from '../floor/export';
import { FLOOR_LANGUAGES, say } from '../floor/page/words';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { dealUntilComplete, STRUCTURE } from './testing/stations';

// The chip runner's sheet against the stations' own screens: random evenings on a real console
// (every rule set, 2 to 6 seats, random counts with broke players, random shoes, a colour-up of
// one or two breaks, races confirmed, abandoned, left waiting to be confirmed or left racing, the
// break unmarked afterwards or not), its journal folded as the floor folds it; the sheet of the
// table equals what the station's result screens listed at that break, added up: the counts
// screen's trade (up × ratio of the leaving chip for up new ones), the result screen's winners and
// protected seats (one new chip each) and its "remove" (the odd chips). Checked beside it without
// the engine's figures: every leaving chip counted is collected, and the value the chips brought
// and taken make is the result screen's value delta.
// With chips exchanged outside a race between the races (late-found ones, TDA 24C, and the floor's
// discretionary colour-ups, TDA 25B, recorded as the station journals them: the station's command
// is another's work, so their records are put in the journal's order here): the sheet of the break
// the table showed when each was recorded takes its `count` leaving chips in and hands out
// floor(count × removed / next) new ones, the rest worth less than one new chip removed.

const SUITS = ['s', 'h', 'd', 'c'];
const RANKS = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
const DECK = SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}`));

type End = 'confirm' | 'abandon' | 'leave-complete' | 'leave-racing';

interface RaceScript {
  readonly counts: readonly { readonly chips: number; readonly hasOther: boolean }[];
  readonly shoe: readonly string[];
  readonly end: End;
}

interface Evening {
  readonly rules: RuleSetName;
  readonly seats: number;
  readonly ownRace: RaceScript | null;
  /** Break after level 2 first (its 25s leave), then the break after level 6 (500s, then 100s). */
  readonly earlyBreak: readonly RaceScript[] | null;
  readonly lateBreak: readonly RaceScript[];
  readonly unmarkAtEnd: boolean;
  /** Exchanges outside a race, each after the race script `point` (modulo the scripts, the last: after the break's end). */
  readonly exchanges: readonly ExchangeScript[];
}

interface ExchangeScript {
  readonly point: number;
  readonly reason: ChipExchangeReason;
  readonly chips: readonly [number, number];
  readonly count: number;
  readonly seat: number | null;
}

/** The leaving chip and a larger one of the table's set that it is a whole part of. */
const EXCHANGED_CHIPS: readonly (readonly [number, number])[] = [[25, 100], [25, 500], [25, 1000], [100, 500], [100, 1000], [500, 1000]];

const exchangeScript: fc.Arbitrary<ExchangeScript> = fc.record({
  point: fc.nat({ max: 8 }),
  reason: fc.constantFrom<ChipExchangeReason>('late-found', 'discretionary'),
  chips: fc.constantFrom(...EXCHANGED_CHIPS),
  count: fc.integer({ min: 1, max: 45 }),
  seat: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
});

const raceScript = (seats: number): fc.Arbitrary<RaceScript> =>
  fc.record({
    counts: fc.array(fc.record({ chips: fc.integer({ min: 0, max: 13 }), hasOther: fc.boolean() }), { minLength: seats, maxLength: seats }),
    shoe: fc.shuffledSubarray(DECK, { minLength: DECK.length, maxLength: DECK.length }),
    end: fc.constantFrom<End>('confirm', 'confirm', 'confirm', 'abandon', 'leave-complete', 'leave-racing'),
  });

const evening: fc.Arbitrary<Evening> = fc.integer({ min: 2, max: 6 }).chain((seats) =>
  fc.record({
    rules: fc.constantFrom(...RULE_SET_NAMES),
    seats: fc.constant(seats),
    ownRace: fc.option(raceScript(seats)),
    earlyBreak: fc.option(fc.array(raceScript(seats), { minLength: 1, maxLength: 1 })),
    lateBreak: fc.array(raceScript(seats), { minLength: 0, maxLength: 2 }),
    unmarkAtEnd: fc.boolean(),
    exchanges: fc.array(exchangeScript, { maxLength: 4 }),
  }),
);

const NAMES = ['Matti', 'Teppo', 'Johanna', 'Aino', 'Pekka', 'Liisa'];

const settingsFor = (rules: RuleSetName, seats: number): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, chipSet: [25, 100, 500, 1000], rules, seats: NAMES.slice(0, seats).map((name, index) => ({ seat: index + 1, name })), button: 1, name: '9' },
});

type Sheet = Record<string, number>;
const add = (sheet: Sheet, denomination: number, chips: number) => {
  if (chips !== 0) sheet[String(denomination)] = (sheet[String(denomination)] ?? 0) + chips;
};

/** What the station's screens listed for a race whose result screen was shown: its summary then, and the counts entered. */
interface Shown {
  readonly raceId: string;
  readonly summary: RaceSummary;
  readonly counted: number;
}

/** Plays a race as a dealer would: counts, the shoe's cards until complete (or the script stops), then its end. Null when the console refused the counts. */
async function playRace(service: ConsoleService, script: RaceScript, last: boolean): Promise<Shown | null> {
  const counts: SeatCount[] = script.counts.map((count, index) => ({ seat: index + 1, chips: count.chips, hasOther: count.hasOther }));
  const started = await service.startRace(counts);
  if (!started.ok) return null;
  const race = service.getState().race;
  if (race === null) return null;
  const racing = last && script.end === 'leave-racing';
  // Left racing: a card or two short of its end (none when it needs none).
  const stopAt = racing ? Math.max(0, race.summary.cardsNeeded - 1) : script.shoe.length;
  for (let step = 0; step < stopAt && service.getState().race?.summary.status !== 'complete'; step += 1) await service.dealCard(race.id, script.shoe[step] as string);
  const now = service.getState().race;
  if (now === null) return null;
  const complete = now.summary.status === 'complete';
  if (racing || (last && script.end === 'leave-complete')) return complete ? { raceId: race.id, summary: now.summary, counted: sumCounts(counts) } : null;
  if (script.end === 'abandon' || !complete) {
    await service.abandonRace(race.id, 'recount');
    return null;
  }
  await service.confirmRace(race.id);
  return { raceId: race.id, summary: now.summary, counted: sumCounts(counts) };
}

const sumCounts = (counts: readonly SeatCount[]) => counts.reduce((total, count) => total + count.chips, 0);

/** The break's races as the screens listed them, added up: the counts screen's trade, the result screen's winners, protected seats and odd chips. */
function screensSheet(shown: readonly Shown[]): { bring: Sheet; collect: Sheet } {
  const bring: Sheet = {};
  const collect: Sheet = {};
  for (const { summary, counted } of shown) {
    const traded = summary.exchange.reduce((total, row) => total + row.up, 0);
    // Counts screen: "trade up × ratio for up"; result screen: a line per winner and per protected seat, "remove the odd chips".
    add(bring, summary.next, traded + summary.awards.length + summary.protected.length);
    add(collect, summary.removed, traded * summary.ratio + summary.oddChips);
    // Without the engine's figures: every leaving chip counted leaves the table; the chips' value is the screen's value delta.
    expect(traded * summary.ratio + summary.oddChips).toBe(counted);
    expect((summary.awards.length + summary.protected.length) * summary.next - summary.oddChips * summary.removed).toBe(summary.valueDelta);
  }
  return { bring, collect };
}

/** An exchange as the station journals it: a late-found one names its race, a discretionary one says why. */
const exchangeRecordOf = (script: ExchangeScript): ChipExchangeRecord =>
  chipExchangeRecord(readChipExchange({ reason: script.reason, raceId: script.reason === 'late-found' ? 'race-1' : null, seat: script.seat, removed: script.chips[0], next: script.chips[1], count: script.count, note: script.reason === 'late-found' ? 'under the rail' : 'the player asked' }));

/** What the exchange's screen hands out and takes in, without the engine's arithmetic: whole new chips for the leaving ones, the rest (worth less than one) taken off. */
function addExchangeScreen(sheet: { bring: Sheet; collect: Sheet }, { removed, next, count }: ChipExchangeRecord): void {
  const given = Math.floor((count * removed) / next);
  add(sheet.collect, removed, count);
  add(sheet.bring, next, given);
  expect(count * removed - given * next).toBeLessThan(next);
}

/** The journal's lines with exchange records put after the lines they followed (`afterSeq`), numbered again in order as a journal numbers them. */
function withExchanges(lines: readonly FoldLine[], exchanges: readonly { readonly afterSeq: number; readonly record: ChipExchangeRecord }[]): FoldLine[] {
  const at = lines[0]?.at ?? '2026-12-01T20:00:00.000Z';
  const merged: { readonly at: string | null; readonly record: unknown }[] = [...exchanges.filter((exchange) => exchange.afterSeq === 0).map((exchange) => ({ at, record: exchange.record as unknown }))];
  for (const line of lines) merged.push(line, ...exchanges.filter((exchange) => exchange.afterSeq === line.seq).map((exchange) => ({ at: line.at, record: exchange.record as unknown })));
  return merged.map((line, index) => ({ seq: index + 1, at: line.at, record: line.record }));
}

describe('the chip runner\'s sheet', () => {
  it('equals, on random evenings under every rule set, what the station\'s result screens listed at its break', async () => {
    await fc.assert(
      fc.asyncProperty(evening, async (plan) => {
        const dir = mkdtempSync(join(tmpdir(), 'floor-sheet-property-'));
        const service = await ConsoleService.start({ dataDir: dir, clock: () => new Date('2026-12-01T20:00:00Z'), station: 'pc' });
        try {
          expect((await service.saveSettings(settingsFor(plan.rules, plan.seats))).ok).toBe(true);
          expect((await service.saveStructure(STRUCTURE)).ok).toBe(true);
          const scripts: { readonly script: RaceScript; readonly at: number | null; readonly removed: number | null }[] = [];
          if (plan.ownRace !== null) scripts.push({ script: plan.ownRace, at: null, removed: null });
          for (const script of plan.earlyBreak ?? []) scripts.push({ script, at: 2, removed: 25 });
          plan.lateBreak.forEach((script, index) => scripts.push({ script, at: 6, removed: index === 0 ? 500 : 100 }));
          const shownAll: Shown[] = [];
          let marked: number | null = null;
          // The exchanges recorded at a point: after which journal line, and the break marked then.
          const exchanged: { readonly afterSeq: number; readonly markedThen: number | null; readonly record: ChipExchangeRecord }[] = [];
          const exchangesAt = async (point: number) => {
            const afterSeq = (await readJournal(journalPath(dir), isSessionRecord)).reading.lastSeq;
            for (const script of plan.exchanges) if (script.point % (scripts.length + 1) === point) exchanged.push({ afterSeq, markedThen: marked, record: exchangeRecordOf(script) });
          };
          for (const [index, { script, at, removed }] of scripts.entries()) {
            if (at !== null && marked !== at) {
              expect((await service.markBreak(at)).ok).toBe(true);
              marked = at;
            }
            if (at === null || removed === null || (await service.startColorUp(at, removed)).ok) {
              const shown = await playRace(service, script, index === scripts.length - 1);
              if (shown !== null) shownAll.push(shown);
            }
            await exchangesAt(index);
          }
          // The break after level 6 marked, though no race of it may have run.
          if (plan.earlyBreak !== null && plan.lateBreak.length === 0 && service.getState().race === null) {
            expect((await service.markBreak(6)).ok).toBe(true);
            marked = 6;
          }
          if (plan.unmarkAtEnd && service.getState().race === null && marked !== null) {
            expect((await service.markBreak(null)).ok).toBe(true);
            marked = null;
          }
          await exchangesAt(scripts.length);

          const { lines: stationLines } = await readJournal(journalPath(dir), isSessionRecord);
          const lines = withExchanges(stationLines, exchanged);
          const fold = foldLines(lines, lines.at(-1)?.seq ?? 0);
          const colourUps = stationLines.filter((line) => COLOR_UP_LOG_KINDS.includes(line.record.kind));
          const sheet = tableSheet(fold.races, markedBreakOf(colourUps), fold.exchanges);

          // The break: the one marked last, else the last race's break (as the station journaled it).
          const starts = stationLines.flatMap((line) => (line.record.kind === 'race-start' ? [{ seq: line.seq, raceId: line.record.raceId, level: line.record.level ?? null }] : []));
          const levelOf = new Map(starts.map((start) => [start.raceId, start.level] as const));
          const lastAtBreak = [...fold.races].reverse().find((race: FoldedRace) => levelOf.get(race.raceId) !== null);
          const expectedBreak = marked ?? (lastAtBreak === undefined ? null : (levelOf.get(lastAtBreak.raceId) ?? null));
          expect(sheet.afterLevel).toBe(expectedBreak);
          const shown = expectedBreak === null ? [] : shownAll.filter((race) => levelOf.get(race.raceId) === expectedBreak);
          const screens = screensSheet(shown);
          // An exchange is on the sheet the table showed when it was recorded: the break marked then, else the last race's break started before it.
          const startedAtBreak = (seq: number) => starts.filter((start) => start.seq <= seq && start.level !== null).at(-1)?.level ?? null;
          for (const { afterSeq, markedThen, record } of exchanged) if (expectedBreak !== null && (markedThen ?? startedAtBreak(afterSeq)) === expectedBreak) addExchangeScreen(screens, record);
          expect(sheet).toEqual({ afterLevel: expectedBreak, bring: addChips(screens.bring), collect: addChips(screens.collect) });
          expect(fold.exchanges.map((exchange) => exchange.note)).toEqual(exchanged.map((exchange) => exchange.record.note));
          // The status's older per-race figures (its "chips") say the same of every race whose result is known.
          for (const race of fold.races) if (race.sheet !== null) expect([race.bring, race.collect]).toEqual([race.sheet.bring[String(race.next)] ?? 0, race.sheet.collect[String(race.removed)] ?? 0]);
        } finally {
          await service.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');

/** `npm run --silent floor -- …` as a child process, as the README and a check run it: its stdout. */
function floor(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '--silent', 'floor', '--', ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`floor ${args[0]}: ${stderr}`));
    });
  });
}

interface StatusDocument {
  readonly tables: readonly { readonly table: string; readonly valueDelta: number; readonly bring: Sheet; readonly collect: Sheet; readonly sheetAfterLevel: number | null; readonly exchanges?: readonly Record<string, unknown>[] }[];
  readonly totals: { readonly valueDelta: number; readonly bring: Sheet; readonly collect: Sheet };
}

/**
 * A station of `table` at the break after level 2, its race of the 25s into 100s (4 for 1) dealt to
 * its end, not confirmed yet: seat 1 trades 4 and keeps 1 odd, seat 2 holds 3 and nothing else
 * (protected: classic gives it a 100 without racing), seat 3 keeps 2 odd.
 */
async function protectedRaceDealt(dataDir: string, table: string): Promise<ConsoleService> {
  const station = await ConsoleService.start({ dataDir, clock: () => new Date('2026-12-01T20:00:00Z'), station: `pc-${table}` });
  expect((await station.saveSettings({ ...settingsFor('classic', 3), table: { ...settingsFor('classic', 3).table, name: table } })).ok).toBe(true);
  expect((await station.saveStructure(STRUCTURE)).ok).toBe(true);
  expect((await station.markBreak(2)).ok).toBe(true);
  expect((await station.startColorUp(2, 25)).ok).toBe(true);
  expect((await station.startRace([{ seat: 1, chips: 5, hasOther: true }, { seat: 2, chips: 3, hasOther: false }, { seat: 3, chips: 2, hasOther: true }])).ok).toBe(true);
  await dealUntilComplete(station, 'race-1');
  return station;
}

/** Records appended to a closed station's journal with the console's own writer (sealed and linked as the station seals them). */
async function appendToJournal(dataDir: string, records: readonly unknown[]): Promise<void> {
  const { reading } = await readJournal(journalPath(dataDir), (record): record is unknown => record !== undefined);
  const writer = await JournalWriter.open<unknown>(journalPath(dataDir), reading, { clock: () => new Date('2026-12-01T20:30:00Z') });
  try {
    for (const record of records) await writer.append(record);
  } finally {
    await writer.close();
  }
}

describe.runIf(run)('the chip runner\'s sheet in `floor status`, against a real PostgreSQL server', () => {
  let server: ThrowawayPostgres;
  let dir = '';
  let service: ConsoleService | null = null;

  beforeAll(async () => {
    server = await startThrowawayPostgres();
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await server?.remove();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const status = async (table = '5', data = dir): Promise<StatusDocument> => {
    await floor(['sync', '--database', server.url, '--table', table, '--data', data]);
    return JSON.parse(await floor(['status', '--database', server.url])) as StatusDocument;
  };

  it('brings the protected player\'s chip: three 100s handed out, the sheet says 3 (bringOf said 2)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'floor-sheet-'));
    service = await protectedRaceDealt(dir, '5');
    const shown = service.getState().race?.summary;
    // The result screen: one winner and the protected seat 2, a 100 each; the trade gave seat 1 its 100.
    expect([shown?.awards.length, shown?.protected, shown?.exchange.map((row) => row.up)]).toEqual([1, [2], [1, 0, 0]]);
    expect((await service.confirmRace('race-1')).ok).toBe(true);

    const during = await status();
    expect(during.tables).toEqual([expect.objectContaining({ table: '5', bring: { 100: 3 }, collect: { 25: 10 }, sheetAfterLevel: 2 })]);
    expect(during.totals).toMatchObject({ bring: { 100: 3 }, collect: { 25: 10 } });

    // The floor page: the table's row, its own page and the totals, in every language the floor speaks.
    const client = new pg.Client({ connectionString: server.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const folded = await readFloorStatus(client);
      for (const language of FLOOR_LANGUAGES) {
        const overview = renderOverview(folded, language, Date.now());
        const row = /<tr class="[^"]*" data-table="5">[\s\S]*?<\/tr>/.exec(overview)?.[0] ?? '';
        expect(row, language).toMatch(/data-testid="collect"><span class="chips" data-chip="25" data-count="10">25&nbsp;×&nbsp;10<\/span><\/span>/);
        expect(row, language).toMatch(/data-testid="bring"><span class="chips" data-chip="100" data-count="3">100&nbsp;×&nbsp;3<\/span><\/span>/);
        expect(row, language).toContain(say(language, 'floor.page.sheetBreak', { level: 2 }));
        expect(overview, language).toMatch(/data-testid="total-bring"><span class="chips" data-chip="100" data-count="3">/);
        expect(overview, language).toMatch(/data-testid="total-collect"><span class="chips" data-chip="25" data-count="10">/);
        expect(overview, language).toContain(`<p class="hint">${say(language, 'floor.page.sheetHint').slice(0, 24)}`);
        const page = renderTable(folded.tables[0] as (typeof folded.tables)[number], [], language, Date.now());
        expect(page, language).toMatch(/data-testid="bring"><span class="chips" data-chip="100" data-count="3">/);
      }
      expect(say('fi', 'floor.page.sheetBreak', { level: 2 })).toBe('tauko tason 2 jälkeen');
      expect(say('ru', 'floor.page.sheetBreak', { level: 2 })).toBe('перерыв после уровня 2');
    } finally {
      await client.end();
    }

    // The break unmarked (the clock went on): the last break's sheet still.
    expect((await service.markBreak(null)).ok).toBe(true);
    const after = await status();
    expect(after.tables[0]).toMatchObject({ bring: { 100: 3 }, collect: { 25: 10 }, sheetAfterLevel: 2 });

    // The next break marked: nothing handed out at it yet.
    expect((await service.markBreak(6)).ok).toBe(true);
    const next = await status();
    expect(next.tables[0]).toMatchObject({ bring: {}, collect: {}, sheetAfterLevel: 6 });
    expect(next.totals).toMatchObject({ bring: {}, collect: {} });
  }, 180_000);
  it('hands out and takes in the chips exchanged outside a race too: a late-found and a discretionary exchange on the break\'s sheet, the runner\'s ticks flagged, the chip audit', async () => {
    const data = mkdtempSync(join(tmpdir(), 'floor-sheet-exchange-'));
    const client = new pg.Client({ connectionString: server.url });
    client.on('error', () => undefined);
    try {
      // As the test before: 3 × 100 handed out, 10 × 25 taken in, +50.
      const station = await protectedRaceDealt(data, '8');
      try {
        expect((await station.confirmRace('race-1')).ok).toBe(true);
      } finally {
        await station.close();
      }
      const before = (await status('8', data)).tables.find((table) => table.table === '8');
      expect(before).toMatchObject({ bring: { 100: 3 }, collect: { 25: 10 }, sheetAfterLevel: 2, valueDelta: 50 });
      expect(before?.exchanges).toBeUndefined();
      await client.connect();
      // The runner's round ticked as the sheet said then.
      await recordTick(client, { table: '8', afterLevel: 2, kind: 'delivered', by: 'Anna', chips: { 100: 3 } });
      await recordTick(client, { table: '8', afterLevel: 2, kind: 'collected', by: 'Anna', chips: { 25: 10 } });

      // Then, at the same break: 5 of race-1's 25s found under seat 1's rail (one 100, 25 removed), and seat 3's six 25s coloured up at the floor's word (one 100, 50 removed).
      await appendToJournal(data, [
        chipExchangeRecord(readChipExchange({ reason: 'late-found', raceId: 'race-1', seat: 1, removed: 25, next: 100, count: 5, note: 'under the rail' })),
        chipExchangeRecord(readChipExchange({ reason: 'discretionary', seat: 3, removed: 25, next: 100, count: 6, note: 'Johanna asked' })),
      ]);
      const after = await status('8', data);
      const eight = after.tables.find((table) => table.table === '8');
      expect(eight).toMatchObject({ bring: { 100: 5 }, collect: { 25: 21 }, sheetAfterLevel: 2, valueDelta: 50 - 25 - 50 });
      expect(eight?.exchanges?.map(({ reason, raceId, seat, removed, count, next, given, lost, valueDelta, afterLevel, note }) => [reason, raceId, seat, removed, count, next, given, lost, valueDelta, afterLevel, note])).toEqual([
        ['late-found', 'race-1', 1, 25, 5, 100, 1, 1, -25, 2, 'under the rail'],
        ['discretionary', null, 3, 25, 6, 100, 1, 2, -50, 2, 'Johanna asked'],
      ]);
      expect(after.totals).toMatchObject({ bring: addChips(...after.tables.map((table) => table.bring)), collect: addChips(...after.tables.map((table) => table.collect)) });
      expect(after.totals.bring[100]).toBeGreaterThanOrEqual(5);

      // The runner's sheet: the exchanges' chips owed beyond the ticks, each exchange its own line, in every language.
      const folded = await readFloorStatus(client);
      const reconciled = reconcile(folded, await readTicks(client, 2), 2);
      const row = reconciled.tables.find((table) => table.table === '8');
      expect(row).toMatchObject({ bring: { 100: 5 }, collect: { 25: 21 }, removedValue: 525, addedValue: 500, valueCreated: -25, flagged: true });
      expect(row?.differences).toEqual([{ kind: 'delivered', chip: 100, more: 2 }, { kind: 'collected', chip: 25, more: 11 }]);
      for (const language of FLOOR_LANGUAGES) {
        const page = renderRunner(reconciled, language);
        expect(page, language).toContain(say(language, 'floor.page.runner.lateFound', { race: 'race-1' }));
        expect(page, language).toContain(say(language, 'floor.page.runner.discretionary').replace(/'/g, '&#39;'));
        expect(page, language).toContain('<q>Johanna asked</q>');
        expect(page.match(/data-testid="runner-exchange"/g)?.length, language).toBe(2);
        // The table's own page lists them under its sheet.
        const tablePage = renderTable(folded.tables.find((table) => table.table === '8') as (typeof folded.tables)[number], [], language, Date.now());
        expect(tablePage.match(/data-testid="runner-exchange" data-reason="(late-found|discretionary)"/g)?.length, language).toBe(2);
        expect(tablePage, language).toContain(say(language, 'floor.page.runner.exchangeChips', { count: 5, removed: '25', given: 1, next: '100' }));
      }

      // The chip audit: the exchanges' chips and value with the races', each listed against its race and break.
      const audit = await tournamentSummary(client);
      expect(audit.tables.find((table) => table.table === '8')).toMatchObject({ races: 1, exchanges: 2, valueDelta: -25, chips: [{ chip: 25, removed: 21, added: 0 }, { chip: 100, removed: 0, added: 5 }] });
      expect(audit.exchanges.map(({ table, reason, raceId, raceLevel, afterLevel }) => [table, reason, raceId, raceLevel, afterLevel])).toEqual([['8', 'late-found', 'race-1', 2, 2], ['8', 'discretionary', null, null, 2]]);
      // The tournament's export: a row of its own for each, after the table's race, and the JSON's list with the value in the table's.
      const [header = [], ...rows] = parseCsv((await floorCsv(client, { separator: ',' })).replace(CSV_BOM, ''), ',');
      const cellsOf = (row: readonly string[]) => Object.fromEntries(header.map((column, index) => [column, row[index] ?? '']));
      // The race's own row has its rules; the exchanges' rows have none.
      const exchangeRows = rows.map(cellsOf).filter((row) => row['floor table'] === '8' && row.rules === '');
      expect(exchangeRows.map((row) => [row.race, row.level, row.confirmed, row.removed, row.next, row['value delta'], row['floor decision']])).toEqual([
        ['race-1', '2', '2026-12-01T20:30:00.000Z', '25', '100', '-25', 'late-found race-1, seat 1: 5 × 25 for 1 × 100, 1 × 25 removed: under the rail'],
        ['', '2', '2026-12-01T20:30:00.000Z', '25', '100', '-50', 'discretionary, seat 3: 6 × 25 for 1 × 100, 2 × 25 removed: Johanna asked'],
      ]);
      // The race's own row names its late-found chips in the station's column, as the station's export does (issue 43).
      expect(rows.map(cellsOf).find((row) => row['floor table'] === '8' && row.race === 'race-1' && row.rules !== '')?.['late-found chips']).toBe('5 × 25 → 1 × 100, 1 × 25 taken off (-25), seat 1: under the rail');
      const exported = (JSON.parse(await floorJson(client)) as { tables: { table: string; valueDelta: number; exchanges: unknown[] }[] }).tables.find((table) => table.table === '8');
      expect([exported?.valueDelta, exported?.exchanges.length]).toEqual([-25, 2]);
      expect(summaryCsv(audit, { separator: ',' })).toMatch(/\r\n8,late-found,race-1,2,2,1,25,5,100,1,1,-25,\d+,2026-12-01T20:30:00.000Z,[^,]+,under the rail\r\n/);
    } finally {
      await client.end().catch(() => undefined);
      rmSync(data, { recursive: true, force: true });
    }
  }, 180_000);
});
