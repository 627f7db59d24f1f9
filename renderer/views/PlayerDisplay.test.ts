// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../testing/fakeApi';
import { FINNISH_CARDS, makeState } from '../testing/fixtures';
import { gameViewOf, playMatch, SEED_HANDS, startEvent } from '../testing/gameFixtures';
import { prepare, settle } from '../testing/setup';
import PlayerDisplay from './PlayerDisplay.vue';

describe('player display', () => {
  it('waits for a race', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-idle"]').text()).toBe('Waiting for the next chip race');
    wrapper.unmount();
  });

  it('mirrors the deal without any controls', async () => {
    const { plugins, api } = await prepare({ api: createFakeApi({ race: { cards: ['Ah', 'Kc'] } }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-next-step"]').text()).toBe('Deal 1 card to seat 1 — Matti');
    expect(wrapper.get('[data-testid="display-chips"]').text()).toBe('25 → 100');
    expect(wrapper.get('[data-testid="display-seat-1"]').text()).toContain('K♣');
    expect(wrapper.findAll('button, input, select, a')).toHaveLength(0);
    await api.dealCard('race-1', '2d');
    await settle();
    expect(wrapper.get('[data-testid="display-next-step"]').text()).toBe('Deal 2 cards to seat 2 — Teppo');
    wrapper.unmount();
  });

  it('shows the winners and the value when the race is complete', async () => {
    const { plugins } = await prepare({ api: createFakeApi({ race: { cards: FINNISH_CARDS } }) });
    const wrapper = mount(PlayerDisplay, { global: { plugins } });
    expect(wrapper.get('[data-testid="display-winner-1"]').text()).toContain('Matti');
    expect(wrapper.get('[data-testid="display-winner-2"]').text()).toContain('10♠');
    expect(wrapper.get('[data-testid="display-value-delta"]').text()).toBe('+25');
    wrapper.unmount();
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
