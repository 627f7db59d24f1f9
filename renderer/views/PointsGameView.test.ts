// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { installScanner } from '../composables/scanner';
import { ENTER, TestKeyboard } from '../testing/keyboard';
import type { ScanStore } from '../stores/scans';
import App from '../App.vue';
import type { MatchEvent } from '../../engine/poker/match';
import { createKernelApi } from '../testing/kernelApi';
import { makeGameView, seedDealEvents, seedDealing, seedPlays, SEED_PLAYERS, SEED_TRICKS, standPat, startEvent } from '../testing/gameFixtures';
import { prepare, settle } from '../testing/setup';
import PointsScreen from './PointsScreen.vue';

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The scanner listening at the window, as the console's App installs it, on a test keyboard's clock. */
function listen(scans: ScanStore): TestKeyboard {
  const keyboard = new TestKeyboard();
  stops.push(installScanner({ onScan: (text) => void scans.scanned(text), timeOf: keyboard.timeOf, now: keyboard.now }));
  return keyboard;
}

async function gameScreen(events: readonly MatchEvent[]) {
  const prepared = await prepare({ api: await createKernelApi({ game: events }) });
  const wrapper = mount(PointsScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

const step = (wrapper: VueWrapper) => wrapper.get('[data-testid="next-step"]').text();
const cardsOf = (wrapper: VueWrapper, seat: number) =>
  wrapper.findAll(`[data-testid="hand-${seat}"] [data-testid="hand-card"]`).map((card) => card.attributes('data-card'));

async function type(wrapper: VueWrapper, text: string): Promise<void> {
  await wrapper.get('[data-testid="manual-input"]').setValue(text);
  await wrapper.get('[data-testid="manual-input"]').trigger('keydown', { key: 'Enter' });
  await settle();
}

async function click(wrapper: VueWrapper, testid: string): Promise<void> {
  await wrapper.get(`[data-testid="${testid}"]`).trigger('click');
  await settle();
}

function handCard(wrapper: VueWrapper, seat: number, card: string) {
  return wrapper.get(`[data-testid="hand-${seat}"] [data-card="${card}"] button`);
}

/** The seed deal up to the first trick: dealt, everyone stood pat. */
const TO_TRICKS = [startEvent(), ...seedDealing(), ...standPat()];

describe('points game screen: the deal', () => {
  it('shows the game, the dealer and the first card to deal, in big type', async () => {
    const { wrapper } = await gameScreen([startEvent()]);
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('dealing');
    expect(wrapper.get('h2').text()).toBe('Pistepokeri, deal 1');
    expect(wrapper.get('[data-testid="game-context"]').text()).toBe('Dealer: Sanna · first to 13 points wins · last trick 2 points');
    expect(step(wrapper)).toBe('Deal a card to Anna (5 left)');
    expect(wrapper.get('[data-testid="hand-3"] [data-testid="dealer-tag"]').text()).toBe('Dealer');
    expect(wrapper.get('[data-testid="hand-1"]').attributes('aria-current')).toBe('step');
    expect(document.activeElement).toBe(wrapper.get('[data-testid="manual-input"]').element);
    expect(wrapper.findAll('[data-testid="card-grid"] button')).toHaveLength(52);
    wrapper.unmount();
  });

  it('deals typed and tapped cards one at a time round the table', async () => {
    const { wrapper, api } = await gameScreen([startEvent()]);
    await type(wrapper, '5h');
    expect(cardsOf(wrapper, 1)).toEqual(['5h']);
    expect(step(wrapper)).toBe('Deal a card to Ville (5 left)');
    expect(wrapper.get('[data-testid="hand-2"]').attributes('aria-current')).toBe('step');
    await click(wrapper, 'grid-card-Ks');
    await type(wrapper, '2c');
    await type(wrapper, '6h');
    expect(api.callsOf('dealCard')).toEqual([['game-1', '5h'], ['game-1', 'Ks'], ['game-1', '2c'], ['game-1', '6h']]);
    expect(cardsOf(wrapper, 1)).toEqual(['5h', '6h']);
    expect(step(wrapper)).toBe('Deal a card to Ville (4 left)');
    expect(wrapper.get('[data-testid="grid-card-5h"]').attributes('disabled')).toBeDefined();
    expect((wrapper.get('[data-testid="manual-input"]').element as HTMLInputElement).value).toBe('');
    wrapper.unmount();
  });

  it('refuses a card already on the table with the service’s reason, and text that is no card on the screen', async () => {
    const { wrapper, api } = await gameScreen([startEvent(), { type: 'card', card: '5h' }]);
    await type(wrapper, '5h');
    const error = wrapper.get('[data-testid="deal-error"]');
    expect(error.attributes('role')).toBe('alert');
    expect(error.text()).toMatch(/^Not accepted: Ville cannot be dealt 5♥: /);
    expect((wrapper.get('[data-testid="manual-input"]').element as HTMLInputElement).value).toBe('5h');
    await type(wrapper, 'zz');
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('“zz” is not a card');
    expect(api.callsOf('dealCard')).toEqual([['game-1', '5h']]);
    // The next good card clears the message.
    await type(wrapper, 'ks');
    expect(wrapper.find('[data-testid="deal-error"]').exists()).toBe(false);
    wrapper.unmount();
  });
});

describe('points game screen: the exchange', () => {
  it('lets the player in turn choose discards, then asks for the draw', async () => {
    const { wrapper, api } = await gameScreen([startEvent(), ...seedDealing()]);
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('exchanging');
    expect(step(wrapper)).toBe('Anna: choose cards to discard or stand pat');
    expect(wrapper.get('[data-testid="step-detail"]').text()).toBe('Exchange 1 of 1');
    expect(wrapper.find('[data-testid="manual-input"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="end-exchanges"]').exists()).toBe(false);
    // Only the player in turn has cards to choose.
    expect(wrapper.findAll('[data-testid="hand-2"] button')).toHaveLength(0);
    expect(wrapper.get('[data-testid="discard-selected"]').attributes('disabled')).toBeDefined();
    await handCard(wrapper, 1, '5h').trigger('click');
    await handCard(wrapper, 1, '6h').trigger('click');
    await handCard(wrapper, 1, '7h').trigger('click');
    await handCard(wrapper, 1, '7h').trigger('click');
    expect(handCard(wrapper, 1, '5h').attributes('aria-pressed')).toBe('true');
    expect(handCard(wrapper, 1, '7h').attributes('aria-pressed')).toBe('false');
    expect(wrapper.get('[data-testid="discard-selected"]').text()).toBe('Discard 2 cards');
    await click(wrapper, 'discard-selected');
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'discard', cards: ['5h', '6h'] }]]);
    expect(step(wrapper)).toBe('Draw 2 cards for Anna');
    expect(wrapper.get('[data-testid="step-detail"]').text()).toBe('Exchange 1 of 1 · 37 cards left in the deck');
    expect(cardsOf(wrapper, 1)).toEqual(['7h', '8h', '9h']);
    await settle();
    expect(document.activeElement).toBe(wrapper.get('[data-testid="manual-input"]').element);
    await type(wrapper, 'ah');
    expect(wrapper.find('[data-testid="deal-error"]').exists()).toBe(true); // Ville holds A♥
    await type(wrapper, 'as');
    expect(step(wrapper)).toBe('Draw 1 card for Anna');
    await click(wrapper, 'grid-card-Js');
    expect(cardsOf(wrapper, 1)).toEqual(['7h', '8h', '9h', 'As', 'Js']);
    expect(step(wrapper)).toBe('Ville: choose cards to discard or stand pat');
    wrapper.unmount();
  });

  it('stands pat with an empty discard, player after player, into the tricks', async () => {
    const { wrapper, api } = await gameScreen([startEvent(), ...seedDealing()]);
    for (const player of ['Anna', 'Ville', 'Sanna']) {
      expect(step(wrapper)).toBe(`${player}: choose cards to discard or stand pat`);
      await click(wrapper, 'stand-pat');
    }
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'discard', cards: [] }], ['game-1', { type: 'discard', cards: [] }], ['game-1', { type: 'discard', cards: [] }]]);
    expect(step(wrapper)).toBe('Trick 1: Anna to play');
    wrapper.unmount();
  });

  it('offers Chicago’s end of the exchanges, with three rounds', async () => {
    const chicago = [startEvent('chicago'), ...seedDealing()];
    const { wrapper, api } = await gameScreen(chicago);
    expect(wrapper.get('h2').text()).toBe('Chicago, deal 1');
    expect(wrapper.get('[data-testid="step-detail"]').text()).toBe('Exchange 1 of 3');
    await click(wrapper, 'end-exchanges');
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'end-exchanges' }]]);
    expect(step(wrapper)).toBe('Trick 1: Anna to play');
    wrapper.unmount();
  });

  it('shows a refused action with the service’s reason', async () => {
    const { wrapper, api } = await gameScreen([startEvent(), ...seedDealing()]);
    api.cann('gameAction', { ok: false, error: { field: 'cards', message: 'Anna cannot discard Qs in exchange 1' } });
    await click(wrapper, 'stand-pat');
    expect(wrapper.get('[data-testid="action-error"]').text()).toBe('Not done: Anna cannot discard Qs in exchange 1');
    wrapper.unmount();
  });
});

