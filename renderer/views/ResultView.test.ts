// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { installScanner } from '../composables/scanner';
import { createKernelApi, type KernelApiOptions } from '../testing/kernelApi';
import { FINNISH_CARDS } from '../testing/fixtures';
import { ENTER, SPACE, TestKeyboard } from '../testing/keyboard';
import { prepare, settle } from '../testing/setup';
import type { ScanStore } from '../stores/scans';
import RaceScreen from './RaceScreen.vue';

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

async function result(options: KernelApiOptions) {
  const prepared = await prepare({ api: await createKernelApi(options) });
  const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

describe('result screen', () => {
  it('shows the Finnish example: Matti and Teppo win, value +25', async () => {
    const { wrapper } = await result({ race: { cards: FINNISH_CARDS } });
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    const winners = wrapper.get('[data-testid="winners"]');
    expect(winners.findAll('li').map((li) => li.attributes('data-testid'))).toEqual(['winner-1', 'winner-2']);
    expect(wrapper.get('[data-testid="winner-1"]').text()).toContain('Seat 1 — Matti');
    expect(wrapper.get('[data-testid="winner-1"]').text()).toContain('A♥');
    expect(wrapper.get('[data-testid="winner-2"]').text()).toContain('Seat 2 — Teppo');
    expect(wrapper.get('[data-testid="winner-2"]').attributes('data-card')).toBe('Ts');
    expect(wrapper.get('[data-testid="value-delta"]').text()).toBe('+25');
    expect(wrapper.get('[data-testid="remove-chips"]').text()).toBe('Remove all odd 25 chips: 7 × 25 = 175.');
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Give one 100 chip each — race: seat 1 — Matti (A♥), seat 2 — Teppo (10♠); remove all odd 25 chips');
    // The heading has the focus, not the confirm button: no stray Enter confirms the race.
    expect(document.activeElement).toBe(wrapper.get('#result-title').element);
    expect(document.activeElement).not.toBe(wrapper.get('[data-testid="confirm-race"]').element);
    wrapper.unmount();
  });

  it('explains the decision in translated lines, with the stored English record apart', async () => {
    const { wrapper } = await result({ race: { cards: FINNISH_CARDS } });
    const lines = wrapper.findAll('[data-testid="explanation"] li').map((li) => li.text());
    expect(lines).toContain('Seat 1 — Matti: trades 4 × 25 for 1 × 100, keeps 3 odd');
    expect(lines).toContain('Pool: 7 odd × 25 = 175 → 1 whole 100, 75 over ≥ half of 100 → 2 chips to race');
    expect(lines).toContain('Seat 2 — Teppo wins a 100 with 10♠');
    expect(lines).toContain('Value: 200 given for 175 removed (+25)');
    expect(wrapper.get('[data-testid="explanation-record"]').attributes('lang')).toBe('en');
    wrapper.unmount();
  });

  it.each([
    ['fi', 'Anna kullekin yksi pelimerkki (100) — arvonta: paikka 1 — Matti (A♥), paikka 2 — Teppo (10♠); poista kaikki ylijäämämerkit (25)', 'Paikka 1 — Matti vaihtaa 4 × 25 → 1 × 100, ylijäämä 3'],
    ['ru', 'Дайте по одной фишке 100 — чип-рейс: место 1 — Matti (A♥), место 2 — Teppo (10♠); уберите все лишние фишки 25', 'Место 1 — Matti меняет 4 × 25 на 1 × 100, лишних 3'],
  ] as const)('says the engine’s next step and explanation in %s, cards as cards', async (locale, next, trade) => {
    const prepared = await prepare({ locale, api: await createKernelApi({ race: { cards: FINNISH_CARDS } }) });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe(next);
    const lines = wrapper.findAll('[data-testid="explanation"] li').map((li) => li.text());
    expect(lines).toContain(trade);
    for (const line of lines) expect(line).not.toMatch(/\b(?:Seat|seat|trades|keeps|Pool|wins|Value|Rules|Deal)\b|\b[2-9TJQKA][shdc]\b/);
    expect(prepared.missing).toEqual([]);
    wrapper.unmount();
  });

  it('lists protected players and a negative value', async () => {
    // Matti is broke with one odd chip: exempt under classic, gets a chip; the pool is empty.
    const counts = [
      { seat: 1, chips: 1, hasOther: false },
      { seat: 2, chips: 0, hasOther: true },
    ];
    const { wrapper } = await result({ race: { counts } });
    expect(wrapper.get('[data-testid="protected-1"]').text()).toContain('Seat 1 — Matti');
    expect(wrapper.find('[data-testid="no-winners"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="value-delta"]').text()).toBe('+75');
    wrapper.unmount();
  });

  it('shows a removed value with its sign', async () => {
    const counts = [
      { seat: 1, chips: 1, hasOther: true },
      { seat: 2, chips: 0, hasOther: true },
    ];
    const { wrapper } = await result({ race: { counts } });
    expect(wrapper.get('[data-testid="value-delta"]').text()).toBe('-25');
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('No 100 chips to give; remove all odd 25 chips');
    wrapper.unmount();
  });

  it('confirms the race into the history', async () => {
    const { wrapper, api, store } = await result({ race: { cards: FINNISH_CARDS } });
    await wrapper.get('[data-testid="confirm-race"]').trigger('click');
    await settle();
    expect(api.callsOf('confirmRace')).toEqual([['race-1']]);
    expect(store.state?.history).toMatchObject({ total: 1, latest: { id: 'race-1' } });
    expect(store.view).toBe('history');
    wrapper.unmount();
  });

  it('voids the last card for a late correction and goes back to dealing', async () => {
    const { wrapper, api } = await result({ race: { cards: FINNISH_CARDS } });
    await wrapper.get('[data-testid="void-last"]').trigger('click');
    await settle();
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, 'manual correction']]);
    expect(wrapper.find('[data-testid="view-dealing"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Deal 1 card to seat 3 — Johanna');
    wrapper.unmount();
  });

  it('voids the last card on Backspace, as on the dealing screen', async () => {
    const { wrapper, api } = await result({ race: { cards: FINNISH_CARDS } });
    await wrapper.get('[data-testid="confirm-race"]').trigger('keydown', { key: 'Backspace' });
    await settle();
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, 'manual correction']]);
    expect(wrapper.find('[data-testid="view-dealing"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('shows a refused confirmation', async () => {
    const api = await createKernelApi({ race: { cards: FINNISH_CARDS } });
    api.cann('confirmRace', { ok: false, error: { field: 'journal', message: 'disk full' } });
    const prepared = await prepare({ api });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins } });
    await wrapper.get('[data-testid="confirm-race"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="confirm-error"]').text()).toBe('Not saved: disk full');
    wrapper.unmount();
  });
});

