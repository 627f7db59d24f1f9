// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import App from '../App.vue';
import { createKernelApi, type KernelApiOptions } from '../testing/kernelApi';
import type { MatchEvent } from '../../engine/poker/match';
import { seedDealEvents, seedDealing, startEvent, standPat } from '../testing/gameFixtures';
import { prepare, settle } from '../testing/setup';
import HistoryView from './HistoryView.vue';
import PointsScreen from './PointsScreen.vue';

async function startScreen(options: KernelApiOptions = {}) {
  const prepared = await prepare({ api: await createKernelApi(options) });
  const wrapper = mount(PointsScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

async function fillNames(wrapper: Awaited<ReturnType<typeof startScreen>>['wrapper'], names: readonly string[]) {
  for (const [index, name] of names.entries()) await wrapper.get(`[data-testid="player-${index + 1}-name"]`).setValue(name);
}

/** Two games closed: Pistepokeri played over two deals (Anna wins), then Chicago closed before a card. */
function closedGames(): MatchEvent[][] {
  const second = [...seedDealing(['Ville', 'Sanna', 'Anna']), ...standPat()];
  return [[...seedDealEvents(), { type: 'next-deal' }, ...second], [startEvent('chicago', ['Matti', 'Teppo'])]];
}

describe('points game start screen', () => {
  it('is a screen of its own in the top nav', async () => {
    const prepared = await prepare({ api: await createKernelApi() });
    const wrapper = mount(App, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    const nav = wrapper.get('[data-testid="nav-points"]');
    expect(nav.text()).toBe('Points game');
    await nav.trigger('click');
    await settle();
    expect(wrapper.find('[data-testid="view-points-start"]').exists()).toBe(true);
    expect(nav.attributes('aria-current')).toBe('page');
    // Its first field takes the focus, as every screen's starting field does.
    expect(document.activeElement).toBe(wrapper.get('[data-testid="player-1-name"]').element);
    wrapper.unmount();
  });

  it('offers both games, Pistepokeri first, with their rules in brief', async () => {
    const { wrapper } = await startScreen();
    const pistepokeri = wrapper.get('[data-testid="game-pistepokeri"]');
    expect((pistepokeri.element as HTMLInputElement).checked).toBe(true);
    expect(pistepokeri.element.closest('label')?.textContent).toContain('the game is played to 13');
    expect(wrapper.get('[data-testid="game-chicago"]').element.closest('label')?.textContent).toContain('a royal flush wins at once');
    wrapper.unmount();
  });

  it('takes 2 to 6 players and names the first dealer: the last one listed', async () => {
    const { wrapper } = await startScreen();
    expect(wrapper.findAll('[data-testid$="-name"]')).toHaveLength(3);
    await fillNames(wrapper, ['Anna', 'Ville', 'Sanna']);
    expect(wrapper.get('[data-testid="first-dealer"]').text()).toBe('First dealer: Sanna');
    for (let count = 4; count <= 6; count += 1) await wrapper.get('[data-testid="add-player"]').trigger('click');
    expect(wrapper.findAll('[data-testid$="-name"]')).toHaveLength(6);
    expect(wrapper.get('[data-testid="add-player"]').attributes('disabled')).toBeDefined();
    for (let count = 6; count > 2; count -= 1) await wrapper.get('[data-testid="player-1-remove"]').trigger('click');
    expect(wrapper.findAll('[data-testid$="-name"]')).toHaveLength(2);
    expect(wrapper.get('[data-testid="player-1-remove"]').attributes('disabled')).toBeDefined();
    expect(wrapper.get('[data-testid="player-1-remove"]').attributes('aria-label')).toBe('Remove player 1');
    wrapper.unmount();
  });

  it('refuses empty and repeated names on the screen, without asking the service', async () => {
    const { wrapper, api } = await startScreen();
    await fillNames(wrapper, ['Anna', '', 'Sanna']);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="start-game-problem"]').text()).toBe('Give every player a name, or remove the empty rows.');
    await fillNames(wrapper, ['Anna', ' Anna ', 'Sanna']);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="start-game-problem"]').text()).toBe('Anna is listed twice: every player needs a name of their own.');
    expect(api.callsOf('startGame')).toEqual([]);
    wrapper.unmount();
  });

  it('starts the chosen game with the names trimmed, clockwise, and opens it', async () => {
    const { wrapper, api, store } = await startScreen();
    await wrapper.get('[data-testid="game-chicago"]').setValue(true);
    await fillNames(wrapper, [' Anna', 'Ville ', 'Sanna']);
    await wrapper.get('[data-testid="start-game"]').trigger('click');
    await settle();
    expect(api.callsOf('startGame')).toEqual([['chicago', ['Anna', 'Ville', 'Sanna']]]);
    expect(store.view).toBe('points');
    expect(wrapper.find('[data-testid="view-game"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Deal a card to Anna (5 left)');
    wrapper.unmount();
  });

  it('starts from Enter in the last name', async () => {
    const { wrapper, api } = await startScreen();
    await fillNames(wrapper, ['Anna', 'Ville']);
    await wrapper.get('[data-testid="player-3-remove"]').trigger('click');
    await wrapper.get('[data-testid="player-1-name"]').trigger('keydown', { key: 'Enter' });
    expect(document.activeElement).toBe(wrapper.get('[data-testid="player-2-name"]').element);
    await wrapper.get('[data-testid="player-2-name"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(api.callsOf('startGame')).toEqual([['pistepokeri', ['Anna', 'Ville']]]);
    wrapper.unmount();
  });

  it('shows the service refusal, and warns while a chip race is open', async () => {
    const { wrapper } = await startScreen({ race: {} });
    expect(wrapper.get('[data-testid="points-race-open"]').text()).toContain('A chip race is open');
    await fillNames(wrapper, ['Anna', 'Ville', 'Sanna']);
    await wrapper.get('[data-testid="start-game"]').trigger('click');
    await settle();
    const error = wrapper.get('[data-testid="start-game-error"]');
    expect(error.attributes('role')).toBe('alert');
    expect(error.text()).toBe('The game did not start: race race-1 is still open: confirm or abandon it first');
    expect(wrapper.find('[data-testid="view-game"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('lists the games played, newest first, and offers the last game’s players again', async () => {
    const { wrapper } = await startScreen({ games: closedGames() });
    const rows = wrapper.findAll('[data-testid="games-row"]');
    expect(rows.map((row) => row.attributes('data-id'))).toEqual(['game-2', 'game-1']);
    const won = rows[1];
    expect(won?.text()).toContain('Pistepokeri');
    expect(won?.get('[data-testid="games-deals"]').text()).toBe('2');
    expect(won?.findAll('[data-testid="games-scores"] li').map((item) => item.text())).toEqual(['Anna 16', 'Ville 2', 'Sanna 0']);
    expect(won?.get('[data-testid="games-winner"]').text()).toBe('Anna');
    expect(rows[0]?.get('[data-testid="games-winner"]').text()).toBe('No winner (closed early)');
    expect(rows[0]?.text()).toContain('Chicago');
    // The newest game was Chicago for Matti and Teppo: the form starts from it.
    expect((wrapper.get('[data-testid="game-chicago"]').element as HTMLInputElement).checked).toBe(true);
    expect((wrapper.get('[data-testid="player-1-name"]').element as HTMLInputElement).value).toBe('Matti');
    expect(wrapper.findAll('[data-testid$="-name"]')).toHaveLength(2);
    wrapper.unmount();
  });

  it('says so when no game has been played, and shows the games on the history screen too', async () => {
    const empty = await startScreen();
    expect(empty.wrapper.get('[data-testid="games-empty"]').text()).toBe('No points games closed yet.');
    empty.wrapper.unmount();
    const { plugins } = await prepare({ api: await createKernelApi({ games: closedGames() }) });
    const history = mount(HistoryView, { global: { plugins } });
    expect(history.findAll('[data-testid="games-row"]')).toHaveLength(2);
    history.unmount();
  });
});

describe("points game start screen: Chicago's house options", () => {
  const checkbox = (wrapper: Awaited<ReturnType<typeof startScreen>>['wrapper'], testid: string) => wrapper.get(`[data-testid="${testid}"]`).element as HTMLInputElement;

  it('are asked only for Chicago, all off, the usual buy stop of 42 offered once ticked', async () => {
    const { wrapper } = await startScreen();
    expect(wrapper.find('[data-testid="house-options"]').exists()).toBe(false);
    await wrapper.get('[data-testid="game-chicago"]').setValue(true);
    const panel = wrapper.get('[data-testid="house-options"]');
    expect(panel.get('legend').text()).toBe('House options (Chicago)');
    for (const testid of ['option-hand-points', 'option-chicago-call', 'option-buy-stop']) expect(checkbox(wrapper, testid).checked, testid).toBe(false);
    expect(wrapper.find('[data-testid="option-buy-stop-points"]').exists()).toBe(false);
    await wrapper.get('[data-testid="option-buy-stop"]').setValue(true);
    expect((wrapper.get('[data-testid="option-buy-stop-points"]').element as HTMLInputElement).value).toBe('42');
    await wrapper.get('[data-testid="game-pistepokeri"]').setValue(true);
    expect(wrapper.find('[data-testid="house-options"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('starts Chicago with the options ticked, and the game screen shows them', async () => {
    const { wrapper, api } = await startScreen();
    await wrapper.get('[data-testid="game-chicago"]').setValue(true);
    await wrapper.get('[data-testid="option-chicago-call"]').setValue(true);
    await wrapper.get('[data-testid="option-buy-stop"]').setValue(true);
    await wrapper.get('[data-testid="option-buy-stop-points"]').setValue(40);
    await fillNames(wrapper, ['Anna', 'Ville', 'Sanna']);
    await wrapper.get('[data-testid="start-game"]').trigger('click');
    await settle();
    expect(api.callsOf('startGame')).toEqual([['chicago', ['Anna', 'Ville', 'Sanna'], { handPointsEachExchange: false, chicagoCall: true, buyStop: 40 }]]);
    expect(wrapper.findAll('[data-testid="game-options"] .game-options__item').map((item) => item.text())).toEqual(['the Chicago call', 'buy stop at 40 points']);
    wrapper.unmount();
  });

  it('sends no options for Pistepokeri, even when some were ticked for Chicago before', async () => {
    const { wrapper, api } = await startScreen();
    await wrapper.get('[data-testid="game-chicago"]').setValue(true);
    await wrapper.get('[data-testid="option-hand-points"]').setValue(true);
    await wrapper.get('[data-testid="game-pistepokeri"]').setValue(true);
    await fillNames(wrapper, ['Anna', 'Ville', 'Sanna']);
    await wrapper.get('[data-testid="start-game"]').trigger('click');
    await settle();
    expect(api.callsOf('startGame')).toEqual([['pistepokeri', ['Anna', 'Ville', 'Sanna']]]);
    wrapper.unmount();
  });

  it.each([[''], [0], [-5], [52], [41.5]])('refuses the buy stop %j on the screen, without asking the service', async (stop) => {
    const { wrapper, api } = await startScreen();
    await wrapper.get('[data-testid="game-chicago"]').setValue(true);
    await wrapper.get('[data-testid="option-buy-stop"]').setValue(true);
    await wrapper.get('[data-testid="option-buy-stop-points"]').setValue(stop);
    await fillNames(wrapper, ['Anna', 'Ville', 'Sanna']);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="start-game-problem"]').text()).toBe('The buy stop must be a whole number of points from 1 to 51.');
    expect(api.callsOf('startGame')).toEqual([]);
    wrapper.unmount();
  });

  it("shows the service's refusal of the options in the dealer's language", async () => {
    const prepared = await prepare({ api: await createKernelApi(), locale: 'fi' });
    const wrapper = mount(PointsScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    // A stale or hostile caller: the service refuses a buy stop past the target in the engine's words.
    await prepared.store.run('startGame', 'chicago', ['Anna', 'Ville'], { handPointsEachExchange: false, chicagoCall: false, buyStop: 60 });
    await settle();
    expect(wrapper.get('[data-testid="start-game-error"]').text()).toMatch(/^Peli ei alkanut: .*60/);
    expect(wrapper.find('[data-testid="view-game"]').exists()).toBe(false);
    wrapper.unmount();
  });
});
