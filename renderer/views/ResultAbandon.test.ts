// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createKernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import type { Locale } from '../i18n';
import RaceScreen from './RaceScreen.vue';

// Issue 41: a wrong result is left by Abandon (with its reason, one tap away), not only by voiding
// card after card; the counts screen then shows the abandoned race's counts for the re-race.

async function result(locale: Locale = 'en') {
  const prepared = await prepare({ locale, api: await createKernelApi({ race: { cards: FINNISH_CARDS } }) });
  const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}
type Wrapper = Awaited<ReturnType<typeof result>>['wrapper'];

async function press(wrapper: Wrapper, testid: string) {
  await wrapper.get(`[data-testid="${testid}"]`).trigger('click', { detail: 1 });
  await settle();
}

describe('the result screen’s Abandon', () => {
  it.each([
    ['en', 'No, keep the result', 'Race abandoned. Its counts are back: correct what was wrong, then start again.'],
    ['fi', 'Ei, pidä tulos', 'Arvonta keskeytetty. Sen laskenta on tallella: korjaa väärä määrä ja aloita uudelleen.'],
    ['ru', 'Нет, оставить результат', 'Чип-рейс прерван. Его подсчёт сохранён: исправьте ошибку и начните снова.'],
  ] as const)('in %s: asked, a reason tapped, abandoned with it; the counts screen shows the race’s counts again', async (locale, keep, notice) => {
    const { wrapper, api, missing } = await result(locale);
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    await press(wrapper, 'abandon-race');
    expect(wrapper.get('[data-testid="abandon-cancel"]').text()).toBe(keep);
    // Disabled until there is a reason; one tap gives it.
    expect(wrapper.get('[data-testid="abandon-confirm"]').attributes('disabled')).toBeDefined();
    await press(wrapper, 'abandon-reason-wrongCounts');
    await press(wrapper, 'abandon-confirm');
    expect(api.callsOf('abandonRace')).toHaveLength(1);
    expect(api.callsOf('abandonRace')[0]?.[0]).toBe('race-1');
    expect(wrapper.find('[data-testid="view-counts"]').exists()).toBe(true);
    const values = [1, 2, 3].map((seat) => (wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).element as HTMLInputElement).value);
    expect(values).toEqual(['7', '2', '2']);
    expect(wrapper.get('[data-testid="notice"]').text()).toBe(notice);
    expect(missing).toEqual([]);
    wrapper.unmount();
  });

  it('cancelled, the result stays and nothing is abandoned', async () => {
    const { wrapper, api } = await result();
    await press(wrapper, 'abandon-race');
    await press(wrapper, 'abandon-cancel');
    expect(api.callsOf('abandonRace')).toEqual([]);
    expect(wrapper.find('[data-testid="view-result"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="abandon-race"]').exists()).toBe(true);
    wrapper.unmount();
  });
});
