// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clockSchedule } from '../../engine/clock/clock';
import type { StructureInput } from '../../engine/plan/csv';
import { readStructure } from '../../engine/plan/structure';
import type { ClockView } from '../../protocol/clock';
import { DEFAULT_DISPLAY_SETTINGS } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { makeTournamentState } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import PlayerDisplay from '../views/PlayerDisplay.vue';

const MIN = 60_000;
const T0 = Date.parse('2026-12-01T19:00:00Z');
/** Levels of 20 minutes, a 10-minute break after level 2 (the 25s leave then), level 3 with an ante. */
const TIMED: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, ante: 200, minutes: 20 }, { sb: 200, bb: 400, ante: 400, minutes: 20 }],
};
const SCHEDULE = clockSchedule(readStructure(TIMED));
const RUNNING: ClockView = { source: 'local', schedule: SCHEDULE, events: [{ type: 'start', at: T0 }], problem: null };

async function mountDisplay(options: { clock?: ClockView; locale?: Locale; clockSound?: boolean } = {}) {
  const state = makeTournamentState({ structure: TIMED }, { clock: options.clock ?? RUNNING });
  const settings = options.clockSound === undefined ? state.settings : { ...state.settings, display: { ...DEFAULT_DISPLAY_SETTINGS, clockSound: options.clockSound } };
  // The station's own clock on the real kernel (on the page's time), started at T0 when the view is; another, given on the state-only stub.
  const clock = options.clock ?? RUNNING;
  const local = clock.source === 'local' && (clock.schedule === SCHEDULE || clock.schedule === null) && clock.events.every((event) => event.type === 'start' && event.at === T0);
  const untimed = { ...TIMED, levels: TIMED.levels.map((level) => ('minutes' in level ? { sb: level.sb, bb: level.bb, ...(level.ante === undefined ? {} : { ante: level.ante }) } : level)) };
  const api = local
    ? await createKernelApi({ systemClock: true, settings: { ...settings, ...makeTournamentState({ structure: clock.schedule === null ? untimed : TIMED }).settings, ...(settings.display === undefined ? {} : { display: settings.display }) }, clockStarted: clock.events.length > 0 })
    : createStubApi({ state: { ...state, settings } });
  if (local) expect(api.current.clock).toMatchObject({ source: 'local', schedule: clock.schedule, events: clock.events });
  const prepared = await prepare({ api, locale: options.locale ?? 'en' });
  const wrapper = mount(PlayerDisplay, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

/** The page's time moves `ms` on, and the clock's one-second tick comes. */
async function passes(ms: number): Promise<void> {
  vi.setSystemTime(Date.now() + ms - 1000);
  vi.advanceTimersByTime(1000);
  await settle();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

const text = (wrapper: ReturnType<typeof mount>, testid: string) => wrapper.get(`[data-testid="${testid}"]`).text();

describe("the room's clock on the player display", () => {
  it('with no race on: the level, its blinds, the next, the time to the break and the chips leaving at it', async () => {
    const { wrapper } = await mountDisplay();
    await passes(5 * MIN);
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('clock');
    expect(wrapper.find('[data-testid="display-idle"]').exists()).toBe(false);
    expect(text(wrapper, 'room-clock-period')).toBe('Level 1');
    expect(text(wrapper, 'room-clock-left')).toBe('15:00');
    expect(text(wrapper, 'room-clock-blinds')).toBe('Blinds 25 / 50');
    expect(text(wrapper, 'room-clock-next')).toBe('Next: level 2 — Blinds 50 / 100');
    expect(text(wrapper, 'room-clock-break')).toBe('Break in 35:00');
    expect(text(wrapper, 'room-clock-leaving')).toBe('25s leave at the break after level 2');
    await passes(20 * MIN);
    expect(text(wrapper, 'room-clock-leaving')).toBe('25s leave at this break');
    await passes(20 * MIN);
    expect(text(wrapper, 'room-clock-period')).toBe('Break after level 2');
    expect(text(wrapper, 'room-clock-next')).toBe('After the break: level 3 — Blinds 100 / 200, ante 200');
    expect(wrapper.get('[data-testid="room-clock-progress"]').attributes('value')).toBe('0.5');
    expect(wrapper.find('[data-testid="room-clock-blinds"]').exists()).toBe(false);
    expect(wrapper.findAll('button, input, select, a')).toHaveLength(0);
    wrapper.unmount();
  });

  it('sounds at a level or break change when the station says so, and not within a level', async () => {
    const { wrapper } = await mountDisplay();
    const clock = () => wrapper.get('[data-testid="room-clock"]');
    expect(clock().attributes()).toMatchObject({ 'data-sound': 'on', 'data-periods': '0', 'data-chimes': '0' });
    await passes(10 * MIN);
    expect(clock().attributes('data-chimes')).toBe('0');
    await passes(11 * MIN);
    expect(clock().attributes()).toMatchObject({ 'data-periods': '1', 'data-chimes': '1' });
    await passes(20 * MIN);
    expect(clock().attributes()).toMatchObject({ 'data-periods': '2', 'data-chimes': '2' });
    wrapper.unmount();
  });

  it('stays silent when the station turned the sound off', async () => {
    const { wrapper, api } = await mountDisplay({ clockSound: false });
    const clock = () => wrapper.get('[data-testid="room-clock"]');
    expect(clock().attributes('data-sound')).toBe('off');
    await passes(21 * MIN);
    expect(clock().attributes()).toMatchObject({ 'data-periods': '1', 'data-chimes': '0' });
    await api.setClockSound(true);
    await settle();
    expect(clock().attributes('data-sound')).toBe('on');
    await passes(20 * MIN);
    expect(clock().attributes()).toMatchObject({ 'data-periods': '2', 'data-chimes': '1' });
    wrapper.unmount();
  });

  it.each([
    ['fi', 'Taso 1', 'Blindit 25 / 50', 'Tauko 35:00 päästä', 'Tasoa 2 seuraavalla tauolla poistuvat: 25:t'],
    ['ru', 'Уровень 1', 'Блайнды 25 / 50', 'Перерыв через 35:00', 'На перерыве после уровня 2 уходят фишки: 25'],
  ] as const)('speaks to the room in %s', async (locale, period, blinds, breakIn, leaving) => {
    const { wrapper } = await mountDisplay({ locale });
    await passes(5 * MIN);
    expect(text(wrapper, 'room-clock-period')).toBe(period);
    expect(text(wrapper, 'room-clock-blinds')).toBe(blinds);
    expect(text(wrapper, 'room-clock-break')).toBe(breakIn);
    expect(text(wrapper, 'room-clock-leaving')).toBe(leaving);
    wrapper.unmount();
  });

  it("at the break a race shows as before, and once it is over the break's progress", async () => {
    const api = await createKernelApi({ systemClock: true, settings: makeTournamentState({ structure: TIMED }).settings, clockStarted: true, markBreak: 2, race: { cards: ['Ah', 'Kc'] } });
    expect(api.current.clock).toMatchObject(RUNNING);
    const { plugins } = await prepare({ api });
    const wrapper = mount(PlayerDisplay, { global: { plugins }, attachTo: document.body });
    await passes(45 * MIN);
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('dealing');
    expect(wrapper.find('[data-testid="room-clock"]').exists()).toBe(false);
    expect(text(wrapper, 'display-next-step')).toBe('Cards for Matti');
    await api.abandonRace('race-1', 'the break is over');
    await passes(MIN);
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('clock');
    expect(text(wrapper, 'room-clock-period')).toBe('Break after level 2');
    expect(Number(wrapper.get('[data-testid="room-clock-progress"]').attributes('value'))).toBeCloseTo(0.6, 5);
    wrapper.unmount();
  });

  it('without a clock the display waits for a race as before', async () => {
    const { wrapper } = await mountDisplay({ clock: { source: 'local', schedule: null, events: [], problem: null } });
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('idle');
    expect(wrapper.find('[data-testid="room-clock"]').exists()).toBe(false);
    wrapper.unmount();
  });
});
