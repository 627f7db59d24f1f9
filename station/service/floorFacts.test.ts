// Issue 43, point 5: the floor's facts enter the station's record. The tournament and the seating
// a linked station takes are journaled (`floor-tournament`, `floor-seating`) and followed; the
// settings file holds the station's own only; a restart knows the floor's facts from the journal
// (the floor out of reach, the file gone); a race's record says which it ran under; a settings file
// of the version before, holding the floor's copies, is read once and migrated.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StructureInput } from '../../engine/plan/csv';
import type { FloorClock } from '../../protocol/clock';
import type { ConsoleSettings } from '../../protocol/contract';
import { largestTournament } from '../../replay/testing/largestTournament';
import { withFloorSeats } from './floorSeats';
import { withFloorTournament } from './floorTournament';
import { DEFAULT_SETTINGS, saveSettings } from './settings';
import { readSettings } from './settingsSchema';
import { SETTINGS_FILE } from './stationSettings';
import { FLOOR_OUT_OF_REACH } from './testing/evenings';
import { recordsOfKind, serviceHarness } from './testing/services';

const { serviceIn, restart } = serviceHarness({ station: 'facts' });
const ok = { ok: true, value: null };

const OWN: ConsoleSettings = readSettings({
  ...DEFAULT_SETTINGS,
  language: 'fi',
  table: { ...DEFAULT_SETTINGS.table, chipSet: [5, 25, 100], removed: 5, next: 25, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
});
const STRUCTURE: StructureInput = { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }, { break: 10 }, { sb: 500, bb: 1000, minutes: 20 }] };
const HOUSE = { rules: 'tda' as const, decks: 2 };
const CLOCK: FloorClock = { structure: STRUCTURE, events: [], house: HOUSE, held: null, offsetMs: undefined };
const SEATING = { version: 7, broken: false, seats: [{ seat: 2, player: 'Anna Virtanen' }, { seat: 5, player: 'Иван' }, { seat: 9, player: 'Pekka' }] };
const FLOOR_SEATS = [{ seat: 2, name: 'Anna Virtanen' }, { seat: 5, name: 'Иван' }, { seat: 9, name: 'Pekka' }];

const UNREACHABLE = FLOOR_OUT_OF_REACH;
const dataDir = () => mkdtempSync(join(tmpdir(), 'floor-facts-'));
const fileOf = (dir: string) => JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8')) as Record<string, unknown> & { table: ConsoleSettings['table']; tournament?: ConsoleSettings['tournament'] };

