// Disputes settled on the record (issue 23), with a real PostgreSQL server and a real station: a
// race of the colour-up abandoned flags its table "disputed" on the floor, the dealer's call of the
// floor flags it "floor-called"; the director's decision (recordDecision, what the floor page's form
// posts to) clears it; the station reads the decision, journals it once (a restart reads it again
// and journals nothing), shows it, and its record slip and both exports carry it, as the floor's
// exports do. A station reads only its own table's decisions and writes none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeatCount } from '../protocol/contract';
import { journalPath } from '../journal/location';
import type { ConsoleService } from '../station/service/service';
import { exportText, serviceHarness } from '../station/service/testing/services';
import { migrate } from '../floor/db/migrate';
import { createStationLogin } from '../floor/db/stations';
import { tableCalls } from '../floor/calls';
import { summaryCsv, summaryJson, tournamentSummary } from '../floor/summary';
import { decisionWordIn } from '../replay/csv';
import { recordDecision, tableDecisions } from '../floor/decisions';
import { floorCsv, floorJson } from '../floor/export';
import { floorRaceRecord, foldFloor, readFloorStatus, tableRaces } from '../floor/fold';
import { renderOverview, renderTable } from '../floor/page/render';
import { ensureTable } from '../floor/db/stations';
import { syncStation } from '../replication/sync';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { ask, until } from '../floor/testing/requests';
import { startFloorServer } from '../floor/server';
import { STRUCTURE, tableSettings } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000 };
const { serviceIn, restart } = serviceHarness({ clock: () => new Date('2026-12-04T21:00:00Z'), station: 'table-pc', floorTiming: FLOOR_TIMING });

/** Seat 1 holds exactly one next chip's worth: nothing to race, the race complete at once. */
const EVEN: readonly SeatCount[] = [{ seat: 1, chips: 2, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }];

async function ok(result: Promise<{ ok: boolean; error?: unknown }>): Promise<void> {
  const outcome = await result;
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
}

/** The station's journal's records of a kind. */
const journaled = (dataDir: string, kind: string): Record<string, unknown>[] =>
  readFileSync(journalPath(dataDir), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { record: Record<string, unknown> }).record)
    .filter((record) => record.kind === kind);

