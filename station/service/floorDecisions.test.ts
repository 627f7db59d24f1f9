// The station's dealings with the floor (issue 23): callFloor journals a `floor-called` record with
// its note (optional, trimmed) and the race open then; the floor's decisions the link reads are
// journaled once each by the floor's id (read again, or after a restart, nothing more), a row this
// console does not keep is passed by, and the state, the race's slip and the history export carry
// them, the same after a restart (from the journal or a checkpoint). A decision closing the open
// race (a table broken mid-colour-up) abandons it, the director's note its reason, once.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dispatch } from '../ipc/validate';
import type { FloorDecisionRow } from '../floorLink/link';
import { eventSeqs } from '../../protocol/races';
import { FloorDecisions } from '../../replay/floorDecisions';
import { FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE } from './testing/finnish';
import { exportText, recordsOfKind, serviceHarness } from './testing/services';

const { serviceIn, restart, release } = serviceHarness({ clock: () => new Date('2026-12-04T21:00:00Z') });
const ok = { ok: true, value: null };

const STANDS: FloorDecisionRow = { id: 7, at: '2026-12-04T21:04:00.000Z', by: 'Anna', decision: 'race-stands', note: 'the count was right', raceId: 'race-1' };

it('journals a call of the floor with its note and the open race, and each decision of the floor once', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-decisions-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  // Through the command table: the note is optional, text of at most 200 characters.
  expect(await dispatch(service, 'callFloor', [])).toEqual(ok);
  expect(await dispatch(service, 'callFloor', [{}])).toMatchObject({ ok: false, error: { field: 'note' } });
  expect(await dispatch(service, 'callFloor', ['x'.repeat(201)])).toMatchObject({ ok: false, error: { field: 'note' } });
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await dispatch(service, 'callFloor', ['  seat 3 disputes the count  '])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-called')).toEqual([{ kind: 'floor-called', note: '' }, { kind: 'floor-called', note: 'seat 3 disputes the count', raceId: 'race-1' }]);
  expect(service.getState().floorCalls).toEqual({ called: { at: '2026-12-04T21:00:00.000Z', note: 'seat 3 disputes the count', raceId: 'race-1' }, decisions: [] });

  for (const card of FINNISH_CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
  expect(await service.confirmRace('race-1')).toEqual(ok);
  // Read twice (two polls before the first was journaled), with a row of a shape this console does not keep.
  const odd = { ...STANDS, id: 8, decision: 'coin-toss' };
  expect(await service.takeFloorDecisions([STANDS, odd])).toEqual(ok);
  expect(await service.takeFloorDecisions([STANDS])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision')).toEqual([{ kind: 'floor-decision', id: 7, decision: 'race-stands', note: 'the count was right', by: 'Anna', at: '2026-12-04T21:04:00.000Z', raceId: 'race-1' }]);
  const decision = { id: 7, decision: 'race-stands', note: 'the count was right', by: 'Anna', at: '2026-12-04T21:04:00.000Z', raceId: 'race-1' };
  // The floor decided after the call: it is answered.
  expect(service.getState().floorCalls).toEqual({ called: null, decisions: [decision] });
  const slip = await service.raceRecord('race-1');
  expect(slip.ok && slip.value.floorDecisions).toEqual([decision]);
  // The export words the decision in the station's language (issue 43); the JSON keeps the key, its words beside it in each language.
  expect((await exportText(service, 'csv')).split('\r\n')[1]).toMatch(/,2026-12-04T21:04:00\.000Z Anna: race stands: the count was right$/);
  const decisionWords = { en: 'race stands', fi: 'arvonta pysyy', ru: 'чип-рейс в силе' };
  expect((JSON.parse(await exportText(service, 'json')) as { races: { floorDecisions?: unknown }[] }).races[0]?.floorDecisions).toEqual([{ ...decision, decisionWords }]);
  expect(await service.saveSettings({ ...FINNISH_TABLE, language: 'fi' })).toEqual(ok);
  expect((await exportText(service, 'csv')).split('\r\n')[1]).toMatch(/;2026-12-04T21:04:00\.000Z Anna: arvonta pysyy: the count was right$/);
  expect(await service.saveSettings({ ...FINNISH_TABLE, language: 'ru' })).toEqual(ok);
  expect((await exportText(service, 'csv')).split('\r\n')[1]).toMatch(/;2026-12-04T21:04:00\.000Z Anna: чип-рейс в силе: the count was right$/);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);

  // Restarted: the same, and the decision read again is not journaled again.
  const again = await restart(service, dataDir);
  expect(again.getState().floorCalls).toEqual({ called: null, decisions: [decision] });
  expect(await again.takeFloorDecisions([STANDS])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision')).toHaveLength(1);
  const later = { ...STANDS, id: 9, decision: 'chips-adjusted' as const, note: 'seat 2 given one 100', raceId: null };
  expect(await again.takeFloorDecisions([STANDS, later])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision').map((record) => (record as unknown as { id: number }).id)).toEqual([7, 9]);
  expect(again.getState().floorCalls.decisions.map((shown) => shown.id)).toEqual([7, 9]);
  // A decision on no race is on no race's slip.
  const slipAgain = await again.raceRecord('race-1');
  expect(slipAgain.ok && slipAgain.value.floorDecisions?.map((shown) => shown.id)).toEqual([7]);
});

const CLOSED: FloorDecisionRow = { id: 11, at: '2026-12-04T21:06:00.000Z', by: 'Anna', decision: 'race-closed', note: 'table broken, players moved to table 4', raceId: 'race-1' };
const abandons = (dataDir: string) => recordsOfKind(dataDir, 'race-abandon');

it('abandons the open race the director closed on the floor, with the note as its reason, once (read again, restarted)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-closed-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await service.dealCard('race-1', 'Ah')).toEqual(ok);
  expect(await service.takeFloorDecisions([CLOSED])).toEqual(ok);
  // The decision, then the abandon: as the dealer abandons a race, with the director's note.
  const kinds = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).map((line) => (JSON.parse(line) as { record: { kind: string } }).record.kind);
  expect(kinds.slice(-2)).toEqual(['floor-decision', 'race-abandon']);
  expect(abandons(dataDir)).toEqual([{ kind: 'race-abandon', raceId: 'race-1', reason: 'table broken, players moved to table 4' }]);
  const state = service.getState();
  expect(state.race).toBeNull();
  expect(state.floorCalls.decisions).toEqual([{ id: 11, decision: 'race-closed', note: 'table broken, players moved to table 4', by: 'Anna', at: '2026-12-04T21:06:00.000Z', raceId: 'race-1' }]);
  const slip = await service.raceRecord('race-1');
  expect(slip.ok && { status: slip.value.status, decisions: slip.value.floorDecisions?.map((decision) => decision.id) }).toEqual({ status: 'abandoned', decisions: [11] });
  // Read again: nothing more. The next race is race-2, and the decision on race-1 leaves it alone.
  expect(await service.takeFloorDecisions([CLOSED])).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await service.takeFloorDecisions([CLOSED])).toEqual(ok);
  expect(service.getState().race?.id).toBe('race-2');

  // Restarted: the same state, nothing journaled twice.
  const again = await restart(service, dataDir);
  expect(again.getState().race?.id).toBe('race-2');
  expect(again.getState().floorCalls.decisions.map((decision) => decision.id)).toEqual([11]);
  expect(recordsOfKind(dataDir, 'floor-decision')).toHaveLength(1);
  expect(abandons(dataDir)).toHaveLength(1);
});

