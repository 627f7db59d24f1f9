// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../testing/fakeApi';
import { FINNISH_CARDS, makeSettings, makeState } from '../testing/fixtures';
import { gameViewOf, playMatch, SEED_HANDS, startEvent } from '../testing/gameFixtures';
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
    const { plugins } = await prepare({ api: createFakeApi({ state: makeState({ settings: makeSettings({ table: { name: 'Table 7' } }) }) }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-table"]').text()).toBe('Table 7');
    wrapper.unmount();
  });

  it('mirrors the deal without any controls, saying whose cards are coming in the players’ words', async () => {
    const { plugins, api } = await prepare({ api: createFakeApi({ race: { cards: ['Ah', 'Kc'] } }) });
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
    const { plugins } = await prepare({ api: createFakeApi({ race: { cards: FINNISH_CARDS } }) });
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
    const complete = await prepare({ api: createFakeApi({ race: { cards: FINNISH_CARDS } }), locale });
    const result = mount(PlayerDisplay, { global: { plugins: complete.plugins } });
    expect(result.get('[data-testid="display-winner-1"]').text()).toContain(wins);
    result.unmount();
    const started = await prepare({ api: createFakeApi({ race: { cards: [] } }), locale });
    const deal = mount(PlayerDisplay, { global: { plugins: started.plugins } });
    expect(deal.get('[data-testid="display-next-step"]').text()).toBe(dealing);
    deal.unmount();
    expect([...complete.missing, ...started.missing]).toEqual([]);
  });

  it('shows the points game to the players: the deal, the next step and everyone’s points, without controls', async () => {
    const { plugins, api } = await prepare({ api: createFakeApi({ game: [startEvent()] }) });
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
    const { plugins } = await prepare({ api: createFakeApi({ state: makeState({ game: view }) }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-game-step"]').text()).toBe('Ville has won the game');
    expect(wrapper.get('[data-testid="display-score-2"]').classes()).toContain('display-scores__row--winner');
    wrapper.unmount();
  });
});