describe.runIf(run)('disputes settled on the record (a real PostgreSQL server, a real station)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const statusOf = async (table: string) => {
    await foldFloor(admin);
    return (await readFloorStatus(admin)).tables.find((entry) => entry.table === table)?.colourUp;
  };
  const floorHas = (table: string, kind: string) => async () => ((await admin.query('SELECT 1 FROM station_records WHERE table_name = $1 AND kind = $2', [table, kind])).rowCount ?? 0) > 0;
  const decisionsShown = (service: ConsoleService, n: number) => async () => service.getState().floorCalls.decisions.length === n;
  /** A station of its own (not linked), its table set up, the structure loaded and the break after level 6 marked. */
  const stationAtBreak = async (table: string, folder: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), folder));
    folders.push(dataDir);
    const service = await serviceIn(dataDir);
    await ok(service.saveSettings(tableSettings(table)));
    await ok(service.saveStructure(STRUCTURE));
    await ok(service.markBreak(6));
    return { dataDir, service };
  };
  /** A table's page as the floor's server renders it (its status folded first). */
  const tablePage = async (language: 'en' | 'fi' | 'ru', table = '12') => {
    await foldFloor(admin);
    const row = (await readFloorStatus(admin)).tables.find((entry) => entry.table === table);
    return renderTable(row as NonNullable<typeof row>, await tableRaces(admin, table), language, Date.now(), '', await tableDecisions(admin, table), null, await tableCalls(admin, table));
  };

  it('flags the table for an abandoned race and for a call, clears it with a decision after it; the station keeps each decision once and carries it on its slip and exports', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-dispute-'));
    folders.push(dataDir);
    const login = await createStationLogin(admin, '12');
    const url = server.urlFor(login.role, login.password);
    let service = await serviceIn(dataDir, { floor: { url, table: '12' } });
    await ok(service.saveSettings(tableSettings('12')));
    await ok(service.saveStructure(STRUCTURE));
    await ok(service.markBreak(6));

    // A race of the colour-up abandoned: disputed.
    await ok(service.startColorUp(6, 500));
    await ok(service.startRace(EVEN));
    await ok(service.abandonRace('race-1', 'misdeal'));
    await until('the abandon on the floor', floorHas('12', 'race-abandon'));
    expect(await statusOf('12')).toBe('disputed');
    // The decision form names each race with its status and has the abandoned one chosen (issue 43).
    expect(await tablePage('en')).toContain('<option value="race-1" selected>race-1 (abandoned)</option>');

    // The director decides: the table clears (the colour-up not started: no race of it confirmed).
    const first = await recordDecision(admin, { table: '12', decision: 're-race', note: 'deal it again', by: 'Anna', raceId: 'race-1' });
    expect(first).toMatchObject({ table: '12', decision: 're-race', note: 'deal it again', by: 'Anna', raceId: 'race-1' });
    expect(await statusOf('12')).toBe('not-started');
    await until('the station has the decision', decisionsShown(service, 1));
    expect(service.getState().floorCalls.decisions[0]).toEqual({ id: first.id, decision: 're-race', note: 'deal it again', by: 'Anna', at: first.at, raceId: 'race-1' });

    // The dealer calls the floor: floor-called, shown at the station until the floor decides.
    await ok(service.callFloor('  seat 3 says the count was wrong '));
    expect(service.getState().floorCalls.called).toMatchObject({ note: 'seat 3 says the count was wrong', raceId: null });
    await until('the call on the floor', floorHas('12', 'floor-called'));
    expect(await statusOf('12')).toBe('floor-called');
    expect(journaled(dataDir, 'floor-called')).toEqual([{ kind: 'floor-called', note: 'seat 3 says the count was wrong' }]);
    // The table page says when the dealer called and what the note said, waiting for a decision (issue 43).
    const calls = await tableCalls(admin, '12');
    expect(calls).toEqual([{ seq: expect.any(Number), at: expect.stringMatching(/^2026-/), note: 'seat 3 says the count was wrong', raceId: null }]);
    for (const [language, waiting] of [['en', 'waiting for a decision'], ['fi', 'odottaa päätöstä'], ['ru', 'ждёт решения']] as const) {
      const page = await tablePage(language);
      expect(page).toContain('data-answered="false"');
      expect(page).toContain('“seat 3 says the count was wrong”');
      expect(page).toContain(`data-testid="floor-call-waiting">${waiting}<`);
    }

    // The race re-run and confirmed; the director's decision on it settles the call.
    await ok(service.startColorUp(6, 500));
    await ok(service.startRace(EVEN));
    await ok(service.confirmRace('race-2'));
    await until('the confirmation on the floor', floorHas('12', 'race-confirm'));
    const second = await recordDecision(admin, { table: '12', decision: 'chips-adjusted', note: 'seat 3 given one 1000 back', by: 'Anna', raceId: 'race-2' });
    expect(await statusOf('12')).toBe('done');
    await until('the station has the second decision', decisionsShown(service, 2));
    expect(service.getState().floorCalls.called).toBeNull();
    // The call answered on the table page: by whom, what (the decision before it answered nothing of it).
    const answered = await tablePage('en');
    expect(answered).toContain('data-answered="true"');
    expect(answered).toMatch(/data-testid="floor-call-answer">answered [^<]+ by Anna: chips adjusted</);

    // Each journaled once, as the floor holds it.
    expect(journaled(dataDir, 'floor-decision')).toEqual([
      { kind: 'floor-decision', id: first.id, decision: 're-race', note: 'deal it again', by: 'Anna', at: first.at, raceId: 'race-1' },
      { kind: 'floor-decision', id: second.id, decision: 'chips-adjusted', note: 'seat 3 given one 1000 back', by: 'Anna', at: second.at, raceId: 'race-2' },
    ]);
    // The slip of each race carries its decision; the history exports the confirmed race's.
    const slip = await service.raceRecord('race-2');
    expect(slip.ok && slip.value.floorDecisions).toEqual([{ id: second.id, decision: 'chips-adjusted', note: 'seat 3 given one 1000 back', by: 'Anna', at: second.at, raceId: 'race-2' }]);
    const abandoned = await service.raceRecord('race-1');
    expect(abandoned.ok && abandoned.value.floorDecisions?.map((decision) => decision.decision)).toEqual(['re-race']);
    // Its record lists the decision, which came after its confirmation, among everything that
    // happened, numbered with no gap; the floor's race page reads the same from the station's copy (issue 43).
    if (!slip.ok) throw new Error('no slip');
    expect(slip.value.events.at(-1)).toMatchObject({ type: 'floor-decision', decision: 'chips-adjusted', by: 'Anna', note: 'seat 3 given one 1000 back', decidedAt: second.at });
    await until('both decisions on the floor', async () => (await admin.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = '12' AND kind = 'floor-decision'")).rows[0].n === 2);
    await foldFloor(admin);
    const onFloor = await floorRaceRecord(admin, '12', 'race-2');
    expect(onFloor?.events).toEqual(slip.value.events);
    expect(onFloor?.seqs).toEqual(slip.value.seqs);
    const csv = (await exportText(service, 'csv')).split('\r\n');
    expect(csv[0]).toMatch(/,chain,floor decision$/);
    expect(csv[1]).toMatch(new RegExp(`^race-2,.*,${second.at} Anna: chips adjusted: seat 3 given one 1000 back$`));
    const json = JSON.parse(await exportText(service, 'json')) as { races: { id: string; floorDecisions?: unknown[] }[] };
    expect(json.races.find((race) => race.id === 'race-2')?.floorDecisions).toHaveLength(1);

    // Restarted, the station reads the floor's decisions again and journals none twice.
    service = await restart(service, dataDir, { floor: { url, table: '12' } });
    await until('connected again', async () => service.getState().floorLink.state === 'connected');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(journaled(dataDir, 'floor-decision')).toHaveLength(2);
    expect(service.getState().floorCalls.decisions.map((decision) => decision.id)).toEqual([first.id, second.id]);

    // The floor's exports: the confirmed race's row carries its decision, the abandoned race's has a row of its own; the JSON lists both.
    const floorRows = (await floorCsv(admin)).split('\r\n');
    expect(floorRows[0]).toMatch(/^\uFEFFfloor table,race,.*,floor decision,floor status$/);
    expect(floorRows.find((row) => row.startsWith('12,race-2,'))).toMatch(/Anna: chips-adjusted: seat 3 given one 1000 back,confirmed$/);
    expect(floorRows.find((row) => row.startsWith('12,race-1,'))).toMatch(/^12,race-1,(,)+.*Anna: re-race: deal it again,$/);
    const document = JSON.parse(await floorJson(admin)) as { tables: { table: string; decisions: { id: number; decision: string }[]; calls: unknown[] }[] };
    expect(document.tables.find((table) => table.table === '12')?.decisions.map((decision) => decision.decision)).toEqual(['re-race', 'chips-adjusted']);
    // Keys for programs, words for people (issue 43): each decision's words in the three languages beside its key, in the races, the list and the audit's JSON.
    const chipsAdjusted = { en: 'chips adjusted', fi: 'pelimerkkejä korjattu', ru: 'фишки исправлены' };
    const table12 = (JSON.parse(await floorJson(admin)) as { tables: { table: string; decisions: { id: number }[]; races: { id: string; floorDecisions?: unknown[] }[] }[] }).tables.find((table) => table.table === '12');
    expect(table12?.decisions.find((decision) => decision.id === second.id)).toMatchObject({ decision: 'chips-adjusted', note: 'seat 3 given one 1000 back', decisionWords: chipsAdjusted });
    expect(table12?.races.find((race) => race.id === 'race-2')?.floorDecisions).toEqual([expect.objectContaining({ id: second.id, decision: 'chips-adjusted', decisionWords: chipsAdjusted })]);
    // The chip audit's summary: the abandoned race and the call among the disputes, each with the decision that settled it (issue 43).
    const audit = await tournamentSummary(admin);
    expect(audit.disputes.filter((dispute) => dispute.table === '12').map((dispute) => [dispute.kind, dispute.race, dispute.reason, dispute.decision?.id])).toEqual([
      ['abandoned', 'race-1', 'misdeal', first.id],
      ['floor-called', null, 'seat 3 says the count was wrong', second.id],
    ]);
    expect(audit.tables.find((table) => table.table === '12')?.disputes).toBe(2);
    // In the CSV, the decision in the reader's words (the page's language; keys when none is given).
    expect(summaryCsv(audit)).toContain(`12,floor-called,,${calls[0]?.seq},`);
    const auditJson = JSON.parse(summaryJson(audit)) as { disputes: { table: string; kind: string; decision: { decision: string; decisionWords: unknown } | null }[] };
    expect(auditJson.disputes.find((dispute) => dispute.table === '12' && dispute.kind === 'floor-called')?.decision).toMatchObject({ decision: 'chips-adjusted', decisionWords: chipsAdjusted });
    expect(summaryCsv(audit)).toContain(`${second.at} Anna: chips-adjusted: seat 3 given one 1000 back`);
    expect(summaryCsv(audit, { decisionWord: decisionWordIn('fi') })).toContain(`${first.at} Anna: uusi arvonta: deal it again`);
    expect(await floorCsv(admin, { decisionWord: decisionWordIn('ru') })).toContain(`${second.at} Anna: фишки исправлены: seat 3 given one 1000 back`);
    // The dealer's call in it too, answered by the second decision (issue 43).
    expect(document.tables.find((table) => table.table === '12')?.calls).toEqual([{ seq: calls[0]?.seq, at: calls[0]?.at, note: 'seat 3 says the count was wrong', raceId: null, answeredBy: second.id }]);
    await service.close();
  }, 90_000);

  it('keeps a decision after the last flag only: a call after a decision flags the table again, and a chain failure stays disputed whatever is decided', async () => {
    await createStationLogin(admin, '14');
    // A chain failure as the arrival trigger records one.
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('14', 1, 'bad-seal', 'x')");
    expect(await statusOf('14')).toBe('disputed');
    await recordDecision(admin, { table: '14', decision: 'race-stands', note: 'looked at it', by: 'Anna' });
    expect(await statusOf('14')).toBe('disputed');
    // A second decision on one race revises the first: both kept, the later saying so (issue 43).
    await recordDecision(admin, { table: '14', decision: 'race-stands', note: 'first look', by: 'Anna', raceId: 'race-1' });
    await recordDecision(admin, { table: '14', decision: 're-race', note: 'second look', by: 'Ville', raceId: 'race-1' });
    const revised = await tablePage('fi', '14');
    expect(revised.match(/data-testid="decision-revises"/g)).toHaveLength(1);
    expect(revised).toMatch(/second look <small data-testid="decision-revises">korvaa päätöksen ajalta [^<]+<\/small>/);
    expect(revised).toContain('first look</li>');
    // A decision with no note, or nobody named, is refused: nothing recorded.
    await expect(recordDecision(admin, { table: '14', decision: 'race-stands', note: ' ', by: 'Anna' })).rejects.toMatchObject({ field: 'note' });
    await expect(recordDecision(admin, { table: '14', decision: 'race-stands', note: 'x', by: '' })).rejects.toMatchObject({ field: 'by' });
    await expect(recordDecision(admin, { table: 'no-such-table', decision: 'race-stands', note: 'x', by: 'Anna' })).rejects.toMatchObject({ field: 'table' });
    expect((await admin.query("SELECT count(*)::int AS n FROM floor_decisions WHERE table_name = '14'")).rows[0].n).toBe(3);
  });

  it('settles a flag only by a decision about its race (or none): a decision about the race before leaves the abandoned one disputed (issue 43)', async () => {
    const { dataDir, service } = await stationAtBreak('19', 'floor-which-race-');
    // race-1 confirmed, race-2 of the same break (the 100s) abandoned: disputed over race-2.
    await ok(service.startColorUp(6, 500));
    await ok(service.startRace(EVEN));
    await ok(service.confirmRace('race-1'));
    await ok(service.startColorUp(6, 100));
    await ok(service.startRace(EVEN));
    await ok(service.abandonRace('race-2', 'misdeal'));
    await ensureTable(admin, '19');
    await syncStation(admin, '19', dataDir);
    expect(await statusOf('19')).toBe('disputed');
    // The form has race-2 chosen, each race named with its status.
    const page = await tablePage('en', '19');
    expect(page).toContain('<option value="race-2" selected>race-2 (abandoned)</option>');
    expect(page).toContain('<option value="race-1">race-1 (confirmed)</option>');
    await recordDecision(admin, { table: '19', decision: 'race-stands', note: 'about the race before', by: 'Anna', raceId: 'race-1' });
    expect(await statusOf('19')).toBe('disputed');
    await recordDecision(admin, { table: '19', decision: 're-race', note: 'deal race 2 again', by: 'Anna', raceId: 'race-2' });
    expect(await statusOf('19')).not.toBe('disputed');
    await service.close();
  });

  it('shows a table broken mid-colour-up: its open race on the floor, closed there by the director with a reason', async () => {
    const { dataDir, service } = await stationAtBreak('17', 'floor-closed-');
    await ok(service.startColorUp(6, 100));
    await ok(service.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }]));
    await ensureTable(admin, '17');
    await syncStation(admin, '17', dataDir);
    await foldFloor(admin);
    const open = (await readFloorStatus(admin)).tables.find((table) => table.table === '17');
    expect(open?.openRace).toEqual({ raceId: 'race-1', status: 'racing' });
    expect(open?.openRaceClosed).toBeNull();
    await recordDecision(admin, { table: '17', decision: 'race-closed', note: 'table broken, players moved to table 4', by: 'Anna', raceId: 'race-1' });
    const status = await readFloorStatus(admin);
    const closed = status.tables.find((table) => table.table === '17');
    expect(closed?.openRaceClosed).toEqual({ by: 'Anna', note: 'table broken, players moved to table 4' });
    const overview = renderOverview(status, 'en', Date.now());
    expect(overview).toContain('data-testid="open-race-closed">closed on the floor');
    const page = renderTable(closed as NonNullable<typeof closed>, await tableRaces(admin, '17'), 'fi', Date.now(), '', await tableDecisions(admin, '17'));
    expect(page).toContain('data-testid="race-closed-on-floor">suljettu salissa');
    expect(page).toContain('table broken, players moved to table 4');
    await service.close();
  });

  it("takes the director's decision from the table page's form only: its own page's origin, the floor's password, a note and a name", async () => {
    await createStationLogin(admin, '18');
    const token = 'dispute-floor-password';
    const floor = await startFloorServer({ databaseUrl: server.url, token, log: () => undefined });
    const origin = new URL(floor.url).origin;
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const post = (body: string, headers: Record<string, string> = {}) =>
      ask(floor.port, '/decision', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', origin, authorization: `Bearer ${token}`, ...headers } });
    const recorded = async () => (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM floor_decisions WHERE table_name = '18'")).rows[0]?.n;
    try {
      const decision = { table: '18', lang: 'en', decision: 'race-stands', race: '', note: 'count checked', by: 'Anna' };
      // Not from the floor's own page, or without its password: nothing recorded.
      expect((await ask(floor.port, '/decision', { method: 'POST', body: form(decision), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` } })).status).toBe(403);
      expect((await post(form(decision), { authorization: 'Bearer wrong-password-here' })).status).toBe(401);
      // No note, nobody named, an unknown decision: the table's page again, saying why, in its language.
      const noNote = await post(form({ ...decision, note: '  ', lang: 'fi' }));
      expect(noNote.status).toBe(400);
      expect(noNote.body).toContain('data-testid="decision-problem">huomautus on pakollinen');
      expect((await post(form({ ...decision, by: '' }))).body).toContain('say who decided');
      expect((await post(form({ ...decision, decision: 'coin-toss' }))).status).toBe(400);
      expect(await recorded()).toBe(0);
      // Recorded: back to the table's page, which lists it.
      const done = await post(form(decision));
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('/table?table=18&lang=en');
      expect(await recorded()).toBe(1);
      const page = await ask(floor.port, '/table?table=18&lang=en', { headers: { authorization: `Bearer ${token}` } });
      expect(page.body).toContain('Anna · race stands: count checked');
      // Only posted: a GET says so.
      expect((await ask(floor.port, '/decision', { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    } finally {
      await floor.close();
    }
  });

  it("lets a station read its own table's decisions only, and write none (a hostile station's login)", async () => {
    const own = await createStationLogin(admin, '15');
    await createStationLogin(admin, '16');
    await recordDecision(admin, { table: '15', decision: 'race-stands', note: 'fine', by: 'Anna' });
    await recordDecision(admin, { table: '16', decision: 're-race', note: 'secret of table 16', by: 'Anna' });
    const hostile = new pg.Client({ connectionString: server.urlFor(own.role, own.password) });
    hostile.on('error', () => undefined);
    await hostile.connect();
    try {
      const seen = await hostile.query<{ table_name: string }>('SELECT table_name, note FROM floor_decisions');
      expect(seen.rows.map((row) => row.table_name)).toEqual(['15']);
      expect((await hostile.query("SELECT count(*)::int AS n FROM floor_decisions WHERE table_name = '16'")).rows[0].n).toBe(0);
      // No decision made, changed or taken back by a station, for its table or another's.
      for (const statement of [
        "INSERT INTO floor_decisions (table_name, decided_by, decision, note) VALUES ('15', 'me', 'race-stands', 'self-settled')",
        "INSERT INTO floor_decisions (table_name, decided_by, decision, note) VALUES ('16', 'me', 'race-stands', 'settled for you')",
        "UPDATE floor_decisions SET note = 'changed'",
        'DELETE FROM floor_decisions',
        'TRUNCATE floor_decisions',
      ]) {
        await expect(hostile.query(statement), statement).rejects.toMatchObject({ code: '42501' });
      }
    } finally {
      await hostile.end();
    }
    expect((await admin.query("SELECT note FROM floor_decisions WHERE table_name = '16'")).rows).toEqual([{ note: 'secret of table 16' }]);
  });
});
