import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShoeEvent } from '../../hardware/events';
import type { ConsoleSettings, ConsoleState, SeatCountDraft } from '../../protocol/contract';
import { COMMANDS } from '../../protocol/commands';
import { checkCall } from '../ipc/validate';
import { exportText, serviceHarness } from './testing/services';
import { COUNT_DRAFTS_FILE } from './countDrafts';
import { DEFAULT_SETTINGS, readSettings } from './settings';

const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn, release } = serviceHarness({ clock, station: 'table-pc-1' });

const folder = () => mkdtempSync(join(tmpdir(), 'station-'));

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3, name: 'Table 7' },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const DRAFTS: SeatCountDraft[] = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: null, hasOther: false }];

async function expectOk(result: Promise<{ ok: boolean }>): Promise<void> {
  expect(await result).toEqual({ ok: true, value: null });
}

describe('the counts being typed, kept by the service', () => {
  it('keeps incomplete counts for every window and a restart; the race starting clears them', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(TABLE));
    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    await expectOk(service.saveCountDrafts(DRAFTS));
    // Every window gets them with the state (an empty field is null: not entered yet).
    expect(states.at(-1)?.countDrafts).toEqual(DRAFTS);
    // The same counts again change nothing: no state is pushed.
    const pushed = states.length;
    await expectOk(service.saveCountDrafts(DRAFTS));
    expect(states).toHaveLength(pushed);
    // A restart (a crash, the power cut) gets them back from the data folder.
    await service.close();
    release(service);
    const again = await serviceIn(dataDir);
    expect(again.getState().countDrafts).toEqual(DRAFTS);
    // The race starts: they are its counts now, and no longer kept.
    await expectOk(again.startRace(COUNTS));
    expect(again.getState().countDrafts).toEqual([]);
    expect(existsSync(join(dataDir, COUNT_DRAFTS_FILE))).toBe(false);
    expect(await again.saveCountDrafts(DRAFTS)).toMatchObject({ ok: false, error: { field: 'race', said: { key: 'service.draftsRaceOpen', params: { race: 'race-1' } } } });
  });

  it('clears them when the table changes (seats, or the chips raced), not when only the dealer or the source does', async () => {
    const service = await serviceIn(folder());
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.saveCountDrafts(DRAFTS));
    await expectOk(service.saveSettings({ ...TABLE, table: { ...TABLE.table, dealer: 'Liisa' } }));
    expect(service.getState().countDrafts).toEqual(DRAFTS);
    await expectOk(service.saveSettings({ ...TABLE, table: { ...TABLE.table, seats: TABLE.table.seats.slice(0, 2) } }));
    expect(service.getState().countDrafts).toEqual([]);
    await expectOk(service.saveCountDrafts(DRAFTS));
    await expectOk(service.saveSettings({ ...TABLE, table: { ...TABLE.table, seats: TABLE.table.seats.slice(0, 2), removed: 100, next: 500 } }));
    expect(service.getState().countDrafts).toEqual([]);
  });

  it('drops a file left from before a race started or for another table', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.saveCountDrafts(DRAFTS));
    const kept = readFileSync(join(dataDir, COUNT_DRAFTS_FILE), 'utf8');
    await expectOk(service.startRace(COUNTS));
    for (const card of CARDS) await expectOk(service.dealCard('race-1', card));
    await expectOk(service.confirmRace('race-1'));
    await service.close();
    release(service);
    // As if the file had outlived the race it was typed for (written for race-1; race-2 is next).
    writeFileSync(join(dataDir, COUNT_DRAFTS_FILE), kept);
    const second = await serviceIn(dataDir);
    expect(second.getState().countDrafts).toEqual([]);
    await second.close();
    release(second);
    // A file for the next race whose counts are hostile (a negative) is not taken either.
    writeFileSync(join(dataDir, COUNT_DRAFTS_FILE), JSON.stringify({ ...JSON.parse(kept), race: 'race-2', counts: [{ seat: 1, chips: -5, hasOther: true }] }));
    expect((await serviceIn(dataDir)).getState().countDrafts).toEqual([]);
  });

  it('refuses hostile counts with keyed messages, and seats not at the table', async () => {
    const service = await serviceIn(folder());
    await expectOk(service.saveSettings(TABLE));
    const check = (value: unknown) => COMMANDS.saveCountDrafts.check([value]);
    expect(check('7')).toMatchObject({ ok: false, error: { said: { key: 'command.draftSeats' } } });
    expect(check(Array.from({ length: 11 }, (_, index) => ({ seat: index + 1, chips: 1, hasOther: true })))).toMatchObject({ ok: false, error: { said: { key: 'command.draftSeats' } } });
    expect(check([{ seat: 1, chips: -1, hasOther: true }])).toMatchObject({ ok: false, error: { field: 'counts[0].chips', said: { key: 'command.chipCount' } } });
    expect(check([{ seat: 1, chips: 2.5, hasOther: true }])).toMatchObject({ ok: false, error: { said: { key: 'command.chipCount' } } });
    expect(check([{ seat: 1, chips: '7', hasOther: true }])).toMatchObject({ ok: false, error: { said: { key: 'command.chipCount' } } });
    expect(check([{ seat: 1, chips: 1e9, hasOther: true }])).toMatchObject({ ok: false, error: { said: { key: 'command.chipCount' } } });
    expect(check([{ seat: 0, chips: 1, hasOther: true }])).toMatchObject({ ok: false, error: { said: { key: 'command.seatRange' } } });
    expect(check([{ seat: 1, chips: 1, hasOther: 'yes' }])).toMatchObject({ ok: false, error: { said: { key: 'command.notBoolean' } } });
    expect(check([{ seat: 1, chips: 1, hasOther: true }, { seat: 1, chips: null, hasOther: true }])).toMatchObject({ ok: false, error: { said: { key: 'command.seatTwice' } } });
    // Unknown fields are dropped before the service sees them.
    expect(check([{ seat: 1, chips: null, hasOther: true, extra: 'x'.repeat(10_000) }])).toEqual({ ok: true, args: [[{ seat: 1, chips: null, hasOther: true }]] });
    expect(checkCall('saveCountDrafts', [[{ seat: 1, chips: null, hasOther: true }]])).toMatchObject({ ok: true });
    expect(checkCall('saveCountDrafts', [[], 'more'])).toMatchObject({ ok: false, error: { said: { key: 'command.arity' } } });
    expect(await service.saveCountDrafts([{ seat: 9, chips: 1, hasOther: true }])).toMatchObject({ ok: false, error: { field: 'counts[0].seat', said: { key: 'service.seatNotAtTable' } } });
    expect(service.getState().countDrafts).toEqual([]);
  });
});

