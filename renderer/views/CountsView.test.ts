// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { installScanner } from '../composables/scanner';
import { ENTER, TestKeyboard } from '../testing/keyboard';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS, makeSettings, makeTournamentState } from '../testing/fixtures';
import { wallClock } from '../../protocol/colorUp';
import { prepare, settle } from '../testing/setup';
import { COUNT_DRAFTS_DELAY_MS } from '../stores/countDrafts';
import CountsView from './CountsView.vue';

async function counts(given?: KernelApi) {
  const prepared = await prepare({ api: given ?? (await createKernelApi()) });
  const wrapper = mount(CountsView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

async function enter(wrapper: Awaited<ReturnType<typeof counts>>['wrapper'], values: Record<number, number | string>) {
  for (const [seat, value] of Object.entries(values)) {
    await wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).setValue(String(value));
  }
  await settle();
}

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('counts screen', () => {
  it('lists every seat in play with a count field and an other-chips box', async () => {
    const { wrapper } = await counts();
    expect(wrapper.findAll('li').map((row) => row.attributes('data-testid'))).toEqual(['counts-seat-1', 'counts-seat-2', 'counts-seat-3']);
    expect(wrapper.get('[data-testid="counts-seat-1"]').text()).toContain('Seat 1 — Matti');
    expect((wrapper.get('[data-testid="counts-seat-2-other"]').element as HTMLInputElement).checked).toBe(true);
    expect(wrapper.get('[data-testid="start-race"]').attributes('disabled')).toBeDefined();
    expect(wrapper.find('[data-testid="counts-incomplete"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('renders the guidance, pool, race chips and deal from the preview', async () => {
    const { wrapper, api } = await counts();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    expect(api.callsOf('previewRace').at(-1)).toEqual([
      [
        { seat: 1, chips: 7, hasOther: true },
        { seat: 2, chips: 2, hasOther: true },
        { seat: 3, chips: 2, hasOther: true },
      ],
    ]);
    expect(wrapper.get('[data-testid="counts-seat-1-guidance"]').text()).toContain('Trade 4 × 25 for 1 × 100, keep 3 odd');
    expect(wrapper.get('[data-testid="counts-seat-1-guidance"]').text()).toContain('3 cards');
    expect(wrapper.get('[data-testid="counts-seat-2-guidance"]').text()).toContain('Keep 2 odd × 25');
    expect(wrapper.get('[data-testid="counts-pool"]').text()).toBe('7 × 25 = 175');
    expect(wrapper.get('[data-testid="counts-race-chips"]').text()).toBe('2');
    expect(wrapper.get('[data-testid="counts-cards"]').text()).toBe('7 (the shoe holds 52)');
    expect(wrapper.get('[data-testid="counts-protected"]').text()).toBe('Nobody');
    expect(wrapper.get('[data-testid="counts-order"]').text()).toBe('Seat 1 — Matti, Seat 2 — Teppo, Seat 3 — Johanna');
    expect(wrapper.find('[data-testid="counts-no-race"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="start-race"]').attributes('disabled')).toBeUndefined();
    wrapper.unmount();
  });

  it.each([
    ['en', '100 chips to race: 2', '7 × 25 = 175'],
    ['fi', 'Arvottavat pelimerkit (100): 2', '7 × 25 = 175'],
    ['ru', 'Разыгрывается фишек по 100: 2', '7 × 25 = 175'],
  ] as const)('says the chips to race as one phrase in %s, the pool in the table’s words', async (locale, phrase, pool) => {
    const prepared = await prepare({ api: await createKernelApi(), locale });
    const wrapper = mount(CountsView, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    const fact = wrapper.get('[data-testid="counts-race-chips"]').element.parentElement as HTMLElement;
    expect(fact.classList.contains('facts__phrase'), 'label and value on one line').toBe(true);
    expect([...fact.children].map((part) => part.textContent?.trim()).join(' ')).toBe(phrase);
    expect(wrapper.get('[data-testid="counts-pool"]').text()).toBe(pool);
    expect(wrapper.text()).not.toMatch(/Potti|гонк/i);
    expect(prepared.missing).toEqual([]);
    wrapper.unmount();
  });

  it('writes the pool the Finnish way when it runs into thousands', async () => {
    const prepared = await prepare({ api: await createKernelApi({ settings: makeSettings({ table: { chipSet: [1000, 5000], removed: 1000, next: 5000 } }) }), locale: 'fi' });
    const wrapper = mount(CountsView, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    expect(wrapper.get('[data-testid="counts-pool"]').text()).toBe('6 × 1\u00a0000 = 6\u00a0000');
    wrapper.unmount();
  });

  it('renders the preview as the service gives it', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 9, 2: 1, 3: 0 });
    expect(wrapper.get('[data-testid="counts-seat-1-guidance"]').text()).toContain('Trade 8 × 25 for 2 × 100, keep 1 odd');
    expect(wrapper.get('[data-testid="counts-seat-3-guidance"]').text()).toContain('No 25 chips');
    wrapper.unmount();
  });

  it('marks a protected player and warns when no race is needed', async () => {
    const { wrapper } = await counts();
    await wrapper.get('[data-testid="counts-seat-1-other"]').setValue(false);
    await enter(wrapper, { 1: 1, 2: 0, 3: 0 });
    expect(wrapper.get('[data-testid="counts-seat-1-guidance"]').text()).toContain('Cannot be raced out: gets one 100 without racing');
    expect(wrapper.get('[data-testid="counts-protected"]').text()).toBe('Seat 1 — Matti');
    expect(wrapper.get('[data-testid="counts-no-race"]').text()).toContain('No race needed');
    expect(wrapper.get('[data-testid="start-race"]').text()).toBe('Settle without cards');
    wrapper.unmount();
  });

  it('shows the refusal of a race that needs more cards than the shoe holds', async () => {
    // 5s raced into 100s: 3 × 19 + 3 × 1 odd chips make 3 chips for 6 players, and 60 cards.
    const seats = [1, 2, 3, 4, 5, 6].map((seat) => ({ seat, name: '' }));
    const api = await createKernelApi({ settings: makeSettings({ table: { seats, chipSet: [5, 100, 500], removed: 5, next: 100 } }) });
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 19, 2: 19, 3: 19, 4: 1, 5: 1, 6: 1 });
    const error = wrapper.get('[data-testid="counts-error"]');
    expect(error.text()).toContain('This race cannot start:');
    expect(error.text()).toMatch(/card/);
    expect(wrapper.get('[data-testid="start-race"]').attributes('disabled')).toBeDefined();
    wrapper.unmount();
  });

  it('flags a count that is not a whole number', async () => {
    const { wrapper, api } = await counts();
    await enter(wrapper, { 1: '2.5', 2: 1, 3: 1 });
    expect(wrapper.get('[data-testid="counts-invalid-1"]').text()).toContain('Seat 1 — Matti: enter a whole number');
    expect(wrapper.get('[data-testid="counts-seat-1-chips"]').attributes('aria-invalid')).toBe('true');
    expect(api.callsOf('previewRace')).toEqual([]);
    wrapper.unmount();
  });

  it('moves to the next seat on Enter and starts the race from the last one', async () => {
    const { wrapper, api, store } = await counts();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    await wrapper.get('[data-testid="counts-seat-1-chips"]').trigger('keydown', { key: 'Enter' });
    expect(document.activeElement).toBe(wrapper.get('[data-testid="counts-seat-2-chips"]').element);
    await wrapper.get('[data-testid="counts-seat-3-chips"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(api.callsOf('startRace')).toHaveLength(1);
    expect(store.race?.summary.status).toBe('dealing');
    wrapper.unmount();
  });

  it('starts the race with the counts', async () => {
    const { wrapper, api } = await counts();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    await wrapper.get('[data-testid="counts-seat-3-other"]').setValue(false);
    await settle();
    await wrapper.get('[data-testid="start-race"]').trigger('click');
    await settle();
    expect(api.callsOf('startRace')).toEqual([
      [
        [
          { seat: 1, chips: 7, hasOther: true },
          { seat: 2, chips: 2, hasOther: true },
          { seat: 3, chips: 2, hasOther: false },
        ],
      ],
    ]);
    wrapper.unmount();
  });

  it('sends the dealer to the setup when no seat is in play', async () => {
    const api = await createKernelApi({ settings: makeSettings({ table: { seats: [] } }) });
    const { wrapper, store } = await counts(api);
    expect(wrapper.find('[data-testid="counts-no-seats"]').exists()).toBe(true);
    await wrapper.get('[data-testid="counts-to-setup"]').trigger('click');
    expect(store.view).toBe('setup');
    wrapper.unmount();
  });
});

describe('counts screen: a second race of chips raced off at this break', () => {
  const CONFIRMED = '2024-05-04T18:34:00.000Z';
  const time = wallClock(CONFIRMED);
  it.each([
    ['en', `This race cannot start: the 25 chips were already raced off at this break (after level 2), in race-1 confirmed at ${time}: they cannot be raced a second time at this break`],
    ['fi', `Arvontaa ei voi aloittaa: merkit 25 on jo arvottu pois tällä tauolla (tason 2 jälkeen) arvonnassa race-1, joka vahvistettiin kello ${time}: niitä ei voi arpoa toista kertaa samalla tauolla`],
    ['ru', `Этот чип-рейс нельзя начать: фишки 25 уже убраны на этом перерыве (после уровня 2) чип-рейсом race-1, подтверждённым в ${time}: второй чип-рейс этих фишек на том же перерыве невозможен`],
  ] as const)('is refused in %s, naming the chips, the race and when', async (locale, words) => {
    const colorUp = { afterLevel: 2, done: [{ raceId: 'race-1', removed: 25, next: 100, confirmedAt: CONFIRMED }], running: null };
    const api = await createKernelApi({ at: Date.parse(CONFIRMED), settings: makeTournamentState().settings, markBreak: 2, history: [{ cards: FINNISH_CARDS }] });
    expect(api.current.colorUp).toEqual(colorUp);
    const prepared = await prepare({ api, locale });
    const wrapper = mount(CountsView, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    await wrapper.get('[data-testid="start-race"]').trigger('click');
    await settle();
    expect(api.callsOf('startRace')).toHaveLength(1);
    expect(prepared.store.race).toBeNull();
    const error = wrapper.get('[data-testid="start-error"]');
    expect(error.text()).toBe(words);
    expect(error.attributes('data-field')).toBe('removed');
    wrapper.unmount();
  });
});

describe('counts screen: the keyboard-wedge scanner', () => {
  it('does not start the race on a scan in the last count field; the card is kept to be scanned again; a person’s Enter starts it', async () => {
    const { wrapper, api, store, drafts, scans } = await counts();
    store.navigate('race');
    const keyboard = new TestKeyboard();
    stops.push(installScanner({ onScan: (text) => void scans.scanned(text), timeOf: keyboard.timeOf, now: keyboard.now }));
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    const last = wrapper.get('[data-testid="counts-seat-3-chips"]');
    (last.element as HTMLElement).focus();
    keyboard.scan('2c');
    await settle();
    expect(api.callsOf('startRace')).toEqual([]);
    expect(api.callsOf('dealScan')).toEqual([]);
    expect((last.element as HTMLInputElement).value).toBe('2');
    expect(drafts.counts[3]?.chips).toBe(2);
    expect(scans.scanAway).toEqual({ raw: '2c', place: 'counts', card: '2c' });

    keyboard.press(ENTER, 2000);
    await settle();
    expect(api.callsOf('startRace')).toHaveLength(1);
    wrapper.unmount();
  });
});

describe('counts screen: the counts typed are kept by the service', () => {
  const pause = () => new Promise((resolve) => setTimeout(resolve, COUNT_DRAFTS_DELAY_MS + 50));
  const value = (wrapper: Awaited<ReturnType<typeof counts>>['wrapper'], seat: number) => (wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).element as HTMLInputElement).value;

  it('sends them once the typing pauses, empty fields as not entered; a second window and a reload show them; the race starting clears them', async () => {
    const api = await createKernelApi();
    const first = await counts(api);
    await enter(first.wrapper, { 1: 7 });
    await first.wrapper.get('[data-testid="counts-seat-2-other"]').setValue(false);
    // Typing is instant: nothing is sent until the pause.
    expect(api.callsOf('saveCountDrafts')).toEqual([]);
    expect(value(first.wrapper, 1)).toBe('7');
    await pause();
    await settle();
    expect(api.callsOf('saveCountDrafts')).toEqual([[[{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: null, hasOther: false }, { seat: 3, chips: null, hasOther: true }]]]);
    // A second window (its own store on the same service) shows the same counts.
    const second = await counts(api);
    expect(value(second.wrapper, 1)).toBe('7');
    expect(value(second.wrapper, 2)).toBe('');
    expect((second.wrapper.get('[data-testid="counts-seat-2-other"]').element as HTMLInputElement).checked).toBe(false);
    // Typed in the second: the first follows.
    await enter(second.wrapper, { 2: 2 });
    await pause();
    await settle();
    expect(value(first.wrapper, 2)).toBe('2');
    first.wrapper.unmount();
    // A reload (a fresh page) gets them back.
    const reloaded = await counts(api);
    expect([1, 2, 3].map((seat) => value(reloaded.wrapper, seat))).toEqual(['7', '2', '']);
    await enter(reloaded.wrapper, { 3: 2 });
    await reloaded.wrapper.get('[data-testid="start-race"]').trigger('click');
    await settle();
    expect(api.current.race?.id).toBe('race-1');
    expect(api.current.countDrafts).toEqual([]);
    expect([1, 2, 3].map((seat) => value(second.wrapper, seat))).toEqual(['', '', '']);
    second.wrapper.unmount();
    reloaded.wrapper.unmount();
  });

  it('keeps what this window is typing when another window’s counts arrive meanwhile', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 5 });
    await api.station.run('saveCountDrafts', [{ seat: 1, chips: 9, hasOther: true }]);
    await settle();
    expect(value(wrapper, 1)).toBe('5');
    await pause();
    await settle();
    expect(api.current.countDrafts.find((draft) => draft.seat === 1)?.chips).toBe(5);
    expect(value(wrapper, 1)).toBe('5');
    wrapper.unmount();
  });

  it('says so when the service does not keep them', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    const original = api.saveCountDrafts;
    Object.assign(api, { saveCountDrafts: async () => ({ ok: false, error: { field: 'counts[0].seat', message: 'seat 1 is not at the table (seats 2, 3): add it in the settings first', said: { key: 'service.seatNotAtTable', params: { seat: 1, seats: '2, 3' } } } }) });
    await enter(wrapper, { 1: 5 });
    await pause();
    await settle();
    expect(wrapper.get('[data-testid="counts-draft-error"]').text()).toContain('seat 1 is not at the table');
    Object.assign(api, { saveCountDrafts: original });
    wrapper.unmount();
  });
});
