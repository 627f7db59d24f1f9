// The floor's seating on a station: taken as the table's seats while linked (names and seats in
// play), the station's own kept aside and given back exactly; a screen may not change the floor's
// seats; and never during an open race — the seating waits for the race's confirm or abandon.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import type { FloorSeats } from '../../replay/floorRecords';
import { changesFloorSeats, withFloorSeats, withOwnSeats } from './floorSeats';
import { DEFAULT_SETTINGS } from './settings';
import { readSettings } from './settingsSchema';
import { serviceHarness } from './testing/services';

const { serviceIn } = serviceHarness({ station: 'seats' });
const ok = { ok: true, value: null };

const OWN: ConsoleSettings = readSettings({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
});
const FLOOR: FloorSeats = { version: 1, broken: false, seats: [{ seat: 2, player: 'Anna Virtanen' }, { seat: 5, player: 'Иван' }, { seat: 9, player: 'Pekka' }] };
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];

const seatsArb = fc.uniqueArray(fc.record({ seat: fc.integer({ min: 1, max: 10 }), name: fc.constantFrom('', 'Matti', 'Äijä', 'Ольга') }), { minLength: 1, maxLength: 10, selector: (seat) => seat.seat });
const floorArb = fc.record({
  version: fc.nat(),
  broken: fc.boolean(),
  seats: fc.uniqueArray(fc.record({ seat: fc.integer({ min: 1, max: 10 }), player: fc.constantFrom('Anna', 'Иван', 'Pöllö') }), { maxLength: 10, selector: (seat) => seat.seat }),
});

describe('the floor\'s seats (pure)', () => {
  it('takes the floor\'s seats, keeps the rest of the table, and gives the station\'s own back exactly (a second hand-over keeps the first own)', () => {
    fc.assert(
      fc.property(seatsArb, floorArb, floorArb, (own, first, second) => {
        const settings = readSettings({ ...OWN, table: { ...OWN.table, seats: own } });
        const taken = withFloorSeats(withFloorSeats(settings, first), second);
        expect(taken.table.seats).toEqual(second.broken ? [] : [...second.seats].sort((a, b) => a.seat - b.seat).map(({ seat, player }) => ({ seat, name: player })));
        expect({ ...taken.table, seats: null }).toEqual({ ...settings.table, seats: null });
        expect(taken.seatsFromFloor).toEqual({ own: settings.table.seats, broken: second.broken });
        expect(withOwnSeats(taken)).toEqual(settings);
        // The settings file reads back what was stored.
        expect(readSettings(JSON.parse(JSON.stringify(taken)))).toEqual(taken);
      }),
    );
  });

  it('a screen may change anything but the floor\'s seats', () => {
    const taken = withFloorSeats(OWN, FLOOR);
    expect(changesFloorSeats(taken, { ...taken, table: { ...taken.table, dealer: 'Liisa' } })).toBe(false);
    expect(changesFloorSeats(taken, { ...taken, table: { ...taken.table, seats: [{ seat: 2, name: 'Anna Virtanen' }] } })).toBe(true);
    expect(changesFloorSeats(taken, { ...taken, table: { ...taken.table, seats: taken.table.seats.map((seat) => ({ ...seat, name: 'x' })) } })).toBe(true);
    expect(changesFloorSeats(OWN, { ...OWN, table: { ...OWN.table, seats: [] } })).toBe(false);
  });
});

describe('a station following the floor\'s seats', () => {
  it('takes them, refuses a screen saving other seats, keeps its own aside and gets them back', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'seats-')));
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.followFloorSeats(FLOOR)).toEqual(ok);
    let state: ConsoleState | null = null;
    service.onState((next) => (state = next));
    expect(service.getState().settings.table.seats).toEqual([{ seat: 2, name: 'Anna Virtanen' }, { seat: 5, name: 'Иван' }, { seat: 9, name: 'Pekka' }]);
    expect(service.getState().settings.seatsFromFloor).toEqual({ own: OWN.table.seats, broken: false });
    const { seatsFromFloor: _held, ...screen } = service.getState().settings;
    // The screen's own save of the floor's seats as they are: other settings change.
    expect(await service.saveSettings({ ...screen, table: { ...screen.table, dealer: 'Liisa' } })).toEqual(ok);
    expect(await service.saveSettings({ ...screen, table: { ...screen.table, seats: [{ seat: 1, name: 'Matti' }] } })).toMatchObject({ ok: false, error: { field: 'table.seats', said: { key: 'service.fromFloor.seats' } } });
    expect(await service.followFloorSeats(null)).toEqual(ok);
    expect(state).not.toBeNull();
    expect(service.getState().settings.table.seats).toEqual(OWN.table.seats);
    expect(service.getState().settings.table.dealer).toBe('Liisa');
    expect(service.getState().settings.seatsFromFloor).toBeUndefined();
  });

  it('never changes the seats while a race is open: the floor\'s are taken once it is abandoned (or confirmed)', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'seats-')));
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.startRace(COUNTS)).toEqual(ok);
    expect(await service.followFloorSeats({ ...FLOOR, seats: [{ seat: 1, player: 'Anna' }] })).toEqual(ok);
    expect(await service.followFloorSeats(FLOOR)).toEqual(ok);
    // The race's seats stay as it started with them.
    expect(service.getState().settings.table.seats).toEqual(OWN.table.seats);
    expect(service.getState().settings.seatsFromFloor).toBeUndefined();
    expect(await service.abandonRace('race-1', 'the table was broken')).toEqual(ok);
    await service.followFloorSeats({ ...FLOOR, seats: [{ seat: 1, player: 'x'.repeat(41) }] }); // malformed: passed over
    // The latest seating read, taken after the race ended.
    expect(service.getState().settings.table.seats).toEqual([{ seat: 2, name: 'Anna Virtanen' }, { seat: 5, name: 'Иван' }, { seat: 9, name: 'Pekka' }]);
  });

  it('a table broken on the floor has no seat in play, its own seats kept for when the link ends', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'seats-')));
    expect(await service.saveSettings(OWN)).toEqual(ok);
    expect(await service.followFloorSeats({ version: 4, broken: true, seats: [] })).toEqual(ok);
    expect(service.getState().settings.table.seats).toEqual([]);
    expect(service.getState().settings.seatsFromFloor).toEqual({ own: OWN.table.seats, broken: true });
    expect(await service.followFloorSeats(null)).toEqual(ok);
    expect(service.getState().settings.table.seats).toEqual(OWN.table.seats);
  });
});