describe('points game screen: the showdown and the tricks', () => {
  it('shows every hand with its category and names the best hand with its points', async () => {
    const { wrapper } = await gameScreen(TO_TRICKS);
    const showdown = wrapper.get('[data-testid="showdown"]');
    expect(showdown.get('[data-testid="showdown-best"]').text()).toBe('Best hand: Anna, straight flush: 8 points');
    expect(showdown.get('[data-testid="showdown-best"]').attributes('data-player')).toBe('Anna');
    expect(['1', '2', '3'].map((seat) => showdown.get(`[data-testid="showdown-${seat}"]`).attributes('data-category'))).toEqual([
      'straight-flush', 'three-of-a-kind', 'two-pair',
    ]);
    expect(showdown.get('[data-testid="showdown-2"]').text()).toContain('three of a kind');
    expect(showdown.findAll('[data-testid="showdown-1"] .playing-card')).toHaveLength(5);
    expect(wrapper.get('[data-testid="hand-points"]').text()).toBe('Hand: Anna, straight flush: 8 points');
    wrapper.unmount();
  });

  it('highlights the legal cards and plays a tapped one', async () => {
    const { wrapper, api } = await gameScreen(TO_TRICKS);
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('playing');
    // The leader may play anything.
    expect(wrapper.findAll('[data-testid="hand-1"] [data-legal="true"]')).toHaveLength(5);
    expect(wrapper.findAll('[data-testid="hand-2"] button')).toHaveLength(0);
    expect(wrapper.get('[data-testid="step-detail"]').text()).toBe('Highlighted cards may be played: tap one to play it, or type it.');
    await handCard(wrapper, 1, '9h').trigger('click');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['game-1', '9h']]);
    expect(step(wrapper)).toBe('Trick 1: Ville to play');
    // Ville must beat the opening 9♥ with his A♥: the only legal card.
    const legal = wrapper.findAll('[data-testid="hand-2"] [data-legal="true"]').map((card) => card.attributes('data-card'));
    expect(legal).toEqual(['Ah']);
    expect(handCard(wrapper, 2, 'Ah').classes()).toContain('hand-card--legal');
    expect(handCard(wrapper, 2, 'Ks').classes()).toContain('hand-card--illegal');
    wrapper.unmount();
  });

  it('refuses an illegal card with the reason, and takes the legal one', async () => {
    const { wrapper, api } = await gameScreen([...TO_TRICKS, ...seedPlays(1)]);
    await handCard(wrapper, 2, 'Ks').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="deal-error"]').text()).toBe(
      'Not accepted: trick 1: Ville may not play K♠: the opening card is 9♥ and a heart above it must be played (holding A♥)',
    );
    expect(step(wrapper)).toBe('Trick 1: Ville to play');
    await handCard(wrapper, 2, 'Ah').trigger('click');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['game-1', 'Ks'], ['game-1', 'Ah']]);
    expect(wrapper.find('[data-testid="deal-error"]').exists()).toBe(false);
    expect(step(wrapper)).toBe('Trick 1: Sanna to play');
    // Sanna has no heart: every card is legal.
    expect(wrapper.findAll('[data-testid="hand-3"] [data-legal="true"]')).toHaveLength(5);
    wrapper.unmount();
  });

  it('lists the tricks with who played what and who won', async () => {
    const { wrapper } = await gameScreen([...TO_TRICKS, ...seedPlays(7)]);
    const first = wrapper.get('[data-testid="trick-1"]');
    expect(first.findAll('[data-testid="trick-card"]').map((card) => [card.attributes('data-player'), card.attributes('data-card')])).toEqual([
      ['Anna', '9h'], ['Ville', 'Ah'], ['Sanna', '2c'],
    ]);
    expect(first.get('[data-testid="trick-1-winner"]').text()).toBe('won by Ville');
    expect(wrapper.get('[data-testid="trick-2-winner"]').attributes('data-player')).toBe('Ville');
    expect(wrapper.find('[data-testid="trick-3-winner"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="trick-3"]').findAll('[data-testid="trick-card"]')).toHaveLength(1);
    expect(step(wrapper)).toBe('Trick 3: Sanna to play');
    wrapper.unmount();
  });
});