describe('result screen: confirming takes a deliberate press', () => {
  it('is not confirmed by a scan with the focus on Confirm: the scan is refused and said, nothing voided', async () => {
    const { wrapper, api, scans } = await result({ race: { cards: FINNISH_CARDS } });
    const keyboard = listen(scans);
    const confirm = wrapper.get('[data-testid="confirm-race"]');
    (confirm.element as HTMLElement).focus();
    keyboard.scan('Kc');
    await settle();
    expect(api.callsOf('confirmRace')).toEqual([]);
    expect(api.callsOf('voidCards')).toEqual([]);
    expect(api.callsOf('dealScan')).toEqual([['race-1', 'Kc']]);
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe(
      'Scanned K♣ not accepted: K♣ is one card more than the race needs: the race is complete (void a card first to correct one). Give one 100 chip each — race: seat 1 — Matti (A♥), seat 2 — Teppo (10♠); remove all odd 25 chips',
    );
    expect(wrapper.get('[data-testid="deal-error"]').text()).toContain('the race is complete');
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('is not confirmed by an Enter right on the heels of another key', async () => {
    const { wrapper, api, scans } = await result({ race: { cards: FINNISH_CARDS } });
    const keyboard = listen(scans);
    (wrapper.get('[data-testid="confirm-race"]').element as HTMLElement).focus();
    keyboard.wait(1000);
    keyboard.type('x', 4);
    keyboard.press(ENTER, 4);
    await settle();
    expect(api.callsOf('confirmRace')).toEqual([]);
    wrapper.unmount();
  });

  it('is confirmed by a deliberate Enter on the focused button (keyboard users can confirm)', async () => {
    const { wrapper, api, scans } = await result({ race: { cards: FINNISH_CARDS } });
    const keyboard = listen(scans);
    (wrapper.get('[data-testid="confirm-race"]').element as HTMLElement).focus();
    keyboard.press(ENTER, 2000);
    await settle();
    expect(api.callsOf('confirmRace')).toEqual([['race-1']]);
    wrapper.unmount();
  });

  it('is confirmed by a deliberate Space on the focused button', async () => {
    const { wrapper, api, scans } = await result({ race: { cards: FINNISH_CARDS } });
    const keyboard = listen(scans);
    (wrapper.get('[data-testid="confirm-race"]').element as HTMLElement).focus();
    keyboard.press(SPACE, 2000);
    await settle();
    expect(api.callsOf('confirmRace')).toEqual([['race-1']]);
    wrapper.unmount();
  });
});
