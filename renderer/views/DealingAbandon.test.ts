// @vitest-environment happy-dom
// Abandoning a race asks why (required): a common reason in one tap or the dealer's own words,
// the Abandon button disabled until there is one, and no single key that abandons.
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createKernelApi } from '../testing/kernelApi';
import { prepare, settle } from '../testing/setup';
import type { Locale } from '../i18n';
import RaceScreen from './RaceScreen.vue';

async function dealing(locale: Locale = 'en') {
  const prepared = await prepare({ api: await createKernelApi({ race: {} }), locale });
  const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  await wrapper.get('[data-testid="abandon-race"]').trigger('click');
  return { ...prepared, wrapper };
}

const confirmDisabled = (wrapper: Awaited<ReturnType<typeof dealing>>['wrapper']) => wrapper.get('[data-testid="abandon-confirm"]').attributes('disabled') !== undefined;

describe('abandoning a race', () => {
  it('asks a reason first: Abandon stays disabled until one is tapped; the reason tapped is sent', async () => {
    const { wrapper, api, store } = await dealing();
    expect(wrapper.get('[data-testid="abandon-reason"]').text()).toContain('Why is the race abandoned?');
    expect(wrapper.get('[data-testid="abandon-reason-needed"]').text()).toBe('Tap a reason or type one: the race cannot be abandoned without it.');
    expect(confirmDisabled(wrapper)).toBe(true);
    await wrapper.get('[data-testid="abandon-confirm"]').trigger('click');
    await settle();
    expect(api.callsOf('abandonRace')).toEqual([]);

    await wrapper.get('[data-testid="abandon-reason-misdeal"]').trigger('click');
    expect((wrapper.get('[data-testid="abandon-reason-text"]').element as HTMLInputElement).value).toBe('Misdeal');
    expect(wrapper.get('[data-testid="abandon-reason-misdeal"]').attributes('aria-pressed')).toBe('true');
    expect(wrapper.find('[data-testid="abandon-reason-needed"]').exists()).toBe(false);
    expect(confirmDisabled(wrapper)).toBe(false);
    await wrapper.get('[data-testid="abandon-confirm"]').trigger('click');
    await settle();
    expect(api.callsOf('abandonRace')).toEqual([['race-1', 'Misdeal']]);
    expect(store.race).toBeNull();
    expect(wrapper.find('[data-testid="view-counts"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('takes the dealer’s own words, trimmed; spaces alone are no reason', async () => {
    const { wrapper, api } = await dealing();
    const text = wrapper.get('[data-testid="abandon-reason-text"]');
    await text.setValue('   ');
    expect(confirmDisabled(wrapper)).toBe(true);
    await wrapper.get('[data-testid="abandon-reason-tableBroken"]').trigger('click');
    await text.setValue('  Table broken, players moved to table 4 ');
    expect(wrapper.get('[data-testid="abandon-reason-tableBroken"]').attributes('aria-pressed')).toBe('false');
    await wrapper.get('[data-testid="abandon-confirm"]').trigger('click');
    await settle();
    expect(api.callsOf('abandonRace')).toEqual([['race-1', 'Table broken, players moved to table 4']]);
    wrapper.unmount();
  });

  it('abandons on no single key: Enter in the reason field sends nothing; cancelled and asked again, the reason starts blank', async () => {
    const { wrapper, api, store } = await dealing();
    await wrapper.get('[data-testid="abandon-reason-floorCalled"]').trigger('click');
    await wrapper.get('[data-testid="abandon-reason-text"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(api.callsOf('abandonRace')).toEqual([]);
    await wrapper.get('[data-testid="abandon-cancel"]').trigger('click');
    await wrapper.get('[data-testid="abandon-race"]').trigger('click');
    expect((wrapper.get('[data-testid="abandon-reason-text"]').element as HTMLInputElement).value).toBe('');
    expect(confirmDisabled(wrapper)).toBe(true);
    expect(store.race).not.toBeNull();
    wrapper.unmount();
  });

  it.each([
    ['fi', ['Virhejako', 'Väärät määrät', 'Pöytä purettu', 'Salin vastaava kutsuttu'], 'Miksi arvonta keskeytetään?'],
    ['ru', ['Ошибка раздачи', 'Неверный подсчёт', 'Стол расформирован', 'Вызван ответственный зала'], 'Почему чип-рейс прерван?'],
  ] as const)('offers the reasons in %s, and records them in the dealer’s words', async (locale, reasons, label) => {
    const { wrapper, api } = await dealing(locale);
    expect(wrapper.findAll('[data-testid^="abandon-reason-"][aria-pressed]').map((button) => button.text())).toEqual(reasons);
    expect(wrapper.get('[data-testid="abandon-reason"]').text()).toContain(label);
    await wrapper.get('[data-testid="abandon-reason-wrongCounts"]').trigger('click');
    await wrapper.get('[data-testid="abandon-confirm"]').trigger('click');
    await settle();
    expect(api.callsOf('abandonRace')).toEqual([['race-1', reasons[1]]]);
    wrapper.unmount();
  });
});