it('keeps and shows a decision closing a race not open (another race, one confirmed, none open) and abandons nothing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-closed-other-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  expect(await service.takeFloorDecisions([{ ...CLOSED, id: 1 }])).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await service.takeFloorDecisions([{ ...CLOSED, id: 2, raceId: 'race-9' }])).toEqual(ok);
  expect(service.getState().race?.id).toBe('race-1');
  for (const card of FINNISH_CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
  expect(await service.confirmRace('race-1')).toEqual(ok);
  expect(await service.takeFloorDecisions([{ ...CLOSED, id: 3 }])).toEqual(ok);
  expect(abandons(dataDir)).toEqual([]);
  expect(service.getState().floorCalls.decisions.map((decision) => [decision.id, decision.raceId])).toEqual([[1, 'race-1'], [2, 'race-9'], [3, 'race-1']]);
  expect(service.history().map((race) => race.id)).toEqual(['race-1']);
});

it("cuts a long note to what a reason holds, and abandons on start-up a race whose closing decision was journaled when the station stopped", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-closed-stop-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  const note = `table broken ${'x'.repeat(480)}`;
  expect(await service.takeFloorDecisions([{ ...CLOSED, note }])).toEqual(ok);
  expect(abandons(dataDir)).toEqual([{ kind: 'race-abandon', raceId: 'race-1', reason: note.slice(0, 200) }]);
  expect(service.getState().floorCalls.decisions[0]?.note).toBe(note);
  release(service);
  await service.close();
  // The station stopped after the decision's record, before the abandon's: the journal without its last line.
  const path = join(dataDir, 'journal.jsonl');
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  expect(JSON.parse(lines.at(-1) ?? '').record.kind).toBe('race-abandon');
  writeFileSync(path, `${lines.slice(0, -1).join('\n')}\n`);
  const again = await serviceIn(dataDir);
  expect(again.getState().race).toBeNull();
  expect(abandons(dataDir)).toHaveLength(1);
});

