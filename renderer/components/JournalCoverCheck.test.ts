// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { CoverCheck } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { makeState } from '../testing/fixtures';
import { createStubApi } from '../testing/stubApi';
import { prepare, settle } from '../testing/setup';
import SettingsView from '../views/SettingsView.vue';
import JournalCoverCheck from './JournalCoverCheck.vue';

const AT = '2026-12-01T21:04:00Z';
const timeIn = (locale: Locale) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(AT));
const CHECKS: readonly CoverCheck[] = [
  { status: 'checking' },
  { status: 'ok', at: AT, bytes: 335_544_320 },
  { status: 'damaged', at: AT, block: 1, from: 67_108_864, to: 134_217_728 },
];

async function said(check: CoverCheck | undefined, locale: Locale) {
  const prepared = await prepare({ locale });
  const wrapper = mount(JournalCoverCheck, { props: { check }, global: { plugins: prepared.plugins } });
  const line = wrapper.find('[data-testid="journal-cover-check"]');
  const found = line.exists() ? { text: line.text(), role: line.attributes('role') ?? null } : null;
  wrapper.unmount();
  expect(prepared.missing).toEqual([]);
  return found;
}

describe("the check of the journal's bytes before its saved start point", () => {
  it('says nothing after a start that read the whole journal', async () => {
    expect(await said(undefined, 'en')).toBeNull();
  });

  it('says in en, fi and ru that it is checking, when it found the bytes unchanged, and a change as an alert', async () => {
    const texts: Record<Locale, (object | null)[]> = { en: [], fi: [], ru: [] };
    for (const locale of ['en', 'fi', 'ru'] as const) for (const check of CHECKS) texts[locale].push(await said(check, locale));
    expect(texts.en).toEqual([
      { text: 'Journal before the saved start point: checking…', role: null },
      { text: `Journal before the saved start point: checked at ${timeIn('en')}, unchanged.`, role: null },
      { text: `The journal's records before the saved start point were changed after it was saved (bytes 67108864–134217728, found at ${timeIn('en')}). Tell the floor supervisor.`, role: 'alert' },
    ]);
    expect(texts.fi).toEqual([
      { text: 'Tapahtumaloki ennen tallennettua aloituskohtaa: tarkistetaan…', role: null },
      { text: `Tapahtumaloki ennen tallennettua aloituskohtaa: tarkistettu klo ${timeIn('fi')}, ei muutoksia.`, role: null },
      { text: `Tapahtumalokin kirjauksia ennen tallennettua aloituskohtaa on muutettu sen tallentamisen jälkeen (tavut 67108864–134217728, havaittu klo ${timeIn('fi')}). Kerro salivalvojalle.`, role: 'alert' },
    ]);
    expect(texts.ru).toEqual([
      { text: 'Журнал до сохранённой точки запуска: проверяется…', role: null },
      { text: `Журнал до сохранённой точки запуска: проверен в ${timeIn('ru')}, без изменений.`, role: null },
      { text: `Записи журнала до сохранённой точки запуска изменены после её сохранения (байты 67108864–134217728, обнаружено в ${timeIn('ru')}). Сообщите флор-менеджеру.`, role: 'alert' },
    ]);
  });

  it("is on the settings screen's journal section, from the console's state", async () => {
    const state = makeState();
    const api = createStubApi({ state: { ...state, journal: { ...state.journal, coverCheck: { status: 'damaged', at: AT, block: 0, from: 0, to: 1024 } } } });
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    const line = wrapper.get('[data-testid="journal-info"] [data-testid="journal-cover-check"]');
    expect(line.attributes('data-status')).toBe('damaged');
    expect(line.text()).toContain('(bytes 0–1024');
    wrapper.unmount();
  });
});
