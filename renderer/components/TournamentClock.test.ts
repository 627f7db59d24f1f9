// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clockSchedule } from '../../engine/clock/clock';
import type { StructureInput } from '../../engine/plan/csv';
import { readStructure } from '../../engine/plan/structure';
import type { ClockView } from '../../protocol/clock';
import type { Locale } from '../i18n';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { makeTournamentState } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import TournamentClock from './TournamentClock.vue';

const MIN = 60_000;
const T0 = Date.parse('2026-12-01T19:00:00Z');
/** Levels of 20 minutes, a 10-minute break after level 2. */
const TIMED: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }],
};
const SCHEDULE = clockSchedule(readStructure(TIMED));

async function mountClock(clock: ClockView = { source: 'local', schedule: SCHEDULE, events: [], problem: null }, locale: Locale = 'en') {
  // The station's own clock on the real kernel (on the page's time), started at T0 when the view is; the floor's, given on the state-only stub.
  const local = clock.source === 'local' && (clock.schedule === SCHEDULE || clock.schedule === null) && clock.events.every((event) => event.type === 'start' && event.at === T0);
  const api = local
    ? await createKernelApi({ systemClock: true, settings: makeTournamentState({ structure: clock.schedule === null ? { ...TIMED, levels: TIMED.levels.map((level) => ('minutes' in level ? { sb: level.sb, bb: level.bb } : level)) } : TIMED }).settings, clockStarted: clock.events.length > 0 })
    : createStubApi({ state: makeTournamentState({ structure: TIMED }, { clock }) });
  if (local) expect(api.current.clock).toMatchObject({ source: 'local', schedule: clock.schedule, events: clock.events });
  const prepared = await prepare({ api, locale });
  const wrapper = mount(TournamentClock, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

/** The page's time moves `ms` on, and the component's one-second tick comes. */
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

describe('the tournament clock', () => {
  it('shows nothing without a timed structure', async () => {
    const { wrapper } = await mountClock({ source: 'local', schedule: null as never, events: [], problem: null });
    expect(wrapper.find('[data-testid="tournament-clock"]').exists()).toBe(false);
  });

  it('starts, counts down each second by its own time, shows the break to come; pauses and resumes with one press', async () => {
    const { wrapper, api } = await mountClock();
    const clock = wrapper.get('[data-testid="tournament-clock"]');
    expect(clock.attributes()).toMatchObject({ 'data-status': 'idle', 'data-source': 'local' });
    expect(text(wrapper, 'clock-period')).toBe('Level 1: not started');
    expect(text(wrapper, 'clock-left')).toBe('20:00');
    // The controls are in the clock's panel, under the top bar.
    expect(wrapper.find('[data-testid="clock-start"]').exists()).toBe(false);
    await wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    await wrapper.get('[data-testid="clock-start"]').trigger('click');
    await settle();
    expect(api.current.clock.events).toEqual([{ type: 'start', at: T0 }]);
    await wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    await passes(65_000);
    expect(text(wrapper, 'clock-period')).toBe('Level 1');
    expect(text(wrapper, 'clock-left')).toBe('18:55');
    expect(text(wrapper, 'clock-next-break')).toBe('break in 38:55');
    await wrapper.get('[data-testid="clock-pause"]').trigger('click');
    await settle();
    // One press pauses: the panel closes, the bar shows the time standing.
    expect(wrapper.find('[data-testid="clock-panel"]').exists()).toBe(false);
    await passes(5 * MIN);
    expect(wrapper.get('[data-testid="tournament-clock"]').attributes('data-status')).toBe('paused');
    expect(text(wrapper, 'clock-left')).toBe('18:55');
    await wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    expect(text(wrapper, 'clock-paused')).toBe('Paused');
    await wrapper.get('[data-testid="clock-resume"]').trigger('click');
    await settle();
    expect(api.current.clock.events.map((event) => event.type)).toEqual(['start', 'pause', 'resume']);
  });

  it('adjusts only from its panel (no single press moves the clock); Escape closes the panel; the break shows as the break', async () => {
    const { wrapper, api } = await mountClock({ source: 'local', schedule: SCHEDULE, events: [{ type: 'start', at: T0 }], problem: null });
    expect(wrapper.find('[data-testid="clock-adjust-plus"]').exists()).toBe(false);
    const toggle = wrapper.get('[data-testid="clock-toggle"]');
    expect(toggle.attributes('aria-expanded')).toBe('false');
    await toggle.trigger('click');
    expect(toggle.attributes('aria-expanded')).toBe('true');
    // "−1 min" takes a minute off the level (the clock moved a minute on) …
    await wrapper.get('[data-testid="clock-adjust-minus"]').trigger('click', { detail: 1 });
    await settle();
    expect(api.current.clock.events.at(-1)).toEqual({ type: 'adjust', at: T0, by: MIN });
    await passes(40 * MIN);
    expect(text(wrapper, 'clock-period')).toBe('Break after level 2');
    expect(text(wrapper, 'clock-left')).toBe('9:00');
    // … and "+1 min" gives it back: a minute more left, as on every tournament clock.
    await wrapper.get('[data-testid="clock-adjust-plus"]').trigger('click', { detail: 1 });
    await settle();
    expect(api.current.clock.events.at(-1)).toEqual({ type: 'adjust', at: T0 + 40 * MIN, by: -MIN });
    expect(text(wrapper, 'clock-left')).toBe('10:00');
    expect(wrapper.find('[data-testid="clock-next-break"]').exists()).toBe(false);
    await wrapper.get('[data-testid="clock-panel"]').trigger('keydown', { key: 'Escape' });
    expect(wrapper.find('[data-testid="clock-panel"]').exists()).toBe(false);
    expect(document.activeElement?.getAttribute('data-testid')).toBe('clock-toggle');
    // A press elsewhere on the screen closes it too.
    await toggle.trigger('click');
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    await settle();
    expect(wrapper.find('[data-testid="clock-panel"]').exists()).toBe(false);
  });

  it("the floor's clock has no controls, and says whose it is; in Finnish and Russian", async () => {
    const floor = { source: 'floor' as const, schedule: SCHEDULE, events: [{ type: 'start' as const, at: T0 - 45 * MIN }], problem: null };
    const { wrapper } = await mountClock(floor);
    await wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    expect(wrapper.find('[data-testid="clock-pause"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="clock-adjust-plus"]').exists()).toBe(false);
    expect(text(wrapper, 'clock-floor')).toBe('Floor clock');
    expect(text(wrapper, 'clock-period')).toBe('Break after level 2');
    wrapper.unmount();
    const fi = await mountClock(floor, 'fi');
    expect(text(fi.wrapper, 'clock-period')).toBe('Tauko tason 2 jälkeen');
    expect(fi.missing).toEqual([]);
    fi.wrapper.unmount();
    const ru = await mountClock({ ...floor, events: [{ type: 'start', at: T0 }] }, 'ru');
    await ru.wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    expect(text(ru.wrapper, 'clock-next-break')).toBe('перерыв через 40:00');
    expect(ru.missing).toEqual([]);
  });

  it('counts a level past an hour in minutes (narrower in the bar than hours)', async () => {
    const long = clockSchedule(readStructure({ chips: [25], levels: [{ sb: 25, bb: 50, minutes: 90 }] }));
    const { wrapper } = await mountClock({ source: 'local', schedule: long, events: [{ type: 'start', at: T0 }], problem: null });
    await passes(15 * MIN);
    expect(text(wrapper, 'clock-left')).toBe('75:00');
  });

  it('says a refusal of the service in the dealer\'s language', async () => {
    const { wrapper } = await mountClock({ source: 'local', schedule: SCHEDULE, events: [{ type: 'start', at: T0 }], problem: null });
    const { store } = { store: (await import('../stores/console')).useConsoleStore() };
    await wrapper.get('[data-testid="clock-toggle"]').trigger('click');
    store.errors.clockPause = { field: 'clock', message: 'the floor runs the clock: start, pause and adjust it on the floor console', said: { key: 'clock.floor' } };
    await settle();
    expect(text(wrapper, 'clock-error')).toBe('Not done: the floor runs the clock: start, pause and adjust it on the floor console');
  });
});
