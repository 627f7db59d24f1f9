// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installReadFeedback } from '../composables/readFeedback';
import { installScanner } from '../composables/scanner';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi, type KernelApi, type KernelApiOptions } from '../testing/kernelApi';
import { FINNISH_CARDS, makeSettings } from '../testing/fixtures';
import { TestKeyboard } from '../testing/keyboard';
import { prepare, settle } from '../testing/setup';
import type { ScanStore } from '../stores/scans';
import RaceScreen from './RaceScreen.vue';

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

/** The scanner listening at the window, as the console's App installs it, on a test keyboard's clock. */
function listen(scans: ScanStore): TestKeyboard {
  const keyboard = new TestKeyboard();
  stops.push(installScanner({ onScan: (text) => void scans.scanned(text), timeOf: keyboard.timeOf, now: keyboard.now }));
  return keyboard;
}

const dealtCodes = (wrapper: VueWrapper) => wrapper.findAll('[data-testid="dealt-card"]').map((card) => card.attributes('data-card'));

/** The card source a serial shoe (the test is its reader: station/testing/inProcessApi.ts `shoe`). */
const ON_THE_SHOE = makeSettings({ source: { kind: 'serial', path: '/dev/ttyUSB0' } });

function shoeOf(api: KernelApi) {
  const shoe = api.station.shoe();
  if (shoe === null) throw new Error('no serial card source is open');
  return shoe;
}

