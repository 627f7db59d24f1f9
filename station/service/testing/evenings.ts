import fc from 'fast-check';
import type { StructureInput } from '../../../engine/plan/csv';
import type { ConsoleSettings, ConsoleState } from '../../../protocol/contract';
import type { JournalFollower } from '../../../replay/follower';
import type { ClockTimers } from '../clock';
import type { ConsoleService } from '../service';
import type { ServiceOptions } from '../serviceOptions';
import { DEFAULT_SETTINGS } from '../settings';

// Evenings at a console, made up at random for property tests: the steps a dealer takes (races,
// misreads, voids, colour-ups, the clock), played through the real service.

export const T0 = Date.parse('2026-12-01T19:00:00Z');
/** Timers that never fire: the clock's break is raised by the test's own presses, not by time. */
export const STILL: ClockTimers = { set: () => 0, clear: () => undefined };
export const SETTINGS: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3, name: '7' },
};
export const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }, { sb: 200, bb: 400, minutes: 20 }],
};
export const DECK = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc', '9s', '8c', '7d', '6h', '5s', '3c', 'Jd', 'Qh', 'Kd', '2s', '9h'];

/** What the journal's records make of the state (the rest is the moment's: the source, the last input, held cards). */
export const fromJournal = (state: ConsoleState) => JSON.parse(JSON.stringify({ race: state.race, history: state.history, game: state.game, games: state.games, colorUp: state.colorUp, clock: state.clock, chipExchanges: state.chipExchanges, records: state.journal.records, settings: state.settings })) as unknown;

/** The floor table 7 is linked to, out of reach (nothing listens there): the link keeps trying and reads nothing. */
export const FLOOR_OUT_OF_REACH: Pick<ServiceOptions, 'floor' | 'floorTiming'> = { floor: { url: 'postgresql://station_7:secret@127.0.0.1:9/floor', table: '7' }, floorTiming: { retryFirstMs: 60_000, retryMaxMs: 60_000, connectMs: 200 } };

export const options = (dataDir: string, followers: readonly JournalFollower[]): ServiceOptions => ({ dataDir, clock: () => new Date(T0), station: 'pc', timers: STILL, followers, refusalBurst: 5 });

export type Step =
  | { readonly t: 'start'; readonly chips: readonly [number, number, number] }
  | { readonly t: 'deal'; readonly card: number }
  | { readonly t: 'misread'; readonly times: number }
  | { readonly t: 'void' }
  | { readonly t: 'confirm' }
  | { readonly t: 'finish' }
  | { readonly t: 'abandon' }
  | { readonly t: 'break'; readonly level: number | null }
  | { readonly t: 'colour-up' }
  | { readonly t: 'clock'; readonly press: 'start' | 'pause' | 'resume' | 'plus' | 'minus' }
  /** Chips exchanged outside a race: late-found 25s of race `race` (refused unless it is confirmed), else a colour-up of a player (refused while a race is dealt). */
  | { readonly t: 'exchange'; readonly race: number | null; readonly count: number }
  /** The floor's seating of the table as the link reads it (null: none, the station's own seats): taken unless a race is open. */
  | { readonly t: 'seating'; readonly version: number | null };

export const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('start' as const), chips: fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('deal' as const), card: fc.integer({ min: 0, max: DECK.length - 1 }) }), weight: 5 },
  fc.record({ t: fc.constant('misread' as const), times: fc.integer({ min: 1, max: 8 }) }),
  fc.constant({ t: 'void' as const }),
  fc.constant({ t: 'confirm' as const }),
  { arbitrary: fc.constant({ t: 'finish' as const }), weight: 2 },
  fc.constant({ t: 'abandon' as const }),
  fc.record({ t: fc.constant('break' as const), level: fc.option(fc.constant(2)) }),
  fc.constant({ t: 'colour-up' as const }),
  fc.record({ t: fc.constant('clock' as const), press: fc.constantFrom('start' as const, 'pause' as const, 'resume' as const, 'plus' as const, 'minus' as const) }),
  fc.record({ t: fc.constant('exchange' as const), race: fc.option(fc.integer({ min: 1, max: 4 })), count: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ t: fc.constant('seating' as const), version: fc.option(fc.integer({ min: 1, max: 3 })) }),
);

/** Plays the steps as the screens would send them; a step the console refuses is part of the evening too. */
export async function play(service: ConsoleService, steps: readonly Step[]): Promise<void> {
  let misreads = 0;
  for (const next of steps) {
    const race = service.getState().race?.id ?? '';
    switch (next.t) {
      case 'start':
        await service.startRace(next.chips.map((chips, index) => ({ seat: index + 1, chips, hasOther: true })));
        break;
      case 'deal':
        await service.dealCard(race, DECK[next.card] as string);
        break;
      case 'misread':
        // The same misread again and again (a repeat count), then distinct ones (over the burst: only counted).
        for (let time = 0; time < next.times; time += 1) await service.dealCard(race, time < next.times / 2 ? 'Zz' : `Z${(misreads += 1)}`);
        break;
      case 'void':
        await service.voidCards(race, 1, 'exposed');
        break;
      case 'confirm':
        await service.confirmRace(race);
        break;
      case 'finish':
        // The cards dealt until the race is complete, then confirmed.
        for (const card of DECK) if (service.getState().race?.summary.status !== 'complete') await service.dealCard(race, card);
        await service.confirmRace(race);
        break;
      case 'abandon':
        await service.abandonRace(race, 'recount');
        break;
      case 'break':
        await service.markBreak(next.level);
        break;
      case 'colour-up':
        await service.startColorUp(2, 25);
        break;
      case 'exchange':
        await service.recordChipExchange(
          next.race === null
            ? { reason: 'discretionary', raceId: null, seat: null, removed: 25, count: next.count, next: 100, note: 'table broken' }
            : { reason: 'late-found', raceId: `race-${next.race}`, seat: 1, removed: 25, count: next.count, next: 100, note: '' },
        );
        break;
      case 'seating':
        // Seats 1 to 3 as the races count them, the players' names the floor's version's.
        await service.followFloorSeats(next.version === null ? null : { version: next.version, broken: false, seats: [1, 2, 3].map((seat) => ({ seat, player: `Pelaaja ${seat}.${next.version}` })) });
        break;
      case 'clock':
        await (next.press === 'start' ? service.clockStart() : next.press === 'pause' ? service.clockPause() : next.press === 'resume' ? service.clockResume() : service.clockAdjust(next.press === 'plus' ? 1 : -1));
        break;
    }
  }
}
