// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleSettings, SeatCount } from '../../protocol/contract';
import App from '../App.vue';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { makeTournamentState, TOURNAMENT_STRUCTURE } from '../testing/fixtures';
import { createStubApi, type StubApi } from '../testing/stubApi';
import { prepare, settle } from '../testing/setup';

/** Seat 1 has exactly one chip's worth of the leaving chips, the others none: no race is needed. */
function evenCounts(ratio: number): SeatCount[] {
  return [
    { seat: 1, chips: ratio, hasOther: true },
    { seat: 2, chips: 0, hasOther: true },
    { seat: 3, chips: 0, hasOther: true },
  ];
}

async function mountApp(given?: KernelApi | StubApi) {
  const api = given ?? (await createKernelApi({ settings: makeTournamentState().settings, markBreak: 6 }));
  const prepared = await prepare({ api });
  const wrapper = mount(App, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

function banner(wrapper: VueWrapper) {
  return wrapper.find('[data-testid="color-up-banner"]');
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('the colour-up at the break', () => {
  it('is proposed prominently, planned chips smallest first, with one click to start its first race', async () => {
    const { wrapper, api, store } = await mountApp();
    expect(store.view).toBe('setup');
    expect(banner(wrapper).attributes()).toMatchObject({ 'data-after-level': '6', 'data-state': 'offer' });
    expect(wrapper.get('[data-testid="color-up-title"]').text()).toBe('Break after level 6: colour up — 100, 500 → 1000 Planned');
    expect(wrapper.get('[data-testid="color-up-step-1"]').attributes('data-state')).toBe('next');
    expect(wrapper.get('[data-testid="color-up-step-2"]').text()).toBe('Race 2 of 2: 500 → 1000 later');
    const start = wrapper.get('[data-testid="color-up-start"]');
    expect(start.text()).toBe('Start race 1 of 2: 100 → 500');

    await start.trigger('click');
    await settle();
    // A command of its own, naming the break it shows and the race: nothing else of the settings is sent.
    expect(api.callsOf('startColorUp')).toEqual([[6, 100]]);
    expect(api.callsOf('saveSettings')).toEqual([]);
    const saved: ConsoleSettings = api.current.settings;
    expect(saved.table).toMatchObject({ chipSet: TOURNAMENT_STRUCTURE.chips, removed: 100, next: 500 });
    expect(saved.tournament).toEqual({ structure: TOURNAMENT_STRUCTURE, atBreakAfter: 6 });
    expect(store.view).toBe('race');
    expect(wrapper.get('[data-testid="counts-intro"]').text()).toContain('5 × 100 = 1 × 500');
    // The first count takes the keys typed next (issue 24: the title took them, and they were lost).
    expect(document.activeElement?.getAttribute('data-testid')).toMatch(/^counts-seat-[0-9]+-chips$/);
    expect(document.activeElement).toBe(wrapper.find('[data-testid^="counts-seat-"][data-autofocus]').element);
    wrapper.unmount();
  });

  it('follows the races: running, then the next one offered, then done', async () => {
    const { wrapper, store } = await mountApp();
    await wrapper.get('[data-testid="color-up-start"]').trigger('click');
    await settle();
    await store.run('startRace', evenCounts(5));
    await settle();
    expect(store.race?.summary).toMatchObject({ removed: 100, next: 500 });
    expect(banner(wrapper).attributes('data-state')).toBe('running');
    expect(wrapper.get('[data-testid="color-up-running"]').text()).toBe('Race 1 of 2 in progress: 100 → 500.');
    expect(wrapper.find('[data-testid="color-up-start"]').exists()).toBe(false);

    await store.run('confirmRace');
    await settle();
    expect(store.view).toBe('history');
    expect(wrapper.get('[data-testid="color-up-step-1"]').attributes('data-state')).toBe('done');
    const next = wrapper.get('[data-testid="color-up-start"]');
    expect(next.text()).toBe('Start race 2 of 2: 500 → 1000');
    await next.trigger('click');
    await settle();
    expect(store.settings?.table).toMatchObject({ removed: 500, next: 1000 });
    expect(store.view).toBe('race');

    await store.run('startRace', evenCounts(2));
    await store.run('confirmRace');
    await settle();
    expect(banner(wrapper).attributes('data-state')).toBe('done');
    expect(wrapper.get('[data-testid="color-up-done"]').text()).toBe('Colour-up done: the smallest chip is now 1000.');
    expect(wrapper.find('[data-testid="color-up-start"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('shows the confirmed races as the service keeps them: in a second window too, until a break is marked again', async () => {
    const api = await createKernelApi({ settings: makeTournamentState().settings, markBreak: 6 });
    const first = await mountApp(api);
    await first.wrapper.get('[data-testid="color-up-start"]').trigger('click');
    await settle();
    await first.store.run('startRace', evenCounts(5));
    await first.store.run('confirmRace');
    first.wrapper.unmount();
    // Kept by the service, not by this window: nothing in the browser's storage.
    expect(api.current.colorUp?.done).toEqual([expect.objectContaining({ raceId: 'race-1', removed: 100, next: 500 })]);
    localStorage.clear();

    const again = await mountApp(api);
    expect(again.wrapper.get('[data-testid="color-up-start"]').text()).toBe('Start race 2 of 2: 500 → 1000');
    await again.store.run('markBreak', 2);
    await again.store.run('markBreak', 6);
    await settle();
    expect(again.wrapper.get('[data-testid="color-up-start"]').text()).toBe('Start race 1 of 2: 100 → 500');
    again.wrapper.unmount();
  });

  it('waits while another race is open', async () => {
    const api = await createKernelApi({ settings: makeTournamentState().settings, markBreak: 2, race: { cards: ['Ah'] } });
    const { wrapper } = await mountApp(api);
    expect(wrapper.get('[data-testid="color-up-title"]').text()).toBe('Break after level 2: colour up — 25 → 100 Planned');
    // The open race is the 25 → 100 one: shown as running.
    expect(wrapper.get('[data-testid="color-up-running"]').text()).toBe('Race 1 of 1 in progress: 25 → 100.');
    wrapper.unmount();

    const other = await mountApp(await createKernelApi({ settings: makeTournamentState().settings, markBreak: 6, race: { cards: ['Ah'] } }));
    expect(other.wrapper.get('[data-testid="color-up-blocked"]').text()).toBe('A race is open: finish it first, then start the colour-up here.');
    expect(other.wrapper.find('[data-testid="color-up-start"]').exists()).toBe(false);
    other.wrapper.unmount();
  });

  it('held by the floor: over the race screens one line (the hold said short, no running line), elsewhere in full (issue 41)', async () => {
    // The real service's state at the break after level 2, its first race dealt; the floor's hold
    // comes over the floor link (not in-process): added to it, on the state-only stub.
    const { current: state } = await createKernelApi({ settings: makeTournamentState().settings, markBreak: 2, race: { cards: ['Ah'] } });
    const api = createStubApi({ state: { ...state, clock: { ...state.clock, held: { afterLevel: 2, tables: 3 } } } });
    const { wrapper, store } = await mountApp(api);
    store.view = 'race';
    await settle();
    expect(banner(wrapper).classes()).toContain('color-up-banner--held');
    expect(wrapper.get('[data-testid="color-up-held"]').text()).toBe('Held by the floor: 3 tables not done');
    expect(wrapper.find('[data-testid="color-up-running"]').exists()).toBe(false);
    store.view = 'setup';
    await settle();
    expect(banner(wrapper).classes()).not.toContain('color-up-banner--held');
    expect(wrapper.get('[data-testid="color-up-held"]').text()).toBe('Break held by the floor: 3 tables still colouring up. The next level starts when the last one is done.');
    expect(wrapper.get('[data-testid="color-up-running"]').text()).toBe('Race 1 of 1 in progress: 25 → 100.');
  });

  it("says when the floor's override decided it, and shows a refused start", async () => {
    const structure = { ...TOURNAMENT_STRUCTURE, overrides: { '6': [25, 100, 500] } };
    const api = await createKernelApi({ settings: makeTournamentState({ structure, atBreakAfter: 6 }).settings });
    api.cann('startColorUp', { ok: false, error: { field: 'table.next', message: '1000 is not a whole multiple of 300' } });
    const { wrapper, store } = await mountApp(api);
    expect(wrapper.get('[data-testid="color-up-title"]').text()).toBe("Break after level 6: colour up — 25, 100, 500 → 1000 Floor's choice");
    expect(wrapper.get('[data-testid="color-up-source"]').attributes('data-source')).toBe('override');
    await wrapper.get('[data-testid="color-up-start"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="color-up-error"]').text()).toBe('Not done: 1000 is not a whole multiple of 300');
    expect(store.view).toBe('setup');
    wrapper.unmount();
  });

  it('is not shown without a proposal, nor on the settings and points screens', async () => {
    const { wrapper, store } = await mountApp(await createKernelApi({ settings: makeTournamentState().settings, markBreak: null }));
    expect(banner(wrapper).exists()).toBe(false);
    await store.run('markBreak', 2);
    await settle();
    expect(banner(wrapper).exists()).toBe(true);
    for (const view of ['settings', 'points'] as const) {
      store.navigate(view);
      await settle();
      expect(banner(wrapper).exists()).toBe(false);
    }
    store.navigate('structure');
    await settle();
    expect(banner(wrapper).exists()).toBe(true);
    wrapper.unmount();
  });
});
