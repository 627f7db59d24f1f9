// A card held because the line was noisy, read at another seat's antenna than the one the deal is
// at, and then taken by the dealer: dealt to the seat dealt to, and the race's record says where it
// was read (as for a card held for the antenna itself). Review of issue 26.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ShoeEvent } from '../../hardware/events';
import type { ConsoleSettings } from '../../protocol/contract';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const services: ConsoleService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }];
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];

it('a noisy read from seat 3\'s antenna, taken while the deal is at seat 1: dealt to seat 1, recorded as read at seat 3', async () => {
  let emit: (event: ShoeEvent) => void = () => undefined;
  const service = await ConsoleService.start({
    dataDir: mkdtempSync(join(tmpdir(), 'held-at-seat-')),
    cardSources: (_request, sink) => {
      emit = sink;
      return { stop: async () => undefined };
    },
  });
  services.push(service);
  const table = { name: 'table-3', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>.+)$', cards: { '04A2B3C4': 'As' } }, readers: { '0': 1, '1': 2, '2': 3 } };
  expect(await service.importProfile(table)).toMatchObject({ ok: true });
  const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 3 }, source: { kind: 'serial', path: '/dev/ttyFAKE', baud: 9600, decoder: 'table-3' } };
  expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
  expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
  emit({ type: 'card', card: 'As', raw: '2|04A2B3C4', reader: '2', suspect: true });
  await expect.poll(() => service.getState().held).toMatchObject([{ card: 'As', why: 'noise', reader: '2' }]);
  const { id } = service.getState().held[0] as { id: number };
  expect(await service.takeHeldCard('race-1', id)).toEqual({ ok: true, value: null });
  expect(service.getState().race?.summary.cards).toMatchObject([{ card: 'As', seat: 1 }]);
  const record = await service.raceRecord('race-1');
  if (!record.ok) throw new Error(record.error.message);
  expect(record.value.events.filter((event) => event.type === 'card')).toMatchObject([{ card: 'As', seat: 1, source: 'shoe', held: true, readAt: 3 }]);
});