describe('points game screen: scores across deals', () => {
  it('keeps the score of the seed deal: Anna 8, Ville 2 for the last trick, Sanna 0', async () => {
    const { wrapper } = await gameScreen(seedDealEvents());
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('complete');
    expect(step(wrapper)).toBe('Deal 1 is over: start the next deal');
    expect(SEED_TRICKS.map((_, index) => wrapper.get(`[data-testid="trick-${index + 1}-winner"]`).attributes('data-player'))).toEqual([
      'Ville', 'Ville', 'Ville', 'Ville', 'Ville',
    ]);
    expect(wrapper.get('[data-testid="last-trick"]').text()).toBe('Last trick: Ville, 2 points');
    expect(['1', '2', '3'].map((seat) => wrapper.get(`[data-testid="score-${seat}"]`).text())).toEqual(['8', '2', '0']);
    expect(wrapper.get('[data-testid="scoreboard"] thead').text()).toContain('After deal 1');
    expect(wrapper.find('[data-testid="manual-input"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="game-winner"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('hands the focus from the last card to the heading, not the next deal’s button (no stray Enter starts it)', async () => {
    const { wrapper } = await gameScreen([...TO_TRICKS, ...seedPlays(14)]);
    expect(step(wrapper)).toBe('Trick 5: Anna to play');
    await type(wrapper, '8h');
    await settle();
    expect(wrapper.find('[data-testid="manual-input"]').exists()).toBe(false);
    expect(wrapper.findAll('.game-hands .seat-cards__none').map((none) => none.text())).toEqual(['All cards played', 'All cards played', 'All cards played']);
    expect(document.activeElement).toBe(wrapper.get('#game-title').element);
    expect(document.activeElement).not.toBe(wrapper.get('[data-testid="next-deal"]').element);
    wrapper.unmount();
  });

  it('starts the next deal with the next dealer and keeps the totals per deal', async () => {
    const { wrapper, api } = await gameScreen(seedDealEvents());
    await click(wrapper, 'next-deal');
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'next-deal' }]]);
    expect(wrapper.get('h2').text()).toBe('Pistepokeri, deal 2');
    expect(wrapper.get('[data-testid="game-context"]').text()).toContain('Dealer: Anna');
    expect(wrapper.find('[data-testid="hand-1"] [data-testid="dealer-tag"]').exists()).toBe(true);
    expect(step(wrapper)).toBe('Deal a card to Ville (5 left)');
    // Deal order starts at the new dealer's left; the seats keep their numbers.
    expect(wrapper.findAll('.game-hands > li').map((hand) => hand.attributes('data-player'))).toEqual(['Ville', 'Sanna', 'Anna']);
    expect(['1', '2', '3'].map((seat) => wrapper.get(`[data-testid="score-${seat}-deal-1"]`).text())).toEqual(['8', '2', '0']);
    expect(wrapper.get('[data-testid="scoreboard"] thead').text()).toContain('Deal 2 so far');
    expect(wrapper.find('[data-testid="next-deal"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="showdown"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="hand-points"]').text()).toBe('Nobody scores for the hand in this deal.');
    wrapper.unmount();
  });

  it('names the winner, offers no next deal, and closes the game into the games played', async () => {
    // Anna holds the straight flush again in deal 2: 8 + 8 reaches 13 at the showdown.
    const won = [...seedDealEvents(), { type: 'next-deal' } as const, ...seedDealing(['Ville', 'Sanna', 'Anna']), ...standPat()];
    const { wrapper, api, store } = await gameScreen(won);
    const winner = wrapper.get('[data-testid="game-winner"]');
    expect(winner.text()).toBe('Anna wins the game with 16 points!');
    expect(step(wrapper)).toBe('Anna has won the game');
    expect(wrapper.get('[data-testid="score-row-1"]').classes()).toContain('scoreboard__row--winner');
    expect(wrapper.find('[data-testid="next-deal"]').exists()).toBe(false);
    await click(wrapper, 'close-game');
    expect(wrapper.text()).toContain('Close the game and save it to the games played?');
    expect(api.callsOf('closeGame')).toEqual([]);
    await click(wrapper, 'close-confirm');
    expect(api.callsOf('closeGame')).toEqual([['game-1', 'closed by the dealer']]);
    expect(store.game).toBeNull();
    expect(wrapper.find('[data-testid="view-points-start"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="notice"]').text()).toBe('Game closed and saved to the games played.');
    expect(wrapper.get('[data-testid="games-row"] [data-testid="games-winner"]').text()).toBe('Anna');
    wrapper.unmount();
  });

  it('asks before closing a game nobody has won, and can be talked out of it', async () => {
    const { wrapper, api } = await gameScreen([startEvent()]);
    await click(wrapper, 'close-game');
    expect(wrapper.text()).toContain('Close this game now? Nobody has won yet');
    await click(wrapper, 'close-cancel');
    expect(api.callsOf('closeGame')).toEqual([]);
    expect(wrapper.find('[data-testid="close-game"]').exists()).toBe(true);
    wrapper.unmount();
  });
});