describe('the status the screens show', () => {
  it('publishes a refused card: the journal’s record count is live', async () => {
    const service = await serviceIn(folder());
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.startRace(COUNTS));
    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    const before = service.getState().journal.records;
    expect((await service.dealCard('race-1', 'Xx')).ok).toBe(false);
    expect(states.at(-1)?.journal.records).toBe(before + 1);
  });

  it('clears the last input when a new race starts', async () => {
    let sink: (event: ShoeEvent) => void = () => undefined;
    const service = await serviceIn(folder(), {
      cardSources: (_settings, emit) => {
        sink = emit;
        return { stop: async () => undefined };
      },
    });
    await expectOk(service.saveSettings({ ...TABLE, source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text' } }));
    sink({ type: 'card', card: 'Ah', raw: 'AH' });
    expect(service.getState().lastInput).toMatchObject({ card: 'Ah' });
    expect(service.getState().inputs.at(-1)?.at).toBe('2026-11-29T12:00:00.000Z');
    await expectOk(service.startRace(COUNTS));
    expect(service.getState().lastInput).toBeNull();
  });
});

describe('a new table', () => {
  it('starts with no seat in play, until the dealer ticks them; the language and the structure can be set before', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    expect(service.getState().settings.table.seats).toEqual([]);
    await expectOk(service.setLanguage('fi'));
    // Its source may be saved before any seat is chosen.
    await expectOk(service.saveSettings({ ...service.getState().settings, source: { kind: 'simulator', path: '', baud: 9600, decoder: 'text' } }));
    await expectOk(service.saveSettings({ ...TABLE, language: 'fi' }));
    // Once set up, a table keeps a seat in play.
    expect(await service.saveSettings({ ...TABLE, table: { ...TABLE.table, seats: [] } })).toMatchObject({ ok: false, error: { field: 'table.seats', said: { key: 'command.seatCount' } } });
    await service.close();
    release(service);
    // The last table is remembered.
    expect((await serviceIn(dataDir)).getState().settings.table.seats.map((seat) => seat.seat)).toEqual([1, 2, 3]);
  });
});

describe('the table’s name and the station, kept with each race', () => {
  it('reads a table name: trimmed, at most 32 characters, empty for none; refuses anything else with settings.tableName', () => {
    expect(readSettings({ ...TABLE, table: { ...TABLE.table, name: '  Table 7 ' } }).table.name).toBe('Table 7');
    expect('name' in readSettings({ ...TABLE, table: { ...TABLE.table, name: '   ' } }).table).toBe(false);
    expect('name' in readSettings({ ...TABLE, table: { ...TABLE.table, name: undefined } }).table).toBe(false);
    for (const name of ['x'.repeat(33), 7, { toString: 'x' }, ['T'], 'Table\n7', 'T\u0000']) {
      expect(() => readSettings({ ...TABLE, table: { ...TABLE.table, name } })).toThrow(expect.objectContaining({ field: 'table.name', said: { key: 'settings.tableName', params: { n: 32 } } }));
    }
  });

  it('keeps the table, the station and the colour-up level with the race: in the history, the record and the CSV', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.startRace(COUNTS));
    for (const card of CARDS) await expectOk(service.dealCard('race-1', card));
    await expectOk(service.confirmRace('race-1'));
    expect(service.getState().history.latest).toMatchObject({ table: 'Table 7', station: 'table-pc-1' });
    expect('level' in (service.getState().history.latest ?? {})).toBe(false);
    const record = await service.raceRecord('race-1');
    expect(record.ok && record.value).toMatchObject({ table: 'Table 7', station: 'table-pc-1' });
    const csv = await exportText(service, 'csv');
    expect(csv.split('\r\n')[1]).toMatch(/^race-1,Table 7,,table-pc-1,/);
    // Replayed from the journal on a restart, the same.
    await service.close();
    release(service);
    const again = await serviceIn(dataDir, { station: 'another' });
    expect(again.getState().history.latest).toMatchObject({ table: 'Table 7', station: 'table-pc-1' });
  });

  it('keeps the level of the colour-up a race belongs to', async () => {
    const service = await serviceIn(folder());
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.saveStructure({ chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 300, bb: 600, ante: 100 }, { sb: 500, bb: 1000 }, { break: 15 }, { sb: 1000, bb: 2000 }, { sb: 2000, bb: 4000 }] }));
    const moments = service.getState().plan?.moments ?? [];
    if (moments.length === 0) return expect.fail('the structure has no colour-up moment');
    const level = moments[0] as number;
    await expectOk(service.markBreak(level));
    const race = service.getState().plan?.proposal?.races[0];
    if (race === undefined) return expect.fail('no race proposed');
    await expectOk(service.startColorUp(level, race.removed));
    await expectOk(service.startRace(COUNTS));
    for (const card of CARDS) await service.dealCard('race-1', card);
    if (service.getState().race?.summary.status === 'complete') {
      await expectOk(service.confirmRace('race-1'));
      expect(service.getState().history.latest?.level).toBe(level);
    } else {
      const record = await service.raceRecord('race-1');
      expect(record.ok && record.value.level).toBe(level);
    }
  });
});
