// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS, FINNISH_COUNTS, makeSettings, makeState } from '../testing/fixtures';
import { gameViewOf, playMatch, SEED_HANDS, startEvent } from '../testing/gameFixtures';
import { createStubApi } from '../testing/stubApi';
import { prepare, settle } from '../testing/setup';
import PlayerDisplay from './PlayerDisplay.vue';

describe('player display', () => {
  it('waits for a race', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-idle"]').text()).toBe('Waiting for the next chip race');
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('idle');
    expect(wrapper.find('[data-testid="display-table"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('names the table, so the room knows whose screen it is', async () => {
    const { plugins } = await prepare({ api: await createKernelApi({ settings: makeSettings({ table: { name: 'Table 7' } }) }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-table"]').text()).toBe('Table 7');
    wrapper.unmount();
  });

  it('mirrors the deal without any controls, saying whose cards are coming in the players’ words', async () => {
    const { plugins, api } = await prepare({ api: await createKernelApi({ race: { cards: ['Ah', 'Kc'] } }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    // The room is told whose cards come, not the dealer's instruction ("Deal 1 card to seat 1 — Matti").
    expect(wrapper.get('[data-testid="display-next-step"]').text()).toBe('Cards for Matti');
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('dealing');
    expect(wrapper.get('[data-testid="display-chips"]').text()).toBe('25 → 100');
    expect(wrapper.get('[data-testid="display-seat-1"]').text()).toContain('K♣');
    expect(wrapper.findAll('button, input, select, a')).toHaveLength(0);
    await api.dealCard('race-1', '2d');
    await settle();
    expect(wrapper.get('[data-testid="display-next-step"]').text()).toBe('Cards for Teppo');
    wrapper.unmount();
  });

  it('says who wins what in the players’ words, with the card that won and the value change', async () => {
    const { plugins } = await prepare({ api: await createKernelApi({ race: { cards: FINNISH_CARDS } }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('result');
    expect(wrapper.get('[data-testid="display-winner-1"]').text()).toBe('Matti wins a 100A♥');
    expect(wrapper.get('[data-testid="display-winner-2"]').text()).toBe('Teppo wins a 10010♠');
    expect(wrapper.find('[data-testid="display-next-step"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="display-value-delta"]').text()).toBe('+25');
    expect(wrapper.findAll('button, input, select, a')).toHaveLength(0);
    wrapper.unmount();
  });

  it.each([
    ['fi', 'Matti voittaa 100:n pelimerkin', 'Kortit pelaajalle Matti'],
    ['ru', 'Matti выигрывает фишку 100', 'Карты получает: Matti'],
  ] as const)('speaks to the room in %s too', async (locale, wins, dealing) => {
    const complete = await prepare({ api: await createKernelApi({ race: { cards: FINNISH_CARDS } }), locale });
    const result = mount(PlayerDisplay, { global: { plugins: complete.plugins } });
    expect(result.get('[data-testid="display-winner-1"]').text()).toContain(wins);
    result.unmount();
    const started = await prepare({ api: await createKernelApi({ race: { cards: [] } }), locale });
    const deal = mount(PlayerDisplay, { global: { plugins: started.plugins } });
    expect(deal.get('[data-testid="display-next-step"]').text()).toBe(dealing);
    deal.unmount();
    expect([...complete.missing, ...started.missing]).toEqual([]);
  });

  it('shows the points game to the players: the deal, the next step and everyone’s points, without controls', async () => {
    const { plugins, api } = await prepare({ api: await createKernelApi({ game: [startEvent()] }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-game-title"]').text()).toBe('Pistepokeri, deal 1');
    const before = wrapper.get('[data-testid="display-game-step"]').text();
    expect(before).not.toBe('');
    expect(['1', '2', '3'].map((seat) => wrapper.get(`[data-testid="display-score-${seat}"]`).text())).toEqual(['Anna0', 'Ville0', 'Sanna0']);
    expect(wrapper.find('[data-testid="display-idle"]').exists()).toBe(false);
    expect(wrapper.findAll('button, input, select, a')).toHaveLength(0);
    await api.dealCard('game-1', SEED_HANDS.Anna[0] as string);
    await settle();
    expect(wrapper.get('[data-testid="display-game-step"]').text()).not.toBe(before);
    wrapper.unmount();
  });

  it('names the winner of the points game', async () => {
    const view = { ...gameViewOf(playMatch([startEvent()])), winner: 'Ville' };
    // A won game's view, given (a game played to its end is long): on the state-only stub.
    const { plugins } = await prepare({ api: createStubApi({ state: makeState({ game: view }) }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-game-step"]').text()).toBe('Ville has won the game');
    expect(wrapper.get('[data-testid="display-score-2"]').classes()).toContain('display-scores__row--winner');
    wrapper.unmount();
  });
});

describe('player display: the result kept after its confirmation (issue 24)', () => {
  // The station's clock stands at 18:34 UTC, when the race is confirmed; the display's a minute later.
  const CONFIRMED = '2024-05-04T18:34:00.000Z';
  const at = (iso: string) => vi.setSystemTime(new Date(iso));
  afterEach(() => {
    vi.useRealTimers();
  });

  async function confirmedResult(resultMinutes?: number) {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    at('2024-05-04T18:35:00.000Z');
    const settings = makeSettings();
    const api = await createKernelApi({ at: Date.parse(CONFIRMED), race: { cards: FINNISH_CARDS }, settings: resultMinutes === undefined ? settings : { ...settings, display: { clockSound: true, resultMinutes } } });
    const { plugins } = await prepare({ api });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('result');
    await api.confirmRace('race-1');
    await settle();
    return { api, wrapper };
  }

  it('keeps the winners, their cards and the time it was confirmed for the ten minutes of the default, then waits for the next race', async () => {
    const { wrapper } = await confirmedResult();
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('result');
    expect(wrapper.get('[data-testid="display-winner-1"]').text()).toBe('Matti wins a 100A♥');
    expect(wrapper.get('[data-testid="display-winner-2"]').text()).toBe('Teppo wins a 10010♠');
    const time = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(new Date(CONFIRMED));
    expect(wrapper.get('[data-testid="display-kept"]').text()).toBe(`Confirmed at ${time}`);
    at('2024-05-04T18:43:50.000Z');
    vi.advanceTimersByTime(5_000);
    await settle();
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('result');
    at('2024-05-04T18:44:00.000Z');
    vi.advanceTimersByTime(5_000);
    await settle();
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('idle');
    expect(wrapper.find('[data-testid="display-kept"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('keeps nothing when the setting says 0', async () => {
    const { wrapper } = await confirmedResult(0);
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('idle');
    wrapper.unmount();
  });

  it('gives way to the next race, and does not come back when that race is abandoned', async () => {
    const { api, wrapper } = await confirmedResult();
    await api.startRace(FINNISH_COUNTS);
    await settle();
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('dealing');
    await api.abandonRace('race-2', 'wrong counts');
    await settle();
    expect(wrapper.get('[data-testid="player-display"]').attributes('data-showing')).toBe('idle');
    wrapper.unmount();
  });
});