describe('the console with a game open', () => {
  it('opens on the game when the service resumes one, and marks its nav button', async () => {
    const prepared = await prepare({ api: await createKernelApi({ game: TO_TRICKS }) });
    const wrapper = mount(App, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    expect(wrapper.find('[data-testid="view-game"]').exists()).toBe(true);
    const nav = wrapper.get('[data-testid="nav-points"]');
    expect(nav.attributes('aria-current')).toBe('page');
    expect(nav.classes()).toContain('top-nav__button--race');
    wrapper.unmount();
  });

  it('builds the same view as the service for the fixture (legal cards only while playing)', () => {
    expect(makeGameView([startEvent()]).legal).toEqual([]);
    expect(makeGameView(TO_TRICKS).legal).toEqual(['5h', '6h', '7h', '8h', '9h']);
    expect(makeGameView(seedDealEvents()).points).toEqual({
      handPoints: { player: 'Anna', hand: 'straight-flush', points: 8 },
      trickWinners: ['Ville', 'Ville', 'Ville', 'Ville', 'Ville'],
      lastTrick: { player: 'Ville', points: 2 },
      scores: { Anna: 8, Ville: 2, Sanna: 0 },
      winner: null,
    });
  });
});

describe('points game screen: the keyboard-wedge scanner', () => {
  it('deals a scanned card wherever the focus is, and says a refused one in the headline', async () => {
    const { wrapper, api, scans } = await gameScreen([startEvent()]);
    const keyboard = listen(scans);
    const grid = wrapper.get('[data-testid="grid-card-Ks"]');
    (grid.element as HTMLElement).focus();
    keyboard.scan('5H');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([]);
    expect(api.callsOf('dealScan')).toEqual([['game-1', '5H']]);
    expect(cardsOf(wrapper, 1)).toEqual(['5h']);

    keyboard.scan('5h');
    await settle();
    expect(step(wrapper)).toBe("Scanned 5♥ not accepted: Ville cannot be dealt 5♥: 5♥ is in Anna's hand. Deal a card to Ville (5 left)");
    expect(wrapper.get('[data-testid="next-step"]').attributes('data-refused')).toBe('scan');
    keyboard.scan('Ks');
    await settle();
    expect(step(wrapper)).toBe('Deal a card to Sanna (5 left)');
    wrapper.unmount();
  });

  it('does not start the next deal on a scan with the focus on its button; a deliberate Enter does', async () => {
    const { wrapper, api, scans } = await gameScreen(seedDealEvents());
    const keyboard = listen(scans);
    const next = wrapper.get('[data-testid="next-deal"]');
    (next.element as HTMLElement).focus();
    keyboard.scan('Kc');
    await settle();
    expect(api.callsOf('gameAction')).toEqual([]);
    expect(api.callsOf('dealScan')).toEqual([['game-1', 'Kc']]);
    expect(wrapper.get('[data-testid="next-step"]').attributes('data-refused')).toBe('scan');
    expect(wrapper.get('[data-testid="deal-error"]').text()).toMatch(/^Not accepted: /);
    keyboard.press(ENTER, 2000);
    await settle();
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'next-deal' }]]);
    wrapper.unmount();
  });
});

