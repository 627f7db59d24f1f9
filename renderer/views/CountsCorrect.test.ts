// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS, makeTournamentState } from '../testing/fixtures';
import { wallClock } from '../../protocol/colorUp';
import { prepare, settle } from '../testing/setup';
import type { Locale } from '../i18n';
import CountsView from './CountsView.vue';

// Issue 41: counts safe to correct. A count tapped, focused or moved onto with Enter is selected,
// so what is typed or keyed next replaces it; a count far past a stack is asked about once before
// the race starts; a refused start is disabled with its reason beside it.

async function counts(given?: KernelApi, locale: Locale = 'en') {
  const prepared = await prepare({ api: given ?? (await createKernelApi()), locale });
  const wrapper = mount(CountsView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}
type Wrapper = Awaited<ReturnType<typeof counts>>['wrapper'];

const field = (wrapper: Wrapper, seat: number) => wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`);
const value = (wrapper: Wrapper, seat: number) => (field(wrapper, seat).element as HTMLInputElement).value;

async function enter(wrapper: Wrapper, values: Record<number, number>) {
  for (const [seat, chips] of Object.entries(values)) await field(wrapper, Number(seat)).setValue(String(chips));
  await settle();
}

/** A tap on a count as a finger makes it: the pointer down, the focus, the click. */
async function tapCount(wrapper: Wrapper, seat: number) {
  const input = field(wrapper, seat);
  await input.trigger('pointerdown');
  (input.element as HTMLInputElement).focus();
  await input.trigger('click', { detail: 1 });
  await settle();
}

async function key(wrapper: Wrapper, testid: string) {
  await wrapper.get(`[data-testid="${testid}"]`).trigger('click', { detail: 1 });
  await settle();
}

afterEach(() => vi.restoreAllMocks());

describe('a count corrected replaces what it held', () => {
  it('selects a count’s contents on a focus, a tap, and Enter’s move onto it', async () => {
    const { wrapper } = await counts();
    await enter(wrapper, { 1: 9, 2: 4, 3: 2 });
    const selected: string[] = [];
    vi.spyOn(HTMLInputElement.prototype, 'select').mockImplementation(function (this: HTMLInputElement) {
      selected.push(this.dataset.testid ?? '');
    });
    (field(wrapper, 1).element as HTMLInputElement).focus();
    expect(selected).toEqual(['counts-seat-1-chips']);
    // A tap on the count already focused selects it again (a caret put there would make 98 of 9 and 8).
    await field(wrapper, 1).trigger('click', { detail: 1 });
    expect(selected).toEqual(['counts-seat-1-chips', 'counts-seat-1-chips']);
    await field(wrapper, 1).trigger('keydown', { key: 'Enter' });
    expect(document.activeElement).toBe(field(wrapper, 2).element);
    expect(selected.at(-1)).toBe('counts-seat-2-chips');
    wrapper.unmount();
  });

  it('the keypad: the first key after a tap on a count replaces it (7 over 9 is 7), the keys after it add on', async () => {
    const { wrapper } = await counts();
    await enter(wrapper, { 1: 9, 2: 4, 3: 2 });
    await tapCount(wrapper, 1);
    expect(wrapper.get('[data-testid="count-keypad"]').attributes('data-seat')).toBe('1');
    await key(wrapper, 'keypad-digit-7');
    expect(value(wrapper, 1)).toBe('7');
    await key(wrapper, 'keypad-digit-3');
    expect(value(wrapper, 1)).toBe('73');
    // Tapped again: the next key replaces again; ⌫ first takes the whole count, as on a selection.
    await tapCount(wrapper, 1);
    await key(wrapper, 'keypad-erase');
    expect(value(wrapper, 1)).toBe('');
    await key(wrapper, 'keypad-digit-5');
    expect(value(wrapper, 1)).toBe('5');
    // Next moves onto seat 2, holding 4: its first key replaces too.
    await key(wrapper, 'keypad-next');
    expect(document.activeElement).toBe(field(wrapper, 2).element);
    await key(wrapper, 'keypad-digit-6');
    expect(value(wrapper, 2)).toBe('6');
    // 0 on a count just moved onto is "none", and on: seat 3's 2 becomes 0.
    await key(wrapper, 'keypad-next');
    await key(wrapper, 'keypad-digit-0');
    expect(value(wrapper, 3)).toBe('0');
    wrapper.unmount();
  });
});

describe('the keypad’s Next past the last count', () => {
  it('gives Start race the focus once it is enabled, though the counts’ preview came back after the tap', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 7, 2: 2 });
    // The preview of the last count held back, as a loaded machine or a slow link holds it.
    const preview = api.previewRace.bind(api);
    let release = (): void => undefined;
    (api as { previewRace: typeof api.previewRace }).previewRace = (...args) => new Promise((resolve) => {
      release = () => resolve(preview(...args));
    });
    await tapCount(wrapper, 3);
    await key(wrapper, 'keypad-digit-2');
    await key(wrapper, 'keypad-next');
    const start = wrapper.get('[data-testid="start-race"]').element as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(document.activeElement).not.toBe(start);
    release();
    await settle();
    expect(start.disabled).toBe(false);
    // Before: the focus was given while Start race was disabled, and so went nowhere.
    expect(document.activeElement).toBe(start);
    wrapper.unmount();
  });
});

describe('a count far past a stack is asked about once before the race starts', () => {
  it.each([
    ['en', 'More 25 chips than a stack holds: Seat 2 — Teppo: 44. Are these counts right?'],
    ['fi', 'Enemmän merkkejä 25 kuin pinossa on: Paikka 2 — Teppo: 44. Ovatko määrät oikein?'],
    ['ru', 'Фишек 25 больше, чем в стопке: Место 2 — Teppo: 44. Подсчёт верен?'],
  ] as const)('in %s: names the seat and the count; the confirmed counts start, and are not asked about again', async (locale, question) => {
    const api = await createKernelApi();
    const { wrapper, missing } = await counts(api, locale);
    await enter(wrapper, { 1: 7, 2: 44, 3: 2 });
    await key(wrapper, 'start-race');
    expect(api.callsOf('startRace')).toEqual([]);
    expect(wrapper.get('[data-testid="counts-unlikely-question"]').text()).toBe(question);
    expect(document.activeElement).toBe(wrapper.get('[data-testid="counts-unlikely"]').element);
    // The question stands where Start race stood: its "Yes, start" is the start.
    expect(wrapper.find('[data-testid="start-race"]').exists()).toBe(false);
    await key(wrapper, 'counts-unlikely-confirm');
    expect(api.callsOf('startRace')).toEqual([[[{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 44, hasOther: true }, { seat: 3, chips: 2, hasOther: true }]]]);
    expect(missing).toEqual([]);
    wrapper.unmount();
  });

  it('"Correct it" goes back to the count, selected; corrected, the race starts with no question; Enter on the last count asks too', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 7, 2: 98, 3: 2 });
    await field(wrapper, 3).trigger('keydown', { key: 'Enter' });
    await settle();
    expect(wrapper.find('[data-testid="counts-unlikely"]').exists()).toBe(true);
    const selected: string[] = [];
    vi.spyOn(HTMLInputElement.prototype, 'select').mockImplementation(function (this: HTMLInputElement) {
      selected.push(this.dataset.testid ?? '');
    });
    await wrapper.get('[data-testid="counts-unlikely-correct"]').trigger('click', { detail: 1 });
    await settle();
    expect(wrapper.find('[data-testid="counts-unlikely"]').exists()).toBe(false);
    expect(document.activeElement).toBe(field(wrapper, 2).element);
    expect(selected).toEqual(['counts-seat-2-chips']);
    await enter(wrapper, { 2: 9 });
    await key(wrapper, 'start-race');
    expect(api.callsOf('startRace')).toHaveLength(1);
    wrapper.unmount();
  });

  it('asks nothing of counts within two stacks (40 at 25 → 100)', async () => {
    const api = await createKernelApi();
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 40, 2: 2, 3: 2 });
    await key(wrapper, 'start-race');
    expect(wrapper.find('[data-testid="counts-unlikely"]').exists()).toBe(false);
    expect(api.callsOf('startRace')).toHaveLength(1);
    wrapper.unmount();
  });
});

describe('a refused Start race', () => {
  it('is disabled with its reason beside it, in the start block; changed counts may try again', async () => {
    const CONFIRMED = '2024-05-04T18:34:00.000Z';
    const colorUp = { afterLevel: 2, done: [{ raceId: 'race-1', removed: 25, next: 100, confirmedAt: CONFIRMED }], running: null };
    const api = await createKernelApi({ at: Date.parse(CONFIRMED), settings: makeTournamentState().settings, markBreak: 2, history: [{ cards: FINNISH_CARDS }] });
    expect(api.current.colorUp).toEqual(colorUp);
    const { wrapper } = await counts(api);
    await enter(wrapper, { 1: 7, 2: 2, 3: 2 });
    const start = wrapper.get('[data-testid="start-race"]');
    expect(start.attributes('disabled')).toBeUndefined();
    await key(wrapper, 'start-race');
    expect(start.attributes('disabled')).toBeDefined();
    const block = wrapper.get('[data-testid="start-race-block"]');
    expect(block.get('[data-testid="start-error"]').text()).toContain(`race-1 confirmed at ${wallClock(CONFIRMED)}`);
    expect(start.attributes('aria-describedby')).toBe('start-race-why');
    await enter(wrapper, { 1: 6 });
    expect(start.attributes('disabled')).toBeUndefined();
    wrapper.unmount();
  });

  it('says beside it why it waits: counts missing, or one that is no whole number', async () => {
    const { wrapper } = await counts(await createKernelApi());
    const block = wrapper.get('[data-testid="start-race-block"]');
    expect(block.get('[data-testid="counts-incomplete"]').text()).toContain('Enter a count for every seat');
    await field(wrapper, 1).setValue('2.5');
    await settle();
    expect(block.get('[data-testid="counts-invalid-1"]').text()).toContain('Seat 1 — Matti: enter a whole number');
    wrapper.unmount();
  });
});