async function dealing(options: KernelApiOptions = { race: {} }) {
  const prepared = await prepare({ api: await createKernelApi(options) });
  const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

describe('dealing screen', () => {
  it('shows the next step with the seat name and the progress', async () => {
    const { wrapper } = await dealing();
    expect(wrapper.find('[data-testid="view-dealing"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Deal 3 cards to seat 1 — Matti');
    expect(wrapper.get('[data-testid="deal-progress"]').text()).toContain('Cards dealt: 0 of 7');
    wrapper.unmount();
  });

  it('deals the typed text on Enter, clears the field and shows the card under its seat', async () => {
    const { wrapper, api } = await dealing();
    const input = wrapper.get('[data-testid="manual-input"]');
    expect(document.activeElement).toBe(input.element);
    await input.setValue('as');
    await input.trigger('keydown', { key: 'Enter' });
    await input.trigger('keydown', { key: 'Enter' }); // a second Enter while the first is on its way
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['race-1', 'as']]);
    expect((input.element as HTMLInputElement).value).toBe('');
    const seat = wrapper.get('[data-testid="seat-cards-1"]');
    expect(seat.get('[data-testid="dealt-card"]').attributes('data-card')).toBe('As');
    expect(seat.text()).toContain('A♠');
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Deal 2 cards to seat 1 — Matti');
    wrapper.unmount();
  });

  it('accepts every common notation: 10h and td', async () => {
    const { wrapper, api } = await dealing();
    const input = wrapper.get('[data-testid="manual-input"]');
    for (const text of ['10h', 'td']) {
      await input.setValue(text);
      await wrapper.get('form').trigger('submit');
      await settle();
    }
    expect(api.callsOf('dealCard')).toEqual([['race-1', '10h'], ['race-1', 'td']]);
    expect(wrapper.findAll('[data-testid="seat-cards-1"] [data-testid="dealt-card"]').map((card) => card.text())).toEqual(['10♥', '10♦']);
    wrapper.unmount();
  });

  it('shows the service refusal, keeps the text and does not advance', async () => {
    const { wrapper, api } = await dealing({ race: { cards: ['Ah'] } });
    const input = wrapper.get('[data-testid="manual-input"]');
    await input.setValue('ah');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['race-1', 'ah']]);
    const error = wrapper.get('[data-testid="deal-error"]');
    expect(error.attributes('role')).toBe('alert');
    expect(error.text()).toContain('Card not accepted:');
    expect(error.text()).toContain('A♥ was already dealt (to seat 1)');
    expect((input.element as HTMLInputElement).value).toBe('ah');
    expect(input.attributes('aria-invalid')).toBe('true');
    wrapper.unmount();
  });

  it('explains text that is no card without calling the service', async () => {
    const { wrapper, api } = await dealing();
    const input = wrapper.get('[data-testid="manual-input"]');
    await input.setValue('zz');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([]);
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('“zz” is not a card');
    wrapper.unmount();
  });

  it('voids the last card on Backspace in the empty field, once per key press', async () => {
    const { wrapper, api } = await dealing({ race: { cards: ['Ah', 'Kc'] } });
    const input = wrapper.get('[data-testid="manual-input"]');
    await input.trigger('keydown', { key: 'Backspace', repeat: true });
    await settle();
    expect(api.callsOf('voidCards')).toEqual([]);
    await input.trigger('keydown', { key: 'Backspace' });
    await settle();
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, 'manual correction']]);
    expect(wrapper.findAll('[data-testid="seat-cards-1"] [data-testid="dealt-card"]')).toHaveLength(1);
    expect(wrapper.get('[data-testid="corrections"]').text()).toContain('1 card voided');
    wrapper.unmount();
  });

  it('leaves Backspace alone while the field holds text', async () => {
    const { wrapper, api } = await dealing({ race: { cards: ['Ah'] } });
    const input = wrapper.get('[data-testid="manual-input"]');
    await input.setValue('k');
    await input.trigger('keydown', { key: 'Backspace' });
    await settle();
    expect(api.callsOf('voidCards')).toEqual([]);
    wrapper.unmount();
  });

  it('voids from the visible button, disabled while no card is dealt', async () => {
    const { wrapper, api } = await dealing();
    expect(wrapper.get('[data-testid="void-last"]').attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="grid-card-Qs"]').trigger('click');
    await settle();
    await wrapper.get('[data-testid="void-last"]').trigger('click');
    await settle();
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, 'manual correction']]);
    wrapper.unmount();
  });

  it('deals a tapped card from the 52-card grid, named like A♠', async () => {
    const { wrapper, api } = await dealing();
    const buttons = wrapper.findAll('[data-testid="card-grid"] button');
    expect(buttons).toHaveLength(52);
    expect(buttons[0]?.text()).toBe('A♠');
    expect(buttons[51]?.text()).toBe('2♣');
    expect(wrapper.findAll('[data-testid="card-grid"] > [role="group"]').map((row) => row.attributes('aria-label'))).toEqual([
      'Spades', 'Hearts', 'Diamonds', 'Clubs',
    ]);
    await wrapper.get('[data-testid="grid-card-Td"]').trigger('click');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['race-1', 'Td']]);
    expect(wrapper.get('[data-testid="grid-card-Td"]').attributes('disabled')).toBeDefined();
    wrapper.unmount();
  });

  it('keeps dealt cards tappable while a multi-deck shoe still holds copies', async () => {
    const { wrapper } = await dealing({ race: { decks: 2, cards: ['Td'] } });
    expect(wrapper.get('[data-testid="grid-card-Td"]').attributes('disabled')).toBeUndefined();
    wrapper.unmount();
  });

  it('runs a tie-break the same way', async () => {
    // Two decks: Matti and Teppo both hold A♠ as their best card and race for one chip.
    const counts = [
      { seat: 1, chips: 1, hasOther: true },
      { seat: 2, chips: 1, hasOther: true },
      { seat: 3, chips: 1, hasOther: true },
    ];
    const { wrapper, api } = await dealing({ race: { decks: 2, counts, button: 3, cards: ['As', 'As', '2c'] } });
    expect(wrapper.get('[data-testid="view-dealing"]').attributes('data-status')).toBe('tiebreak');
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Tie-break: deal 1 card to seat 1 — Matti');
    await wrapper.get('[data-testid="grid-card-Kh"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="tiebreak-round"]').text()).toBe('Tie-break round 1');
    expect(wrapper.get('[data-testid="seat-cards-1"]').findAll('[data-round="1"]')).toHaveLength(1);
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Tie-break: deal 1 card to seat 2 — Teppo');
    const input = wrapper.get('[data-testid="manual-input"]');
    await input.setValue('2d');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([['race-1', 'Kh'], ['race-1', '2d']]);
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="winner-1"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('shows the source status and an unreadable code from the shoe', async () => {
    const { wrapper, api } = await dealing({ race: {}, settings: ON_THE_SHOE });
    shoeOf(api).emit({ type: 'status', state: 'reconnecting', code: 'unplugged', message: 'port closed' });
    shoeOf(api).emit({ type: 'unknown', raw: 'X9', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } });
    await settle();
    const status = wrapper.get('[data-testid="source-status"]');
    expect(status.attributes('data-state')).toBe('reconnecting');
    expect(status.text()).toContain('Reconnecting');
    expect(status.text()).toContain('/dev/ttyUSB0');
    expect(status.text()).toContain('The device was unplugged.');
    expect(status.text()).toContain('port closed');
    const input = wrapper.get('[data-testid="last-input"]');
    expect(input.attributes('data-type')).toBe('unknown');
    expect(input.text()).toContain('Unreadable code “X9”');
    expect(input.text()).toContain('not a card code');
    wrapper.unmount();
  });

  it('shows cards arriving from the shoe as the service pushes them', async () => {
    const { wrapper, api } = await dealing();
    await api.dealCard('race-1', 'Ah');
    await settle();
    expect(wrapper.get('[data-testid="seat-cards-1"]').text()).toContain('A♥');
    expect(wrapper.get('[data-testid="seat-cards-1"]').attributes('aria-current')).toBe('step');
    wrapper.unmount();
  });

  it('a card read while the line was noisy waits for the dealer: take it (dealt) or discard it, by buttons only', async () => {
    const { wrapper, api } = await dealing({ race: {}, settings: ON_THE_SHOE });
    // Read while the line is flagged as noisy: suspect, so held for the dealer.
    shoeOf(api).emit({ type: 'card', card: 'Kd', raw: 'KD', suspect: true });
    shoeOf(api).emit({ type: 'card', card: '2c', raw: '2C', suspect: true });
    await settle();
    const panel = wrapper.get('[data-testid="held-card"]');
    expect(panel.attributes('role')).toBe('alert');
    expect(panel.text()).toContain('Read K♦ while the line was noisy. Is it the card you dealt?');
    expect(panel.get('[data-testid="held-more"]').text()).toBe('1 more card waiting');
    // Enter in the card entry never answers for the held card.
    await wrapper.get('[data-testid="manual-input"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(api.callsOf('takeHeldCard')).toEqual([]);
    await wrapper.get('[data-testid="held-take"]').trigger('click');
    await settle();
    expect(api.callsOf('takeHeldCard')).toEqual([['race-1', 1]]);
    expect(wrapper.get('[data-testid="seat-cards-1"]').text()).toContain('K♦');
    expect(wrapper.get('[data-testid="held-card"]').attributes('data-card')).toBe('2c');
    await wrapper.get('[data-testid="held-discard"]').trigger('click');
    await settle();
    expect(api.callsOf('discardHeldCard')).toEqual([['race-1', 2]]);
    expect(wrapper.find('[data-testid="held-card"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('a card read at another seat\'s antenna waits for the dealer: said with both seats, taken for the seat dealt to (issue 26)', async () => {
    const held = [{ id: 1, target: 'race-1', card: 'Kd', raw: '3|04A2B3C4', why: 'seat' as const, reader: '3', readAt: 4, seat: 1 }];
    // Read at another seat's antenna needs a seat map of an RFID table's readers: the card held
    // added to the real service's state of a race just started, on the state-only stub.
    const { current: state } = await createKernelApi({ race: {} });
    const prepared = await prepare({ api: createStubApi({ state: { ...state, held } }) });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    const { api } = prepared;
    const panel = wrapper.get('[data-testid="held-card"]');
    expect([panel.attributes('data-why'), panel.attributes('data-read-at')]).toEqual(['seat', '4']);
    const seat = wrapper.find('[data-testid^="seat-cards-"][aria-current="step"]').attributes('data-testid')?.replace('seat-cards-', '');
    expect(panel.text()).toContain(`Read K♦ at seat 4’s antenna; the deal is at seat ${seat ?? ''}.`);
    expect(wrapper.get('[data-testid="held-take"]').text()).toBe(`Take K♦ for seat ${seat ?? ''}`);
    expect(wrapper.get('[data-testid="held-discard"]').text()).toBe('Discard K♦');
    await wrapper.get('[data-testid="held-take"]').trigger('click');
    await settle();
    expect(api.callsOf('takeHeldCard')).toEqual([['race-1', 1]]);
    wrapper.unmount();
  });

  it('deals the Finnish example to its result', async () => {
    const { wrapper } = await dealing();
    const input = wrapper.get('[data-testid="manual-input"]');
    for (const card of FINNISH_CARDS) {
      await input.setValue(card.toLowerCase());
      await wrapper.get('form').trigger('submit');
      await settle();
    }
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    wrapper.unmount();
  });
});

describe('dealing screen: the keyboard-wedge scanner', () => {
  it('deals the scanned card wherever the focus is: on Void, on a grid card, on the page', async () => {
    const { wrapper, api, scans } = await dealing({ race: { cards: ['Ah'] } });
    const keyboard = listen(scans);

    (wrapper.get('[data-testid="void-last"]').element as HTMLElement).focus();
    keyboard.scan('Kc');
    await settle();
    expect(api.callsOf('voidCards')).toEqual([]);
    expect(dealtCodes(wrapper)).toEqual(['Ah', 'Kc']);

    (wrapper.get('[data-testid="grid-card-Qs"]').element as HTMLElement).focus();
    keyboard.scan('2D');
    await settle();
    expect(api.callsOf('dealCard')).toEqual([]);
    expect(dealtCodes(wrapper)).toEqual(['Ah', 'Kc', '2d']);

    (document.activeElement as HTMLElement).blur();
    keyboard.scan(']E0TS', { layout: 'ru' });
    await settle();
    expect(api.callsOf('dealScan')).toEqual([['race-1', 'Kc'], ['race-1', '2D'], ['race-1', ']E0TS']]);
    expect(dealtCodes(wrapper)).toEqual(['Ah', 'Kc', '2d', 'Ts']);
    expect((wrapper.get('[data-testid="manual-input"]').element as HTMLInputElement).value).toBe('');
    wrapper.unmount();
  });

  it('leaves a dealer typing slowly in the entry field alone: the typed card is dealt as typed', async () => {
    const { wrapper, api, scans } = await dealing();
    const keyboard = listen(scans);
    const input = wrapper.get('[data-testid="manual-input"]');
    expect(document.activeElement).toBe(input.element);
    keyboard.type('as', 160);
    keyboard.press({ code: 'Enter', key: 'Enter' }, 160);
    await settle();
    expect(api.callsOf('dealScan')).toEqual([]);
    expect(api.callsOf('dealCard')).toEqual([['race-1', 'as']]);
    wrapper.unmount();
  });

  it('says a refused scan in the headline itself, and what to do, until the next card is taken', async () => {
    const { wrapper, scans } = await dealing({ race: { cards: ['Ah'] } });
    const keyboard = listen(scans);
    const step = () => wrapper.get('[data-testid="next-step"]');

    keyboard.scan('AH');
    await settle();
    expect(step().text()).toBe('Scanned A♥ not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card. Deal 2 cards to seat 1 — Matti');
    expect(step().attributes('data-refused')).toBe('scan');
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('A♥ was already dealt (to seat 1)');

    keyboard.scan('X9');
    await settle();
    expect(step().text()).toBe('Scanned “X9”: not a card. Scan it again. Deal 2 cards to seat 1 — Matti');

    keyboard.scan('KC');
    await settle();
    expect(step().text()).toBe('Deal 1 card to seat 1 — Matti');
    expect(step().attributes('data-refused')).toBeUndefined();
    expect(wrapper.find('[data-testid="deal-error"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('names a refused scan by the card the service decoded (the scanner on suit-number: S11 is J♠), never by a reading of its own', async () => {
    const { wrapper, api, scans } = await dealing({ race: { cards: ['Js'] } });
    const keyboard = listen(scans);
    const step = () => wrapper.get('[data-testid="next-step"]');
    const duplicate = { key: 'race.refused.duplicate', params: { card: { card: 'Js' }, seats: { seats: [{ seat: 1 }] } } };
    api.cann('dealScan', { ok: false, error: { field: 'card', message: 'Js was already dealt (to seat 1)', said: duplicate, card: 'Js' } });
    keyboard.scan('S11');
    await settle();
    expect(step().text()).toMatch(/^Scanned J♠ not accepted: J♠ was already dealt \(to seat 1\)/);
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('J♠ was already dealt (to seat 1)');
    // Text the scanner's profile found no card in is quoted as typed, even where another notation reads a card in it.
    api.cann('dealScan', { ok: false, error: { field: 'scan', message: '"Tc": not a suit letter and rank number (e.g. S01, D12) (decoder suit-number)' } });
    keyboard.scan('Tc');
    await settle();
    expect(step().text()).toMatch(/^Scanned “Tc”: not a card\. Scan it again\./);
    wrapper.unmount();
  });

  it.each([
    ['fi', 'Kengän lukemaa korttia A♥ ei hyväksytty: A♥ on jo jaettu (paikka 1), ja kengässä on yksi pakka: väärin luettu tai väärin jaettu kortti; tarkista kortti. Jaa 2 korttia: paikka 1 — Matti'],
    ['ru', 'Карта A♥ из шуза не принята: A♥ уже роздана (место 1), а в шузе одна колода: ошибка чтения или раздачи; проверьте карту. Сдайте 2 карты: место 1 — Matti'],
  ] as const)('says why the shoe card was refused in %s, the card as a card', async (locale, headline) => {
    const prepared = await prepare({ locale, api: await createKernelApi({ race: { cards: ['Ah'] }, settings: ON_THE_SHOE }) });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    // The shoe reads A♥ again: the service refuses it.
    shoeOf(prepared.api).emit({ type: 'card', card: 'Ah', raw: 'AH' });
    await settle();
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe(headline);
    expect(prepared.missing).toEqual([]);
    wrapper.unmount();
  });

  it('says a card the shoe read and the service refused in the headline itself, until the next card is taken', async () => {
    const { wrapper, api } = await dealing({ race: { cards: ['Ah'] }, settings: ON_THE_SHOE });
    const step = () => wrapper.get('[data-testid="next-step"]');

    shoeOf(api).emit({ type: 'card', card: 'Ah', raw: 'AH' });
    await settle();
    // The service's refusal carries its reason in keys: the headline says it (the fake's had none: "check the card").
    expect(step().text()).toBe('A♥ from the shoe not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card. Deal 2 cards to seat 1 — Matti');
    expect(step().attributes('data-refused')).toBe('shoe');
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('A♥ was already dealt (to seat 1)');

    shoeOf(api).emit({ type: 'card', card: 'Kc', raw: 'KC' });
    await settle();
    expect(step().text()).toBe('Deal 1 card to seat 1 — Matti');
    expect(step().attributes('data-refused')).toBeUndefined();
    wrapper.unmount();
  });

  it('flashes the card just taken and sounds it; a refusal sounds another tone', async () => {
    const { wrapper, store, scans } = await dealing({ race: { cards: ['Ah'] } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const tones: string[] = [];
      stops.push(installReadFeedback(store, (tone) => tones.push(tone)));
      await scans.dealScan('Kc');
      await wrapper.vm.$nextTick();
      const flashed = wrapper.findAll('[data-flash="true"]');
      expect(flashed.map((card) => card.attributes('data-card'))).toEqual(['Kc']);
      expect(flashed[0]?.classes()).toContain('dealt-card--flash');
      await scans.dealScan('Kc');
      await wrapper.vm.$nextTick();
      expect(tones).toEqual(['accepted', 'refused']);
      vi.advanceTimersByTime(1000);
      await wrapper.vm.$nextTick();
      expect(wrapper.findAll('[data-flash="true"]')).toHaveLength(0);
      wrapper.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('redraws the seats and the grid a card changes, moves the flash between seats, and says everything again in a new language', async () => {
    // SeatCards and CardGrid keep what a card does not change (v-memo): what does change must still show.
    const { wrapper, store, api, i18n } = await dealing({ race: { cards: ['Ah', 'Kc'] } });
    // (The flash's 0.9 s timer runs on real time: each card below comes well within it.)
    stops.push(installReadFeedback(store, () => undefined));
    const seat = (number: number) => wrapper.get(`[data-testid="seat-cards-${number}"]`);
    await api.dealCard('race-1', '2d');
    await settle();
    expect(wrapper.findAll('[data-flash="true"]').map((card) => card.attributes('data-card'))).toEqual(['2d']);
    expect(seat(1).text()).toContain('3 / 3');
    expect(wrapper.get('[data-testid="grid-card-2d"]').classes()).toContain('card-grid__card--dealt');
    // The next card goes to seat 2: seat 1's card stops flashing, seat 2's starts.
    await api.dealCard('race-1', 'Ts');
    await settle();
    expect(wrapper.findAll('[data-flash="true"]').map((card) => card.attributes('data-card'))).toEqual(['Ts']);
    expect(seat(1).find('[data-flash="true"]').exists()).toBe(false);
    expect(seat(2).text()).toContain('1 / 2');
    expect(wrapper.get('[data-testid="grid-card-Ts"]').classes()).toContain('card-grid__card--dealt');
    expect(seat(3).text()).toContain('No cards yet');
    i18n.global.locale.value = 'fi';
    await settle();
    expect(seat(3).text()).toContain('Ei vielä kortteja');
    expect(seat(1).get('ul').attributes('aria-label')).toBe('Kortit: Paikka 1 — Matti');
    expect(wrapper.get('[data-testid="card-grid"]').attributes('aria-label')).toBe('Korttiruudukko: napauta jaettua korttia');
    expect(wrapper.get('[data-testid="card-grid"] [role="group"]').attributes('aria-label')).toBe('Pata');
    wrapper.unmount();
  });

  it('gives the focus back to the entry field after a tap on the grid and after Void', async () => {
    const { wrapper } = await dealing();
    const input = wrapper.get('[data-testid="manual-input"]').element;
    const queen = wrapper.get('[data-testid="grid-card-Qs"]');
    (queen.element as HTMLElement).focus();
    await queen.trigger('click');
    expect(document.activeElement).toBe(input);
    await settle();
    expect(document.activeElement).toBe(input);
    const voidButton = wrapper.get('[data-testid="void-last"]');
    (voidButton.element as HTMLElement).focus();
    await voidButton.trigger('click');
    await settle();
    expect(dealtCodes(wrapper)).toEqual([]);
    expect(document.activeElement).toBe(input);
    wrapper.unmount();
  });
});

describe('numbers on the dealing screen', () => {
  it.each([
    ['en', '1,000 → 5,000'],
    ['fi', '1\u00a0000 → 5\u00a0000'],
    ['ru', '1\u00a0000 → 5\u00a0000'],
  ] as const)('are written the %s way', async (locale, chips) => {
    const prepared = await prepare({ api: await createKernelApi({ race: { removed: 1000, next: 5000 }, settings: makeSettings({ table: { chipSet: [1000, 5000] } }) }), locale });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins } });
    expect(wrapper.get('.view__header .detail').text()).toContain(chips);
    expect(prepared.missing).toEqual([]);
    wrapper.unmount();
  });
});
