// A reader per seat (issue 26), through a real serial line (socat pseudo-terminals): an RFID table
// with four antennas, one under each seat, that names the antenna of each read (`3|04A2B3C4`). A
// card read at the antenna of the seat the deal is at is dealt; one read at another seat's antenna
// is held for the dealer's say (take it for the seat dealt to, or discard it), and either way it is
// on the race's record. The map itself is set by dealing a card onto each seat in order.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_READER_SEAT } from '../../hardware/profile';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import { MAX_SEATS, type ConsoleSettings, type RaceRecordEvent } from '../../protocol/contract';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const OK = { ok: true, value: null };
const SEATS = [1, 2, 3, 4].map((seat) => ({ seat, name: `P${seat}` }));
const COUNTS = SEATS.map(({ seat }) => ({ seat, chips: 1, hasOther: true }));
/** The antennas, `0` … `3`, under seats 1 … 4. */
const READERS = { '0': 1, '1': 2, '2': 3, '3': 4 };
const CARDS = ['As', 'Kd', 'Qh', 'Jc', 'Ts', '9d', '8h', '7c'] as const;
const tagOf = (index: number) => `04A2B3${(index + 16).toString(16).toUpperCase()}`;
const TABLE_PROFILE = {
  name: 'table-4',
  framing: { kind: 'lines' },
  decoder: { kind: 'uid', pattern: '^(?<reader>\\d+)\\|(?<uid>[0-9A-F]+)$', cards: Object.fromEntries(CARDS.map((card, index) => [tagOf(index), card])) },
};
/** The line the table writes when antenna `reader` reads the tag of `card`. */
const read = (reader: string, card: (typeof CARDS)[number]) => `${reader}|${tagOf(CARDS.indexOf(card))}\r\n`;
const antennaOf = (seat: number) => String(seat - 1);

async function tableConsole(readers: Record<string, number> | undefined, repeatMs = 0): Promise<{ service: ConsoleService; table: PtyWriter; dataDir: string }> {
  const pair = await PtyPair.create('seatmap');
  cleanups.push(() => pair.dispose());
  const dataDir = mkdtempSync(join(tmpdir(), 'seatmap-'));
  const service = await ConsoleService.start({ dataDir, cardSources: serialCardSources });
  cleanups.push(() => service.close());
  expect(await service.importProfile({ ...TABLE_PROFILE, repeatMs, ...(readers === undefined ? {} : { readers }) })).toMatchObject({ ok: true });
  const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 4 }, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'table-4' } };
  expect(await service.saveSettings(settings)).toEqual(OK);
  await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
  const table = await PtyWriter.open(pair.a);
  cleanups.push(() => table.close());
  return { service, table, dataDir };
}

const awaited = (service: ConsoleService) => service.getState().race?.summary.awaiting?.seat ?? null;
const dealt = (service: ConsoleService) => service.getState().race?.summary.cards.map(({ card, seat }) => ({ card, seat })) ?? [];
/** Until the console has read `reads` frames in all, and done what they asked (one more command comes after them). */
async function reads(service: ConsoleService, count: number): Promise<void> {
  await waitFor(() => (service.getState().inputs.at(-1)?.id ?? 0) >= count, `${count} reads`);
  await service.historyPage(null, 1);
}
const without = (events: readonly RaceRecordEvent[]) => events.filter((event) => event.type === 'card' || event.type === 'refused').map(({ seq: _seq, at: _at, ...event }) => event);