/** A Chicago deal where Ville is dealt the royal flush of spades, one card at a time round the table. */
const ROYAL_HANDS = { Anna: ['2c', '3c', '4c', '5c', '7d'], Ville: ['Ts', 'Js', 'Qs', 'Ks', 'As'], Sanna: ['2d', '2h', '4d', '5d', '8s'] } as const;
const royalDealing = (): MatchEvent[] => [0, 1, 2, 3, 4].flatMap((index) => SEED_PLAYERS.map((player): MatchEvent => ({ type: 'card', card: ROYAL_HANDS[player][index] as string })));
const chicagoStart = (options?: Record<string, unknown>): MatchEvent => ({ type: 'start', game: 'chicago', players: SEED_PLAYERS, ...(options ? { options } : {}) });

async function gameScreenIn(locale: 'en' | 'fi' | 'ru', events: readonly MatchEvent[]) {
  const prepared = await prepare({ api: await createKernelApi({ game: events }), locale });
  const wrapper = mount(PointsScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

describe('points game screen: a Chicago royal flush ends the game at once', () => {
  const ROYAL = [chicagoStart({ chicagoCall: true }), ...royalDealing(), { type: 'end-exchanges' } as const];

  it('says the game is over, names the royal flush and the winner, and offers nothing but closing', async () => {
    const { wrapper } = await gameScreen(ROYAL);
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('complete');
    expect(step(wrapper)).toBe('Royal flush: Ville wins the game at once');
    expect(wrapper.get('[data-testid="next-step"]').attributes('data-step')).toBe('none');
    const winner = wrapper.get('[data-testid="game-winner"]');
    expect(winner.attributes('data-player')).toBe('Ville');
    expect(winner.attributes('data-reason')).toBe('royal-flush');
    expect(winner.text()).toBe('Ville wins the game at once with a royal flush! The game is over: close it to save it.');
    expect(wrapper.get('[data-testid="showdown-best"]').text()).toBe('Best hand: Ville, a royal flush: the game is won at once');
    expect(wrapper.get('[data-testid="score-2"]').text()).toBe('52');
    for (const control of ['manual-input', 'card-grid', 'next-deal', 'exchange', 'chicago-call', 'end-exchanges']) expect(wrapper.find(`[data-testid="${control}"]`).exists(), control).toBe(false);
    expect(wrapper.findAll('[data-testid="hand-card"] button')).toHaveLength(0);
    expect(wrapper.findAll('[data-testid="view-game"] [data-legal]')).toHaveLength(0);
    expect(wrapper.find('[data-testid="close-game"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('the royal flush reached by the last card of the exchanges ends the game there and then', async () => {
    const { wrapper } = await gameScreen([chicagoStart(), ...royalDealing().slice(0, 14)]);
    expect(step(wrapper)).toBe('Deal a card to Sanna (1 left)');
    await type(wrapper, '8s');
    await click(wrapper, 'end-exchanges');
    expect(step(wrapper)).toBe('Royal flush: Ville wins the game at once');
    expect(wrapper.find('[data-testid="manual-input"]').exists()).toBe(false);
    // The heading takes the focus, as at the end of any deal: no stray key acts on the finished game.
    expect(document.activeElement).toBe(wrapper.get('#game-title').element);
    wrapper.unmount();
  });

  it.each([
    ['en', 'Not accepted: the game is over: Ville has won with a royal flush; no more cards or actions are taken'],
    ['fi', 'Ei hyväksytty: peli on ohi: Ville voitti kuningasvärisuoralla; enempää kortteja tai toimintoja ei oteta vastaan'],
    ['ru', 'Не принято: игра окончена: победа за игроком Ville — роял-флеш; больше не принимаются ни карты, ни действия'],
  ] as const)('a card scanned after it is refused, said in %s', async (locale, said) => {
    const { wrapper, api, scans } = await gameScreenIn(locale, ROYAL);
    const keyboard = listen(scans);
    keyboard.type('9c', 5);
    keyboard.press(ENTER, 5);
    await settle();
    expect(api.callsOf('dealScan')).toEqual([['game-1', '9c']]);
    expect(wrapper.get('[data-testid="deal-error"]').text()).toBe(said);
    expect(wrapper.get('[data-testid="view-game"]').attributes('data-phase')).toBe('complete');
    wrapper.unmount();
  });
});

describe('points game screen: Chicago house options and the call', () => {
  const DEALT = (options?: Record<string, unknown>) => [chicagoStart(options), ...seedDealing(), { type: 'end-exchanges' } as const];

  it('shows the options chosen at the start (and says none were)', async () => {
    const chosen = await gameScreen([chicagoStart({ handPointsEachExchange: true, chicagoCall: true, buyStop: 42 })]);
    const options = chosen.wrapper.get('[data-testid="game-options"]');
    expect(options.get('.game-options__label').text()).toBe('House options:');
    expect(options.findAll('.game-options__item').map((item) => [item.attributes('data-testid'), item.text()])).toEqual([
      ['game-option-hand-points', 'hand points after every exchange'],
      ['game-option-call', 'the Chicago call'],
      ['game-option-buy-stop', 'buy stop at 42 points'],
    ]);
    chosen.wrapper.unmount();
    const none = await gameScreen([chicagoStart()]);
    expect(none.wrapper.get('[data-testid="game-options"]').text()).toBe('House options: none');
    none.wrapper.unmount();
    const pistepokeri = await gameScreen([startEvent()]);
    expect(pistepokeri.wrapper.find('[data-testid="game-options"]').exists()).toBe(false);
    pistepokeri.wrapper.unmount();
  });

  it('offers the call before the first card, one button per player; the caller then leads', async () => {
    const { wrapper, api } = await gameScreen(DEALT({ chicagoCall: true }));
    expect(step(wrapper)).toBe('Trick 1: Anna to play');
    const buttons = wrapper.findAll('[data-testid="chicago-call"] button');
    expect(buttons.map((button) => button.text())).toEqual(['Anna calls Chicago', 'Ville calls Chicago', 'Sanna calls Chicago']);
    await wrapper.get('[data-testid="call-2"]').trigger('click', { detail: 1 });
    await settle();
    expect(api.callsOf('gameAction')).toEqual([['game-1', { type: 'call', player: 'Ville' }]]);
    expect(step(wrapper)).toBe('Trick 1: Ville to play');
    expect(wrapper.get('[data-testid="chicago-called"]').text()).toBe('Ville has called Chicago: +15 for all five tricks, −15 as soon as a trick is lost.');
    expect(wrapper.find('[data-testid="chicago-call"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('closes the call once the first card is played, and offers none with the option off', async () => {
    const open = await gameScreen(DEALT({ chicagoCall: true }));
    await type(open.wrapper, '5h');
    expect(open.wrapper.find('[data-testid="chicago-call"]').exists()).toBe(false);
    open.wrapper.unmount();
    const off = await gameScreen(DEALT());
    expect(off.wrapper.find('[data-testid="chicago-call"]').exists()).toBe(false);
    off.wrapper.unmount();
  });

  it.each([
    ['fi', 'Ei tehty: Ville on jo ilmoittanut Chicagon'],
    ['ru', 'Не выполнено: Ville уже объявил «Чикаго»'],
  ] as const)('a call the engine refuses (a stale screen) is said in %s', async (locale, said) => {
    const { wrapper, store } = await gameScreenIn(locale, [...DEALT({ chicagoCall: true }), { type: 'call', player: 'Ville' }]);
    await store.run('gameAction', { type: 'call', player: 'Anna' });
    await settle();
    expect(wrapper.get('[data-testid="action-error"]').text()).toBe(said);
    wrapper.unmount();
  });
});

describe("points game screen: Pistepokeri's raise duty, said why in every language", () => {
  it.each([
    ['fi', 'Ei hyväksytty: tikki 1: Ville ei saa pelata korttia K♠: avauskortti on 9♥, ja on pelattava sitä suurempi hertta (kädessä A♥)'],
    ['ru', 'Не принято: взятка 1: Ville не имеет права сыграть K♠: первая карта — 9♥, нужно сыграть старшую карту той же масти (черва) (на руке A♥)'],
  ] as const)('%s: a king of spades to the opening 9♥ while holding A♥', async (locale, said) => {
    const { wrapper } = await gameScreenIn(locale, [...TO_TRICKS, ...seedPlays(1)]);
    await handCard(wrapper, 2, 'Ks').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="deal-error"]').text()).toBe(said);
    wrapper.unmount();
  });
});