it('closes a race by a decision journaled after its start only, the same from its checkpoint (one without the closings is refused)', () => {
  const at = '2026-12-04T21:06:00.000Z';
  const closed = (seq: number, id: number, note: string) => ({ seq, at, record: { kind: 'floor-decision', id, decision: 'race-closed', note, by: 'Anna', at, raceId: 'race-1' } });
  const kept = new FloorDecisions();
  kept.add(closed(3, 1, 'an older journal\'s race-1'));
  kept.add(closed(9, 2, 'table broken'));
  expect(kept.closing('race-1', 5)).toEqual({ raceId: 'race-1', note: 'table broken', seq: 9 });
  expect(kept.closing('race-1', 9)).toBeNull();
  expect(kept.closing('race-2', 0)).toBeNull();
  const resumed = new FloorDecisions();
  resumed.checkpoint.restore(JSON.parse(JSON.stringify(kept.checkpoint.snapshot())));
  expect(resumed.closing('race-1', 5)).toEqual(kept.closing('race-1', 5));
  expect(() => new FloorDecisions().checkpoint.restore({ decisions: [], called: null })).toThrow(/not a list of decisions/);
});

it("shows the floor's decisions of the break the station is on: they leave the screens with the break, and stay on the race's slip (issue 41)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-decisions-break-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  const structure = { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 30 }, { break: 15 }, { sb: 200, bb: 400, minutes: 30 }] };
  expect(await service.saveStructure(structure)).toEqual(ok);
  expect(await service.markBreak(2)).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await service.callFloor('seat 3 disputes the count')).toEqual(ok);
  for (const card of FINNISH_CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
  expect(await service.confirmRace('race-1')).toEqual(ok);
  expect(await service.takeFloorDecisions([STANDS])).toEqual(ok);
  expect(service.getState().floorCalls.decisions.map((decision) => decision.id)).toEqual([7]);

  // Play again (as the clock marks it at the break's end): the break's decision leaves the screens.
  expect(await service.markBreak(null)).toEqual(ok);
  expect(service.getState().floorCalls).toEqual({ called: null, decisions: [] });
  const slip = await service.raceRecord('race-1');
  expect(slip.ok && slip.value.floorDecisions?.map((decision) => decision.id)).toEqual([7]);
  // A call while playing, answered: shown until the next break is marked.
  expect(await service.callFloor('')).toEqual(ok);
  expect(service.getState().floorCalls.called).toMatchObject({ note: '' });
  const later = { ...STANDS, id: 9, decision: 'chips-adjusted' as const, note: 'seat 2 given one 100', raceId: null };
  expect(await service.takeFloorDecisions([later])).toEqual(ok);
  expect(service.getState().floorCalls).toMatchObject({ called: null, decisions: [{ id: 9 }] });
  const again = await restart(service, dataDir);
  expect(again.getState().floorCalls).toMatchObject({ called: null, decisions: [{ id: 9 }] });
  expect(await again.markBreak(3)).toEqual(ok);
  expect(again.getState().floorCalls.decisions).toEqual([]);
  // From a checkpoint: the same.
  const kept = new FloorDecisions();
  const line = (seq: number, record: unknown) => ({ seq, at: '2026-12-04T21:06:00.000Z', record });
  kept.add(line(1, { kind: 'floor-decision', ...STANDS }));
  kept.add(line(2, { kind: 'break-marked', afterLevel: null, by: 'clock' }));
  const resumed = new FloorDecisions();
  resumed.checkpoint.restore(JSON.parse(JSON.stringify(kept.checkpoint.snapshot())));
  expect(resumed.view).toEqual({ called: null, decisions: [] });
  expect(() => new FloorDecisions().checkpoint.restore({ decisions: [], called: null, closings: [] })).toThrow(/not a list of decisions/);
});

it("lists every record of the race on its slip, the call during it and the decision after it included, numbered without a gap, after a restart too (issue 43)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-slip-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await service.dealCard('race-1', FINNISH_CARDS[0] as string)).toEqual(ok);
  expect(await service.callFloor('seat 3 disputes the count')).toEqual(ok);
  for (const card of FINNISH_CARDS.slice(1)) expect(await service.dealCard('race-1', card)).toEqual(ok);
  expect(await service.confirmRace('race-1')).toEqual(ok);
  // The table's settings saved between the race and the director's decision: not the race's record.
  expect(await service.saveSettings({ ...FINNISH_TABLE, table: { ...FINNISH_TABLE.table, name: 'Pöytä 8' } })).toEqual(ok);
  expect(await service.takeFloorDecisions([STANDS])).toEqual(ok);
  const ofRace = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1)
    .map((line) => JSON.parse(line) as { seq: number; record: { raceId?: string } })
    .filter((line) => line.record.raceId === 'race-1')
    .map((line) => line.seq);
  for (const shown of [service, await restart(service, dataDir)]) {
    const slip = await shown.raceRecord('race-1');
    if (!slip.ok) throw new Error('no slip');
    expect(slip.value.events.flatMap(eventSeqs)).toEqual(ofRace);
    expect(slip.value.events.map((event) => event.type)).toEqual(['start', 'card', 'floor-called', ...FINNISH_CARDS.slice(1).map(() => 'card'), 'confirm', 'floor-decision']);
    expect(slip.value.seqs).toEqual({ first: ofRace[0], last: ofRace.at(-1) });
  }
});