describe('an RFID table with four antennas (a reader per seat)', () => {
  it('the seat limits agree: a profile maps readers to the console\'s seats', () => {
    expect(MAX_READER_SEAT).toBe(MAX_SEATS);
  });

  it('a card at the antenna of the seat dealt to is dealt; one at another seat\'s antenna is held, then taken for the seat dealt to or discarded, all on the record', async () => {
    const { service, table } = await tableConsole(READERS);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    const first = awaited(service) as number;
    expect(first).toBe(1);

    // The right antenna: dealt as today.
    await table.write(read(antennaOf(1), 'As'));
    await reads(service, 1);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }]);
    expect(service.getState().held).toEqual([]);

    // Seat 4's antenna while the deal is at seat 2: held, nothing dealt.
    await table.write(read(antennaOf(4), 'Kd'));
    await reads(service, 2);
    expect(dealt(service)).toHaveLength(1);
    const held = service.getState().held;
    expect(held).toEqual([{ id: 1, target: 'race-1', card: 'Kd', raw: '3|04A2B311', why: 'seat', reader: '3', readAt: 4, seat: 2 }]);

    // The right card comes behind it: it waits its turn, and goes once the held one is discarded.
    await table.write(read(antennaOf(2), 'Qh'));
    await reads(service, 3);
    expect(service.getState().held.map((card) => card.why)).toEqual(['seat', 'queued']);
    expect(await service.discardHeldCard('race-1', 1)).toEqual(OK);
    expect(service.getState().held).toEqual([]);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }, { card: 'Qh', seat: 2 }]);

    // Seat 1's antenna while the deal is at seat 3: held; the dealer takes it for seat 3.
    await table.write(read(antennaOf(1), 'Jc'));
    await reads(service, 4);
    expect(service.getState().held).toMatchObject([{ card: 'Jc', why: 'seat', readAt: 1, seat: 3 }]);
    const { id } = service.getState().held[0] as { id: number };
    expect(await service.takeHeldCard('race-1', id)).toEqual(OK);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }, { card: 'Qh', seat: 2 }, { card: 'Jc', seat: 3 }]);

    // An antenna the map does not name: dealt as today.
    await table.write(read('7', 'Ts'));
    await reads(service, 5);
    expect(dealt(service).at(-1)).toEqual({ card: 'Ts', seat: 4 });

    const record = await service.raceRecord('race-1');
    if (!record.ok) throw new Error(record.error.message);
    expect(without(record.value.events)).toEqual([
      { type: 'card', card: 'As', seat: 1, round: 0, source: 'shoe', held: false },
      {
        type: 'refused', input: 'Kd', source: 'shoe', count: 1,
        reason: "discarded by the dealer: read at seat 4's antenna while the deal was at seat 2",
        said: { key: 'service.seatMap.discarded', params: { readAt: 4, seat: 2 } },
      },
      { type: 'card', card: 'Qh', seat: 2, round: 0, source: 'shoe', held: false },
      { type: 'card', card: 'Jc', seat: 3, round: 0, source: 'shoe', held: true, readAt: 1 },
      { type: 'card', card: 'Ts', seat: 4, round: 0, source: 'shoe', held: false },
    ]);
  }, 30_000);

  it('a card that waited behind a held one is checked when its turn comes: read at another seat\'s antenna, it is held in its turn', async () => {
    const { service, table } = await tableConsole(READERS);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    // Seat 3's antenna, then seat 4's, while the deal is at seat 1: the first held, the second queued behind it.
    await table.write(read(antennaOf(3), 'As') + read(antennaOf(4), 'Kd'));
    await reads(service, 2);
    expect(service.getState().held.map(({ card, why }) => [card, why])).toEqual([['As', 'seat'], ['Kd', 'queued']]);
    const [first, second] = service.getState().held as unknown as [{ id: number }, { id: number }];
    expect(await service.takeHeldCard('race-1', first.id)).toEqual(OK);
    // As went to seat 1; Kd, read at seat 4's antenna, now waits for its say with the deal at seat 2 (same id: the screen names it).
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }]);
    expect(service.getState().held).toMatchObject([{ id: second.id, card: 'Kd', why: 'seat', readAt: 4, seat: 2 }]);
    expect(await service.takeHeldCard('race-1', second.id)).toEqual(OK);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }, { card: 'Kd', seat: 2 }]);
  }, 30_000);

  it('a points game has no seats to check: a card at any antenna goes to it as today', async () => {
    const { service, table } = await tableConsole(READERS);
    expect(await service.startGame('chicago', ['Anna', 'Ville'])).toEqual(OK);
    await table.write(read(antennaOf(4), 'As'));
    await reads(service, 1);
    expect(service.getState().held).toEqual([]);
    expect(JSON.stringify(service.getState().game?.hands)).toContain('"As"');
  }, 30_000);

  it('with no seat map, a card at any antenna is dealt as today', async () => {
    const { service, table } = await tableConsole(undefined);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    await table.write(read('3', 'As'));
    await reads(service, 1);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }]);
    expect(service.getState().held).toEqual([]);
  }, 30_000);

  it('a card held at another seat\'s antenna and not decided before the race is abandoned goes on the record as refused', async () => {
    const { service, table } = await tableConsole(READERS);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    await table.write(read(antennaOf(3), 'As'));
    await reads(service, 1);
    expect(service.getState().held).toMatchObject([{ why: 'seat', readAt: 3, seat: 1 }]);
    expect(await service.abandonRace('race-1', 'test')).toEqual(OK);
    expect(service.getState().held).toEqual([]);
    const record = await service.raceRecord('race-1');
    if (!record.ok) throw new Error(record.error.message);
    expect(without(record.value.events)).toEqual([
      { type: 'refused', input: 'As', source: 'shoe', count: 1, reason: "read at seat 3's antenna and not decided before the race ended: not dealt", said: { key: 'service.seatMap.undecided', params: { readAt: 3 } } },
    ]);
  }, 30_000);

  it('the map set by dealing a card onto each seat in order: a repeated read, an antenna already mapped and an unknown tag explained; saved in the profile, then used', async () => {
    const { service, table, dataDir } = await tableConsole(undefined);
    expect(await service.mapSeats(true)).toEqual(OK);
    expect(service.getState().seatMapping).toEqual({ name: 'table-4', seats: [1, 2, 3, 4], readers: {}, next: 1, problem: null });
    // The antennas lie under the seats in another order than their names: 2, 0, 3, 1.
    await table.write(read('2', 'As'));
    await reads(service, 1);
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1 }, next: 2, problem: null });
    // The same card, still on seat 1's antenna, read again: nothing new, nothing said.
    await table.write(read('2', 'As'));
    await reads(service, 2);
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1 }, next: 2, problem: null });
    await table.write(read('0', 'Kd'));
    await reads(service, 3);
    // Seat 1's antenna again, after another: said, not taken.
    await table.write(read('2', 'Qh'));
    await reads(service, 4);
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1, '0': 2 }, next: 3, problem: { key: 'service.seatMap.antennaTaken', params: { reader: '2', seat: 1 } } });
    // A tag the deck does not know: the decoder's reason.
    await table.write('3|DEADBEEF\r\n');
    await reads(service, 5);
    expect(service.getState().seatMapping?.problem).toMatchObject({ key: 'hardware.decoder.tagUnknown' });
    // No race starts while mapping (its shoe cards would go to the map), and the settings keep the source.
    expect(await service.startRace(COUNTS)).toMatchObject({ ok: false, error: { field: 'seatMapping', said: { key: 'service.seatMap.mapping' } } });
    await table.write(read('3', 'Qh'));
    await reads(service, 6);
    expect(service.getState().race).toBeNull();
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, baud: 19200 } })).toMatchObject({ ok: false, error: { field: 'source', said: { key: 'service.seatMap.mapping' } } });
    await table.write(read('1', 'Jc'));
    await reads(service, 7);
    expect(service.getState().seatMapping).toEqual({ name: 'table-4', seats: [1, 2, 3, 4], readers: { '2': 1, '0': 2, '3': 3, '1': 4 }, next: null, problem: null });
    const saved = JSON.parse(readFileSync(join(dataDir, 'profiles', 'table-4.json'), 'utf8')) as { readers: unknown };
    expect(saved.readers).toEqual({ '2': 1, '0': 2, '3': 3, '1': 4 });
    expect(service.getState().profiles.find((profile) => profile.name === 'table-4')?.summary).toContain('reader 2 at seat 1, reader 0 at seat 2, reader 3 at seat 3, reader 1 at seat 4');
    expect(await service.mapSeats(false)).toEqual(OK);
    expect(service.getState().seatMapping).toBeNull();

    // The map in use: seat 1 is antenna 2.
    expect(await service.startRace(COUNTS)).toEqual(OK);
    await table.write(read('0', 'As'));
    await reads(service, 8);
    expect(service.getState().held).toMatchObject([{ why: 'seat', readAt: 2, seat: 1 }]);
    const { id } = service.getState().held[0] as { id: number };
    expect(await service.discardHeldCard('race-1', id)).toEqual(OK);
    await table.write(read('2', 'As'));
    await reads(service, 9);
    expect(dealt(service)).toEqual([{ card: 'As', seat: 1 }]);
  }, 30_000);

  // Issue 41: as the hardware behaves, a tag lying on an antenna has its frame sent again every
  // ~100 ms, the reader taking its antennas in turn. A registered deck has the `rfid` profile's
  // 1.5 s repeat window, which makes each resting tag one read.
  /** `frames` rounds of the reader polling its antennas, 100 ms apart: each round, every card lying on one is read. */
  async function resting(table: PtyWriter, lying: readonly [string, (typeof CARDS)[number]][], frames: number): Promise<void> {
    for (let round = 0; round < frames; round += 1) {
      for (const [reader, card] of lying) await table.write(read(reader, card));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('an antenna read twice is said when the next seat\'s card is dealt onto the antenna just mapped, its first card still lying there (a registered deck\'s 1.5 s repeat window)', async () => {
    const { service, table } = await tableConsole(undefined, 1500);
    expect(await service.mapSeats(true)).toEqual(OK);
    await resting(table, [['2', 'As']], 5);
    await waitFor(() => service.getState().seatMapping?.next === 2, 'seat 1 mapped');
    // Seat 2's card dealt onto antenna 2 as well: the reader reads both cards lying there.
    await resting(table, [['2', 'As'], ['2', 'Kd']], 5);
    await waitFor(() => service.getState().seatMapping?.problem !== null, 'the antenna read twice said');
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1 }, next: 2, problem: { key: 'service.seatMap.antennaTaken', params: { reader: '2', seat: 1 } } });
    // Moved onto seat 2's antenna: mapped, the problem gone; As still lying on antenna 2 says nothing.
    await resting(table, [['2', 'As'], ['0', 'Kd']], 5);
    await waitFor(() => service.getState().seatMapping?.next === 3, 'seat 2 mapped');
    await resting(table, [['2', 'As'], ['0', 'Kd'], ['3', 'Qh']], 5);
    await waitFor(() => service.getState().seatMapping?.next === 4, 'seat 3 mapped');
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1, '0': 2, '3': 3 }, problem: null });
  }, 30_000);

  it('without a repeat window a resting card mapped earlier says nothing when read again after another antenna was mapped; a second card on its antenna is said', async () => {
    const { service, table } = await tableConsole(undefined, 0);
    expect(await service.mapSeats(true)).toEqual(OK);
    await resting(table, [['2', 'As']], 2);
    await resting(table, [['2', 'As'], ['0', 'Kd']], 3);
    await reads(service, 8);
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1, '0': 2 }, next: 3, problem: null });
    await resting(table, [['2', 'As'], ['0', 'Kd'], ['0', 'Qh']], 1);
    await reads(service, 11);
    expect(service.getState().seatMapping).toMatchObject({ readers: { '2': 1, '0': 2 }, next: 3, problem: { key: 'service.seatMap.antennaTaken', params: { reader: '0', seat: 2 } } });
  }, 30_000);

  it('mapping is refused with a race open, without a reader, or on a built-in profile; stopped, nothing is saved', async () => {
    const { service, table, dataDir } = await tableConsole(undefined);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    expect(await service.mapSeats(true)).toMatchObject({ ok: false, error: { field: 'race', said: { key: 'service.seatMap.open', params: { open: 'race-1' } } } });
    expect(await service.abandonRace('race-1', 'test')).toEqual(OK);
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'rfid' } })).toEqual(OK);
    expect(await service.mapSeats(true)).toMatchObject({ ok: false, error: { field: 'source.decoder', said: { key: 'service.seatMap.notDeck', params: { name: 'rfid' } } } });
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'text' } })).toEqual(OK);
    expect(await service.mapSeats(true)).toMatchObject({ ok: false, error: { field: 'source.decoder', said: { key: 'service.seatMap.notDeck', params: { name: 'text' } } } });
    expect(await service.saveSettings(settings)).toEqual(OK);
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open again');
    expect(await service.mapSeats(true)).toEqual(OK);
    await table.write(read('0', 'As'));
    await waitFor(() => service.getState().seatMapping?.next === 2, 'seat 1 mapped');
    expect(await service.mapSeats(false)).toEqual(OK);
    expect(service.getState().seatMapping).toBeNull();
    expect((JSON.parse(readFileSync(join(dataDir, 'profiles', 'table-4.json'), 'utf8')) as { readers?: unknown }).readers).toBeUndefined();
    expect(await service.saveSettings({ ...settings, source: { kind: 'manual', path: '', baud: 9600, decoder: 'table-4' } })).toEqual(OK);
    expect(await service.mapSeats(true)).toMatchObject({ ok: false, error: { field: 'source', said: { key: 'service.noSerialPort' } } });
  }, 30_000);
});