describe("the floor's facts on the station's record", () => {
  it('journals the tournament and the seating once each however often the link reads them; the file holds only the station’s own', async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    expect(await service.saveSettings(OWN)).toEqual(ok);
    for (let read = 0; read < 3; read += 1) {
      expect(await service.followFloorClock(CLOCK)).toEqual(ok);
      expect(await service.followFloorSeats(SEATING)).toEqual(ok);
    }
    expect(recordsOfKind(dir, 'floor-tournament')).toEqual([{ kind: 'floor-tournament', tournament: { structure: STRUCTURE, house: HOUSE } }]);
    expect(recordsOfKind(dir, 'floor-seating')).toEqual([{ kind: 'floor-seating', seating: SEATING }]);
    const { settings } = service.getState();
    expect(settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000], rules: 'tda', decks: 2, seats: FLOOR_SEATS });
    expect(settings.tournament?.structure?.levels).toEqual(STRUCTURE.levels);
    const file = fileOf(dir);
    expect(Object.keys(file)).not.toContain('fromFloor');
    expect(Object.keys(file)).not.toContain('seatsFromFloor');
    expect(file.table).toMatchObject({ chipSet: [5, 25, 100], rules: OWN.table.rules, decks: OWN.table.decks, seats: OWN.table.seats });
    expect(file.tournament?.structure ?? null).toBeNull();
    expect(JSON.stringify(file)).not.toContain('Anna Virtanen');
  });

  it("a restart knows them from the journal, the floor out of reach, and keeps the station's choices under them; with the file gone too", async () => {
    const dir = dataDir();
    let service = await serviceIn(dir);
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.followFloorClock(CLOCK)).toEqual(ok);
    expect(await service.followFloorSeats(SEATING)).toEqual(ok);
    // The break after level 2, and its colour-up of the 25s begun: the station's own doing under the floor's tournament.
    expect(await service.markBreak(2)).toEqual(ok);
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    const before = service.getState().settings;
    expect(before.table).toMatchObject({ removed: 25, next: 100 });
    // Restarted with the floor out of reach: nothing is read from it.
    service = await restart(service, dir, UNREACHABLE);
    expect(service.getState().floorLink.state).not.toBe('connected');
    expect({ ...service.getState().settings.table, name: null }).toEqual({ ...before.table, name: null });
    expect(service.getState().settings.tournament).toEqual(before.tournament);
    expect(service.getState().settings.fromFloor).toEqual(before.fromFloor);
    expect(service.getState().settings.seatsFromFloor).toEqual(before.seatsFromFloor);
    expect(recordsOfKind(dir, 'floor-tournament')).toHaveLength(1);
    // The settings file lost: the floor's tournament and seats are still the journal's.
    service = await (async () => {
      await service.close();
      rmSync(join(dir, SETTINGS_FILE));
      return restart(service, dir, UNREACHABLE);
    })();
    const { settings } = service.getState();
    expect(settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000], rules: 'tda', decks: 2, seats: FLOOR_SEATS });
    expect(settings.tournament?.structure?.levels).toEqual(STRUCTURE.levels);
    expect(settings.fromFloor?.house).toEqual(HOUSE);
  });

  it("the link ended: journaled as none, and the station's own settings back exactly", async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    expect(await service.saveSettings(OWN)).toEqual(ok);
    const own = service.getState().settings;
    expect(await service.followFloorClock(CLOCK)).toEqual(ok);
    expect(await service.followFloorSeats(SEATING)).toEqual(ok);
    expect(await service.followFloorClock(null)).toEqual(ok);
    expect(await service.followFloorSeats(null)).toEqual(ok);
    expect(recordsOfKind(dir, 'floor-tournament').at(-1)).toEqual({ kind: 'floor-tournament', tournament: null });
    expect(recordsOfKind(dir, 'floor-seating').at(-1)).toEqual({ kind: 'floor-seating', seating: null });
    expect(service.getState().settings).toEqual(own);
  });

  it('a race’s record says the floor’s tournament and seating version it ran under; one raced under the station’s own says none', async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.startRace([{ seat: 1, chips: 1, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }])).toEqual(ok);
    expect(await service.abandonRace('race-1', 'recount')).toEqual(ok);
    expect(await service.followFloorClock(CLOCK)).toEqual(ok);
    expect(await service.followFloorSeats(SEATING)).toEqual(ok);
    expect(await service.startRace([{ seat: 2, chips: 1, hasOther: true }, { seat: 5, chips: 0, hasOther: true }, { seat: 9, chips: 0, hasOther: true }])).toEqual(ok);
    const journaled = recordsOfKind(dir, 'floor-tournament');
    expect(journaled).toHaveLength(1);
    const first = await service.raceRecord('race-1');
    expect(first.ok && first.value.floorFacts).toBeUndefined();
    const second = await service.raceRecord('race-2');
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.value.floorFacts).toEqual({ tournament: { seq: expect.any(Number), at: expect.any(String) }, seating: { seq: expect.any(Number), version: 7 } });
    expect(second.value.floorFacts?.tournament?.seq).toBeLessThan(second.value.seqs.first);
    expect(second.value.floorFacts?.seating?.seq).toBeGreaterThan(second.value.floorFacts?.tournament?.seq ?? Infinity);
  });

  it("migrates a settings file of the version before, holding the floor's copies: journaled once, the file the station's own, the settings unchanged", async () => {
    const dir = dataDir();
    // As the version before wrote it: the floor's tournament and seats in the file, the own kept aside, a colour-up of the 100s begun.
    const linked = withFloorSeats(withFloorTournament(OWN, { structure: STRUCTURE, house: HOUSE }), SEATING);
    const old = readSettings({ ...linked, table: { ...linked.table, removed: 100, next: 500 }, tournament: { ...linked.tournament, atBreakAfter: 2 } });
    await saveSettings(join(dir, SETTINGS_FILE), old);
    expect(Object.keys(fileOf(dir))).toEqual(expect.arrayContaining(['fromFloor', 'seatsFromFloor']));
    let service = await serviceIn(dir, UNREACHABLE);
    // The table's name is the environment's floor's (set in its turn): the rest as it was.
    const same = (settings: ConsoleSettings) => ({ ...settings, table: { ...settings.table, name: null } });
    expect(same(service.getState().settings)).toEqual(same(old));
    expect(recordsOfKind(dir, 'floor-tournament')).toEqual([{ kind: 'floor-tournament', tournament: { structure: STRUCTURE, house: HOUSE } }]);
    expect(recordsOfKind(dir, 'floor-seating')).toEqual([{ kind: 'floor-seating', seating: { ...SEATING, version: 0 } }]);
    const file = fileOf(dir);
    expect(Object.keys(file)).not.toContain('fromFloor');
    expect(Object.keys(file)).not.toContain('seatsFromFloor');
    expect(file.table).toMatchObject({ chipSet: [5, 25, 100], seats: OWN.table.seats });
    expect(file.onFloor).toEqual({ removed: 100, next: 500, atBreakAfter: 2 });
    // Read once: a restart journals nothing more and has the same settings.
    service = await restart(service, dir, UNREACHABLE);
    expect(same(service.getState().settings)).toEqual(same(old));
    expect(recordsOfKind(dir, 'floor-tournament')).toHaveLength(1);
    expect(recordsOfKind(dir, 'floor-seating')).toHaveLength(1);
  });

  it("journals the largest tournament the planner takes in a line the floor's journal holds (65,536 characters)", async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    const { structure, house } = largestTournament();
    expect(await service.followFloorClock({ structure, events: [], house, held: null, offsetMs: undefined })).toEqual(ok);
    expect(service.getState().settings.tournament?.structure?.levels).toHaveLength(500);
    const line = readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').find((text) => text.includes('"floor-tournament"')) ?? '';
    expect(line.length).toBeGreaterThan(40_000);
    expect(line.length).toBeLessThanOrEqual(65_536);
  });

  it('started with no floor set up, it gives the floor’s seats back at once (journaled), keeping the floor’s tournament until a floor says otherwise', async () => {
    const dir = dataDir();
    let service = await serviceIn(dir);
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.followFloorClock(CLOCK)).toEqual(ok);
    expect(await service.followFloorSeats(SEATING)).toEqual(ok);
    service = await restart(service, dir);
    // The first state already has the station's own seats.
    expect(service.getState().settings.table.seats).toEqual(OWN.table.seats);
    expect(service.getState().settings.seatsFromFloor).toBeUndefined();
    expect(recordsOfKind(dir, 'floor-seating').at(-1)).toEqual({ kind: 'floor-seating', seating: null });
    expect(service.getState().settings.fromFloor?.house).toEqual(HOUSE);
  });
});
