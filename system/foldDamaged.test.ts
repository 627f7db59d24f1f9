import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as floorCli } from '../floor/cli';
import { createStationLogin } from '../floor/db/stations';
import { floorCsv, floorJson } from '../floor/export';
import { foldFloor, foldLines, readFloorStatus, tableRaces, type FoldLine } from '../floor/fold';
import { renderOverview, renderTable } from '../floor/page/render';
import { tournamentSummary } from '../floor/summary';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { serviceHarness } from '../station/service/testing/services';
import { dealUntilComplete, STRUCTURE as BREAK_STRUCTURE, tableSettings } from './testing/stations';
import { journalPath } from '../journal/location';
import { readJournal } from '../station/journal/journal';
import { ConsoleService } from '../station/service/service';
import { options, play, SETTINGS, step, STRUCTURE } from '../station/service/testing/evenings';
import { isSessionRecord } from '../replay/session';

// Issue 44: the floor folds a table's lines with the station's own replay (replay/session.ts), a
// line damaged at the station held as evidence only (its record null). That line costs the race it
// is in, never the races after it: every other race folds exactly as the whole journal folds.

describe('the fold of a journal with one line damaged at the station', () => {
  it('folds every race without the damaged line as the whole journal folds it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 24, size: 'medium' }), fc.nat(), async (steps, where) => {
        const dir = mkdtempSync(join(tmpdir(), 'floor-fold-damaged-'));
        try {
          const live = await ConsoleService.start({ ...options(dir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
          await live.saveSettings(SETTINGS);
          await live.saveStructure(STRUCTURE);
          await play(live, [{ t: 'start', chips: [7, 2, 2] }, ...steps, { t: 'start', chips: [3, 1, 4] }, { t: 'finish' }, { t: 'start', chips: [2, 7, 1] }, { t: 'finish' }]);
          await live.close();
          const { lines } = await readJournal(journalPath(dir), isSessionRecord);
          const lastSeq = lines.at(-1)?.seq ?? 0;
          const damagedSeq = (lines[where % lines.length] as FoldLine).seq;
          const whole = foldLines(lines, lastSeq);
          const damaged = foldLines(lines.map((line): FoldLine => (line.seq === damagedSeq ? { seq: line.seq, at: null, record: null } : line)), lastSeq);
          expect(damaged.damaged).toEqual([damagedSeq]);
          // The race the damaged line is in (from its first to its last line, as the whole fold has it).
          const hit = whole.races.find((race) => race.firstSeq <= damagedSeq && damagedSeq <= (race.lastSeq ?? lastSeq))?.raceId ?? null;
          const others = (races: typeof whole.races) => races.filter((race) => race.raceId !== hit);
          expect(others(damaged.races)).toEqual(others(whole.races));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000 };
const { serviceIn, release } = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc', floorTiming: FLOOR_TIMING });
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const OK = { ok: true, value: null };

/** Overwrites a few bytes in the middle of the journal line whose record is `kind` of `raceId` with bytes that are not UTF-8; its seq. */
function damageLine(file: string, kind: string, raceId: string): number {
  const bytes = readFileSync(file);
  const lines = bytes.toString('latin1').split('\n');
  let offset = 0;
  for (const text of lines) {
    const match = /^\{"seq":(\d+),/.exec(text);
    if (match !== null && text.includes(`"kind":"${kind}"`) && text.includes(`"raceId":"${raceId}"`)) {
      const middle = offset + Math.floor(text.length / 2);
      bytes.fill(0xff, middle, middle + 3);
      writeFileSync(file, bytes);
      return Number(match[1]);
    }
    offset += text.length + 1;
  }
  throw new Error(`no ${kind} of ${raceId} in the journal`);
}

// Issue 44: the floor's side of "a damaged line costs only its race". A race whose confirmation line
// was damaged at the station was never confirmed as the floor can read it: it is 'damaged', with the
// line's seq, on no sheet and in no total; the race after it is confirmed as usual.
describe.runIf(run)('a race whose confirmation was damaged at the station, on the floor (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-damaged-confirm-'));
  const cardDir = mkdtempSync(join(tmpdir(), 'floor-damaged-card-'));
  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(cardDir, { recursive: true, force: true });
  });

  /** Closes the evening's console, damages its journal's line (damageLine), restarts the station with the floor until the floor holds every line (the damaged one as evidence), and folds: the damaged line's seq. */
  async function damagedToFloor(evening: ConsoleService, dir: string, table: string, kind: string, raceId: string): Promise<number> {
    release(evening);
    await evening.close();
    const journal = join(dir, 'journal.jsonl');
    const damagedSeq = damageLine(journal, kind, raceId);
    const last = Math.max(...readFileSync(journal, 'latin1').split('\n').map((text) => Number(/^\{"seq":(\d+),/.exec(text)?.[1] ?? 0)));
    // Restarted with the floor: the outbox sends every line, the damaged one as evidence.
    const login = await createStationLogin(admin, table);
    const station = await serviceIn(dir, { floor: { url: server.urlFor(login.role, login.password), table } });
    await until('the floor holds every record of the station', async () => {
      const held = await admin.query<{ last: string | null }>('SELECT max(seq) AS last FROM station_records WHERE table_name = $1', [table]);
      return Number(held.rows[0]?.last ?? 0) >= last;
    }, 30_000);
    const damagedRows = await admin.query<{ seq: string }>('SELECT seq FROM station_records WHERE table_name = $1 AND damaged ORDER BY seq', [table]);
    expect(damagedRows.rows.map((row) => Number(row.seq))).toEqual([damagedSeq]);
    release(station);
    await station.close();
    await foldFloor(admin);
    return damagedSeq;
  }

  it("is damaged, not confirmed: not on the runner's sheet nor in the totals, its seq said on the table's page (en/fi/ru), in both exports and `floor status`; the next race confirmed as usual", async () => {
    const table = 'Damaged 5';
    // An evening without the floor: the colour-up after level 6, its two races dealt and confirmed.
    const first = await serviceIn(dataDir);
    expect(await first.saveSettings(tableSettings(table))).toEqual(OK);
    expect(await first.saveStructure(BREAK_STRUCTURE)).toEqual(OK);
    expect(await first.markBreak(6)).toEqual(OK);
    expect(await first.startColorUp(6, 500)).toEqual(OK);
    expect(await first.startRace(COUNTS)).toEqual(OK);
    await dealUntilComplete(first, 'race-1');
    expect(await first.confirmRace('race-1')).toEqual(OK);
    expect(await first.startColorUp(6, 100)).toEqual(OK);
    expect(await first.startRace(COUNTS)).toEqual(OK);
    await dealUntilComplete(first, 'race-2');
    expect(await first.confirmRace('race-2')).toEqual(OK);
    const damagedSeq = await damagedToFloor(first, dataDir, table, 'race-confirm', 'race-1');
    const races = await tableRaces(admin, table);
    expect(races.map((race) => [race.raceId, race.status, race.damaged])).toEqual([
      ['race-1', 'damaged', { seq: damagedSeq, confirmed: false }],
      ['race-2', 'confirmed', undefined],
    ]);
    const [damaged, confirmed] = races as [(typeof races)[number], (typeof races)[number]];
    expect(damaged).toMatchObject({ valueDelta: null, sheet: null, collect: 0, bring: 0 });
    expect(confirmed.sheet).not.toBeNull();
    expect(confirmed.valueDelta).not.toBeNull();

    // The status and the runner's sheet: the confirmed race's alone.
    const status = await readFloorStatus(admin);
    const shown = status.tables.find((entry) => entry.table === table);
    expect(shown).toMatchObject({ races: 1, valueDelta: confirmed.valueDelta, sheetAfterLevel: 6, bring: confirmed.sheet?.bring, collect: confirmed.sheet?.collect, damaged: [damagedSeq] });
    expect(shown?.damagedRaces).toEqual([{ raceId: 'race-1', seq: damagedSeq, confirmed: false }]);
    expect(status.totals).toMatchObject({ races: 1, valueDelta: confirmed.valueDelta, bring: confirmed.sheet?.bring, collect: confirmed.sheet?.collect });

    // The chip audit: one race confirmed, the damaged one a dispute.
    const summary = await tournamentSummary(admin);
    expect(summary.totals).toMatchObject({ races: 1, abandoned: 0, valueDelta: confirmed.valueDelta });
    expect(summary.disputes).toContainEqual(expect.objectContaining({ table, kind: 'damaged', race: 'race-1', seq: damagedSeq }));

    // The table's page and the overview, in each language.
    const now = Date.parse('2026-12-01T21:00:00Z');
    for (const [language, lost, word] of [
      ['en', `record ${damagedSeq} of it lost at the station`, 'damaged: not confirmed'],
      ['fi', `sen kirjaus ${damagedSeq} katosi asemalla`, 'vahingoittunut: ei vahvistettu'],
      ['ru', `его запись ${damagedSeq} потеряна на станции`, 'повреждён: не подтверждён'],
    ] as const) {
      const page = renderTable(shown as NonNullable<typeof shown>, races, language, now);
      const row = /<tr>\s*<th scope="row"><a [^>]*>race-1<\/a><\/th>\s*<td>(.*?)<\/td>/s.exec(page)?.[1] ?? '';
      expect(row).toContain('data-testid="race-damaged"');
      expect(row).toContain(word);
      expect(row).toContain(lost);
      const next = /<tr>\s*<th scope="row"><a [^>]*>race-2<\/a><\/th>\s*<td>(.*?)<\/td>/s.exec(page)?.[1] ?? '';
      expect(next).not.toContain('race-damaged');
      const overview = renderOverview(status, language, now);
      expect(overview).toContain(`race-1: ${word} (${lost}`);
    }

    // The exports: the race's status beside it, its value not counted.
    const csv = (await floorCsv(admin)).split('\r\n');
    expect(csv[0]).toMatch(/,floor decision,floor status$/);
    expect(csv.find((row) => row.startsWith(`${table},race-1,`))).toMatch(new RegExp(`,"?damaged: record ${damagedSeq} of it lost at the station; not confirmed"?$`));
    expect(csv.find((row) => row.startsWith(`${table},race-2,`))).toMatch(/,confirmed$/);
    const document = JSON.parse(await floorJson(admin)) as { tables: { table: string; valueDelta: number; races: { id: string; status: string; damaged?: unknown }[] }[]; totalValueDelta: number };
    const inJson = document.tables.find((entry) => entry.table === table);
    expect(inJson?.races.map((race) => [race.id, race.status, race.damaged])).toEqual([['race-1', 'damaged', { seq: damagedSeq, confirmed: false }], ['race-2', 'confirmed', undefined]]);
    expect(inJson?.valueDelta).toBe(confirmed.valueDelta);
    expect(document.totalValueDelta).toBe(confirmed.valueDelta);

    // `floor status`.
    let printed = '';
    expect(await floorCli(['status', '--database', server.url], {}, (text) => (printed += text), () => undefined)).toBe(0);
    const fromCli = (JSON.parse(printed) as { tables: { table: string; races: number; damagedRaces?: unknown[] }[] }).tables.find((entry) => entry.table === table);
    expect(fromCli).toMatchObject({ races: 1, damagedRaces: [{ raceId: 'race-1', seq: damagedSeq, confirmed: false, status: 'damaged', words: `damaged: record ${damagedSeq} of it lost at the station; not confirmed` }] });
  }, 120_000);

  it('a confirmed race with a card line damaged is confirmed and counted, marked with the line on the page (en/fi/ru), in both exports and `floor status`', async () => {
    const table = 'Damaged 6';
    const first = await serviceIn(cardDir);
    expect(await first.saveSettings(tableSettings(table))).toEqual(OK);
    expect(await first.startRace(COUNTS)).toEqual(OK);
    await dealUntilComplete(first, 'race-1');
    expect(await first.confirmRace('race-1')).toEqual(OK);
    const damagedSeq = await damagedToFloor(first, cardDir, table, 'race-event', 'race-1');
    const races = await tableRaces(admin, table);
    expect(races.map((race) => [race.raceId, race.status, race.damaged])).toEqual([['race-1', 'confirmed', { seq: damagedSeq, confirmed: true }]]);
    const status = await readFloorStatus(admin);
    const shown = status.tables.find((entry) => entry.table === table);
    expect(shown).toMatchObject({ races: 1, valueDelta: races[0]?.valueDelta ?? 0, damagedRaces: [{ raceId: 'race-1', seq: damagedSeq, confirmed: true }] });
    const now = Date.parse('2026-12-01T21:00:00Z');
    for (const [language, words] of [
      ['en', `confirmed; record ${damagedSeq} of it damaged at the station`],
      ['fi', `vahvistettu; sen kirjaus ${damagedSeq} vahingoittui asemalla`],
      ['ru', `подтверждён; его запись ${damagedSeq} повреждена на станции`],
    ] as const) {
      expect(renderTable(shown as NonNullable<typeof shown>, races, language, now)).toContain(words);
      expect(renderOverview(status, language, now)).toContain(`race-1: ${words}`);
    }
    const csv = (await floorCsv(admin)).split('\r\n');
    expect(csv.find((row) => row.startsWith(`${table},race-1,`))).toMatch(new RegExp(`,"?confirmed; record ${damagedSeq} of it damaged at the station"?$`));
    const document = JSON.parse(await floorJson(admin)) as { tables: { table: string; races: { id: string; status: string; damaged?: unknown }[] }[] };
    expect(document.tables.find((entry) => entry.table === table)?.races.map((race) => [race.id, race.status, race.damaged])).toEqual([['race-1', 'confirmed', { seq: damagedSeq, confirmed: true }]]);
    let printed = '';
    expect(await floorCli(['status', '--database', server.url], {}, (text) => (printed += text), () => undefined)).toBe(0);
    const fromCli = (JSON.parse(printed) as { tables: { table: string }[] }).tables.find((entry) => entry.table === table);
    expect(fromCli).toMatchObject({ races: 1, damagedRaces: [{ raceId: 'race-1', seq: damagedSeq, confirmed: true, status: 'confirmed', words: `confirmed; record ${damagedSeq} of it damaged at the station` }] });
  }, 120_000);
});
