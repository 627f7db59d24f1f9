import type { StructureInput } from '../../engine/plan/csv';
import type { CommandResult, ConsoleSettings, SeatCount } from '../../protocol/contract';
import { ConsoleService } from '../../station/service/service';
import { DEFAULT_SETTINGS } from '../../station/service/settings';

/**
 * Real consoles playing a tournament's races for the floor's tests: each station a ConsoleService
 * on its own data folder, driven by the commands the screens send, so its journal is what a
 * station writes. `playStation` leaves the service open for the caller to read and close.
 */

/** A colour-up of two races after level 6: 500 into 1000, then 100 into 500 (as station/service/intents.test.ts). */
export const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 300, bb: 600, ante: 100 }, { sb: 500, bb: 1000 }, { break: 15 },
    { sb: 1000, bb: 2000 }, { sb: 2000, bb: 4000 },
  ],
};

/** STRUCTURE with every level 20 minutes long: the floor's clock can run it. */
export const TIMED_STRUCTURE: StructureInput = { ...STRUCTURE, levels: STRUCTURE.levels.map((level) => ('break' in level ? level : { ...level, minutes: 20 })) };

export const tableSettings = (name: string): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3, name },
});

const COUNTS: readonly SeatCount[] = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
/** Seat 1 holds exactly one `next` chip's worth of the leaving chips, the others none: nothing to race, complete at once. */
const evenCounts = (ratio: number): SeatCount[] => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }];

async function must(result: Promise<CommandResult<unknown>>, what: string): Promise<void> {
  const outcome = await result;
  if (!outcome.ok) throw new Error(`${what}: ${JSON.stringify(outcome.error)}`);
}

export type StationScript = 'colour-up-racing' | 'abandoned';

/**
 * A station's evening: a race with a void and a refusal, confirmed; then either the colour-up
 * after level 6 (its first race confirmed, the second open and taking cards), or a second race
 * abandoned and a third confirmed.
 */
export async function playStation(dataDir: string, table: string, script: StationScript, clock: () => Date = () => new Date('2026-12-01T20:00:00Z')): Promise<ConsoleService> {
  const service = await ConsoleService.start({ dataDir, clock, station: `pc-${table}` });
  await must(service.saveSettings(tableSettings(table)), 'settings');
  await must(service.saveStructure(STRUCTURE), 'structure');
  await must(service.startRace(COUNTS), 'race 1');
  await must(service.dealCard('race-1', 'Qs'), 'card Qs');
  await must(service.voidCards('race-1', 1, 'exposed'), 'void');
  // A misread: refused, and journaled as a refusal for the floor supervisor.
  const refused = await service.dealCard('race-1', 'Zz');
  if (refused.ok) throw new Error('a misread card was taken');
  for (const card of CARDS) await must(service.dealCard('race-1', card), `card ${card}`);
  await must(service.confirmRace('race-1'), 'confirm race 1');
  if (script === 'colour-up-racing') {
    await must(service.markBreak(6), 'break');
    await must(service.startColorUp(6, 500), 'colour-up 500');
    await must(service.startRace(evenCounts(2)), 'race 2');
    await must(service.confirmRace('race-2'), 'confirm race 2');
    await must(service.startColorUp(6, 100), 'colour-up 100');
    await must(service.startRace(COUNTS), 'race 3');
    for (const card of CARDS.slice(0, 3)) await must(service.dealCard('race-3', card), `card ${card}`);
  } else {
    await must(service.startRace(COUNTS), 'race 2');
    await must(service.dealCard('race-2', 'Ah'), 'card Ah');
    await must(service.abandonRace('race-2', 'the wrong table counted'), 'abandon');
    await must(service.startRace(COUNTS), 'race 3');
    for (const card of CARDS) await must(service.dealCard('race-3', card), `card ${card}`);
    await must(service.confirmRace('race-3'), 'confirm race 3');
  }
  return service;
}

/** Deals the open race's cards until it is complete (waits to be confirmed), from a fixed deck order. */
export async function dealUntilComplete(service: ConsoleService, raceId: string): Promise<void> {
  const deck = ['Ts', '4h', 'Td', 'Tc', '9s', '8c', '7d', '6h', '5s', '3c', 'Jd', 'Qh', 'Kd', '2s', '9h', '8d', '7c', '6s', '5h', '3d'];
  for (const card of deck) {
    if (service.getState().race?.summary.status === 'complete') return;
    await service.dealCard(raceId, card);
  }
  if (service.getState().race?.summary.status !== 'complete') throw new Error(`${raceId} is still not complete`);
}
