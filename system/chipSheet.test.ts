import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_SET_NAMES, type RuleSetName } from '../engine/race/rules';
import type { RaceSummary } from '../engine/race/summary';
import { journalPath } from '../journal/location';
import { readJournal } from '../main/journal/journal';
import { ConsoleService } from '../main/service/service';
import { DEFAULT_SETTINGS } from '../main/service/settings';
import type { ConsoleSettings, SeatCount } from '../protocol/contract';
import { COLOR_UP_LOG_KINDS } from '../replay/colorUps';
import { isSessionRecord } from '../replay/session';
import { foldLines, markedBreakOf, readFloorStatus, tableSheet, type FoldedRace } from '../floor/fold';
import { renderOverview, renderTable } from '../floor/page/render';
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
}

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
          for (const [index, { script, at, removed }] of scripts.entries()) {
            if (at !== null && marked !== at) {
              expect((await service.markBreak(at)).ok).toBe(true);
              marked = at;
            }
            if (at !== null && removed !== null && !(await service.startColorUp(at, removed)).ok) continue;
            const shown = await playRace(service, script, index === scripts.length - 1);
            if (shown !== null) shownAll.push(shown);
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

          const { lines } = await readJournal(journalPath(dir), isSessionRecord);
          const fold = foldLines(lines, lines.at(-1)?.seq ?? 0);
          const colourUps = lines.filter((line) => COLOR_UP_LOG_KINDS.includes((line.record as { kind: string }).kind));
          const sheet = tableSheet(fold.races, markedBreakOf(colourUps));

          // The break: the one marked last, else the last race's break (as the station journaled it).
          const levelOf = new Map(lines.flatMap((line) => (line.record.kind === 'race-start' ? [[line.record.raceId, line.record.level ?? null] as const] : [])));
          const lastAtBreak = [...fold.races].reverse().find((race: FoldedRace) => levelOf.get(race.raceId) !== null);
          const expectedBreak = marked ?? (lastAtBreak === undefined ? null : (levelOf.get(lastAtBreak.raceId) ?? null));
          expect(sheet.afterLevel).toBe(expectedBreak);
          const shown = expectedBreak === null ? [] : shownAll.filter((race) => levelOf.get(race.raceId) === expectedBreak);
          expect(sheet).toEqual({ afterLevel: expectedBreak, ...screensSheet(shown) });
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
  readonly tables: readonly { readonly table: string; readonly bring: Sheet; readonly collect: Sheet; readonly sheetAfterLevel: number | null }[];
  readonly totals: { readonly bring: Sheet; readonly collect: Sheet };
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

  const status = async (): Promise<StatusDocument> => {
    await floor(['sync', '--database', server.url, '--table', '5', '--data', dir]);
    return JSON.parse(await floor(['status', '--database', server.url])) as StatusDocument;
  };

  it('brings the protected player\'s chip: three 100s handed out, the sheet says 3 (bringOf said 2)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'floor-sheet-'));
    service = await ConsoleService.start({ dataDir: dir, clock: () => new Date('2026-12-01T20:00:00Z'), station: 'pc-5' });
    expect((await service.saveSettings({ ...settingsFor('classic', 3), table: { ...settingsFor('classic', 3).table, name: '5' } })).ok).toBe(true);
    expect((await service.saveStructure(STRUCTURE)).ok).toBe(true);
    expect((await service.markBreak(2)).ok).toBe(true);
    expect((await service.startColorUp(2, 25)).ok).toBe(true);
    // 25s into 100s (4 for 1): seat 1 trades 4 and keeps 1 odd, seat 2 holds 3 and nothing else (protected: classic gives it a 100 without racing), seat 3 keeps 2 odd.
    expect((await service.startRace([{ seat: 1, chips: 5, hasOther: true }, { seat: 2, chips: 3, hasOther: false }, { seat: 3, chips: 2, hasOther: true }])).ok).toBe(true);
    await dealUntilComplete(service, 'race-1');
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
});
