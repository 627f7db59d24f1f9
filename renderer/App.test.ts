// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refusalOf } from '../protocol/schema';
import App from './App.vue';
import { isDisplayMode } from './displayMode';
import { LOCALES, pickLocale, russianPlural, type Locale } from './i18n';
import { createStubApi } from './testing/stubApi';
import { createKernelApi, type KernelApi } from './testing/kernelApi';
import { FINNISH_COUNTS, makeSettings, makeState } from './testing/fixtures';
import { TestKeyboard } from './testing/keyboard';
import { prepare, settle } from './testing/setup';

const expectedNames: Record<Locale, string> = {
  en: 'Chip Race Console',
  fi: 'Chip race -konsoli',
  ru: 'Консоль чип-рейса',
};

async function mountApp(options: { locale?: Locale; api?: ReturnType<typeof createStubApi> | KernelApi; mode?: 'console' | 'display' } = {}) {
  const locale = options.locale ?? 'en';
  const api = options.api ?? (await createKernelApi({ settings: makeSettings({ language: locale }) }));
  const prepared = await prepare({ api, locale });
  const wrapper = mount(App, { props: { mode: options.mode ?? 'console' }, global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

describe('App', () => {
  it.each(LOCALES)('shows the name in %s and sets the lang attribute', async (locale) => {
    const { wrapper } = await mountApp({ locale });
    expect(wrapper.get('h1').text()).toBe(expectedNames[locale]);
    expect(document.documentElement.lang).toBe(locale);
    expect(document.title).toBe(expectedNames[locale]);
    wrapper.unmount();
  });

  it('switches language from the picker, live, and saves it', async () => {
    const { wrapper, api } = await mountApp();
    await wrapper.get('[data-testid="locale"]').setValue('fi');
    await settle();
    expect(wrapper.get('h1').text()).toBe(expectedNames.fi);
    expect(wrapper.get('[data-testid="nav-setup"]').text()).toBe('Pöytä');
    expect(document.documentElement.lang).toBe('fi');
    expect(api.current.settings.language).toBe('fi');
    await wrapper.get('[data-testid="locale"]').setValue('ru');
    await settle();
    expect(wrapper.get('h1').text()).toBe(expectedNames.ru);
    expect(wrapper.get('[data-testid="nav-history"]').text()).toBe('История');
    expect(document.documentElement.lang).toBe('ru');
    wrapper.unmount();
  });

  it('follows the language the service remembers', async () => {
    const api = await createKernelApi({ settings: makeSettings({ language: 'ru' }) });
    const { wrapper } = await mountApp({ api });
    expect(wrapper.get('h1').text()).toBe(expectedNames.ru);
    wrapper.unmount();
  });

  it('opens on the table setup and moves between screens from the top nav', async () => {
    const { wrapper } = await mountApp();
    expect(wrapper.find('[data-testid="view-setup"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="nav-setup"]').attributes('aria-current')).toBe('page');
    expect(wrapper.get('[data-testid="nav-race"]').text()).toBe('Counts');
    for (const [view, testid] of [
      ['race', 'view-counts'],
      ['history', 'view-history'],
      ['settings', 'view-settings'],
      ['setup', 'view-setup'],
    ] as const) {
      await wrapper.get(`[data-testid="nav-${view}"]`).trigger('click');
      await settle();
      expect(wrapper.find(`[data-testid="${testid}"]`).exists()).toBe(true);
      expect(wrapper.get(`[data-testid="nav-${view}"]`).attributes('aria-current')).toBe('page');
      // The counts take the keys at once (issue 24: the first count, as the dealing screen's entry does); other screens their title.
      if (view === 'race') expect(document.activeElement?.getAttribute('data-testid')).toMatch(/^counts-seat-[0-9]+-chips$/);
      else expect(document.activeElement?.classList.contains('view__title')).toBe(true);
    }
    wrapper.unmount();
  });

  it('opens on the dealing screen when the service resumes a race', async () => {
    const { wrapper } = await mountApp({ api: await createKernelApi({ race: { cards: ['Ah'] } }) });
    expect(wrapper.find('[data-testid="view-dealing"]').exists()).toBe(true);
    expect(wrapper.get('[data-testid="nav-race"]').text()).toBe('Race');
    expect(wrapper.get('[data-testid="nav-race"]').attributes('aria-current')).toBe('page');
    wrapper.unmount();
  });

  it('goes from counts to dealing when the race starts', async () => {
    const { wrapper, store } = await mountApp();
    await wrapper.get('[data-testid="nav-race"]').trigger('click');
    await settle();
    for (const [seat, chips] of [[1, 7], [2, 2], [3, 2]] as const) {
      await wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).setValue(String(chips));
    }
    await settle();
    await wrapper.get('[data-testid="start-race"]').trigger('click');
    await settle();
    expect(store.race).not.toBeNull();
    expect(wrapper.get('[data-testid="next-step"]').text()).toBe('Deal 3 cards to seat 1 — Matti');
    wrapper.unmount();
  });

  it('shows a connection-lost banner', async () => {
    const { wrapper, store } = await mountApp();
    expect(wrapper.find('[data-testid="connection-banner"]').exists()).toBe(false);
    store.connection = 'lost';
    await settle();
    expect(wrapper.get('[data-testid="connection-banner"]').attributes('role')).toBe('alert');
    expect(wrapper.get('[data-testid="connection-banner"]').text()).toContain('Connection to the console service lost');
    wrapper.unmount();
  });

  it('says a refused state message in the dealer’s language, until the next whole state', async () => {
    const { wrapper, store } = await mountApp({ locale: 'fi' });
    expect(wrapper.find('[data-testid="state-refused-banner"]').exists()).toBe(false);
    store.stateRefusal = refusalOf('patch.race', { key: 'stateMessage.objectOrNull' });
    await settle();
    expect(wrapper.get('[data-testid="state-refused-banner"]').attributes('role')).toBe('alert');
    expect(wrapper.get('[data-testid="state-refused-banner"]').text()).toBe(
      'Konsolipalvelun tilaviesti hylättiin (patch.race: on oltava olio tai null): tämä näyttö näyttää viimeisimmän hyväksymänsä tilan. Lataa sivu uudelleen, jos ilmoitus ei poistu.',
    );
    store.stateRefusal = null;
    await settle();
    expect(wrapper.find('[data-testid="state-refused-banner"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('waits for the first state with a message', async () => {
    // A service that never answers: getState's answer, stated on the state-only stub, never settles.
    const api = createStubApi();
    api.cann('getState', new Promise(() => {}));
    const { wrapper } = await mountApp({ api });
    expect(wrapper.get('[data-testid="loading"]').text()).toBe('Connecting to the console service…');
    wrapper.unmount();
  });

  it('reports what the journal check found, in the dealer’s language, the chain broken first', async () => {
    const journal = {
      path: '/tmp/j', records: 12, chain: 'broken' as const, unchained: 0, unchainedThrough: 0, readOnly: null,
      findings: [{ code: 'torn-tail' as const, bytes: 40, savedAs: 'journal.jsonl.torn-1' }, { code: 'altered' as const, seq: 7, skipped: false }],
    };
    // A damaged journal's findings: a state given, on the state-only stub.
    const api = createStubApi({ state: makeState({ journal, settings: makeSettings({ language: 'fi' }) }) });
    const { wrapper } = await mountApp({ api });
    await settle();
    const banner = wrapper.get('[data-testid="journal-problems"]');
    expect(banner.attributes('data-chain')).toBe('broken');
    expect(banner.get('[data-testid="journal-chain"]').text()).toBe('Kirjanpitoa on muutettu jälkikäteen: katso havainnot. Kerro salivalvojalle.');
    expect(banner.findAll('li').map((item) => item.text())).toEqual([
      'Viimeinen kirjaus katkesi kaatumisessa (40 B) ja jätettiin pois; sen tavut on tallessa tiedostossa journal.jsonl.torn-1.',
      'Kirjausta 7 on muutettu kirjoittamisen jälkeen: sen sinetti ei täsmää.',
    ]);
    wrapper.unmount();
  });

  it('says a line damaged at the station as damage, not as tampering', async () => {
    const journal = {
      path: '/tmp/j', records: 12, chain: 'damaged' as const, unchained: 0, unchainedThrough: 0, readOnly: null,
      findings: [{ code: 'damaged' as const, seq: 3, line: 4 }],
    };
    const api = createStubApi({ state: makeState({ journal }) });
    const { wrapper } = await mountApp({ api });
    await settle();
    const banner = wrapper.get('[data-testid="journal-problems"]');
    expect(banner.attributes('data-chain')).toBe('damaged');
    expect(banner.get('[data-testid="journal-chain"]').text()).toBe('A record was damaged at the station (bad bytes, not a change): see what was found. It is kept in the file as evidence; every other record is checked and intact.');
    expect(banner.findAll('li').map((item) => item.text())).toEqual([
      'Record 3 was damaged at the station (line 4 cannot be read as a record: bad bytes, not a change by hand). It was skipped and stays in the file as evidence; the records after it are checked again from the next one.',
    ]);
    wrapper.unmount();
  });

  it('says, as an alert, that nothing can be recorded in a journal a newer version wrote', async () => {
    const journal = {
      path: '/tmp/j', records: 3, chain: 'intact' as const, unchained: 0, unchainedThrough: 0,
      readOnly: { code: 'newer-version' as const, version: 3 }, findings: [{ code: 'newer-version' as const, version: 3 }],
    };
    const { wrapper } = await mountApp({ api: createStubApi({ state: makeState({ journal }) }) });
    const alert = wrapper.get('[data-testid="journal-read-only"]');
    expect(alert.attributes('role')).toBe('alert');
    expect(alert.text()).toMatch(/^Nothing can be recorded: The journal was written by a newer version of the console/);
    wrapper.unmount();
  });

  it('renders only the player display in display mode', async () => {
    const { wrapper } = await mountApp({ mode: 'display', api: await createKernelApi({ race: {} }) });
    expect(wrapper.find('[data-testid="player-display"]').exists()).toBe(true);
    expect(wrapper.find('nav').exists()).toBe(false);
    expect(wrapper.findAll('button, input, select')).toHaveLength(0);
    wrapper.unmount();
  });

  it('uses the four-color deck class when chosen', async () => {
    const { wrapper } = await mountApp();
    await wrapper.get('[data-testid="nav-settings"]').trigger('click');
    await settle();
    const box = wrapper.get('[data-testid="four-color"]');
    const on = !(box.element as HTMLInputElement).checked;
    await box.setValue(on);
    expect(wrapper.get('.app').classes().includes('four-color')).toBe(on);
    await box.setValue(!on);
    wrapper.unmount();
  });
});

describe('isDisplayMode', () => {
  it('recognises #/display and ?view=display', () => {
    expect(isDisplayMode({ hash: '#/display', search: '' })).toBe(true);
    expect(isDisplayMode({ hash: '#display', search: '' })).toBe(true);
    expect(isDisplayMode({ hash: '', search: '?view=display' })).toBe(true);
    expect(isDisplayMode({ hash: '', search: '?lang=fi&view=display' })).toBe(true);
    expect(isDisplayMode({ hash: '', search: '' })).toBe(false);
    expect(isDisplayMode({ hash: '#/displays', search: '?view=console' })).toBe(false);
  });
});

describe('App: the keyboard-wedge scanner anywhere on the screen', () => {
  // App.vue installs its scanner on the browser's clock (each key's event.timeStamp, and
  // performance.now()). On the real clock a key's time is when this process got round to
  // dispatching it: a machine under load stalled it past a burst's gap and these tests failed (seen
  // at load 9–11 on 2 CPUs). The clock is faked, and the keyboard moves it as a scanner's keys do.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const scanner = (): TestKeyboard => new TestKeyboard((ms) => vi.advanceTimersByTime(ms));

  it('keeps a scan on the counts screen from starting the race, says it was not dealt, and when to scan it again', async () => {
    const { wrapper, api, store } = await mountApp();
    await wrapper.get('[data-testid="nav-race"]').trigger('click');
    await settle();
    const keyboard = scanner();
    keyboard.scan('Kc');
    await settle();
    const banner = () => wrapper.get('[data-testid="scan-away"]');
    expect(banner().attributes('data-place')).toBe('counts');
    expect(banner().attributes('role')).toBe('alert');
    expect(banner().text()).toContain('K♣ was scanned before the race started: it was not dealt. Start the race, then scan it again.');
    expect(api.callsOf('startRace')).toEqual([]);
    expect(api.callsOf('dealScan')).toEqual([]);

    await store.run('startRace', FINNISH_COUNTS);
    await settle();
    expect(banner().text()).toContain('K♣ was scanned before the race started: it was not dealt. Scan it again now.');
    keyboard.scan('KC');
    await settle();
    expect(api.callsOf('dealScan')).toEqual([['race-1', 'KC']]);
    expect(wrapper.find('[data-testid="scan-away"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('deals nothing from another screen, says so, and the dealer can dismiss it', async () => {
    const { wrapper, api } = await mountApp();
    await wrapper.get('[data-testid="nav-settings"]').trigger('click');
    await settle();
    scanner().scan('X9');
    await settle();
    expect(wrapper.get('[data-testid="scan-away"]').text()).toContain(
      '“X9” was scanned while no race or game was open: it was not dealt. Start a race or a game, then scan it again.',
    );
    expect(api.callsOf('dealScan')).toEqual([]);
    await wrapper.get('[data-testid="scan-away-dismiss"]').trigger('click');
    expect(wrapper.find('[data-testid="scan-away"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('does not listen on the player display', async () => {
    const { wrapper, api, scans } = await mountApp({ api: await createKernelApi({ race: {} }), mode: 'display' });
    scanner().scan('Kc');
    await settle();
    expect(api.callsOf('dealScan')).toEqual([]);
    expect(scans.scanAway).toBeNull();
    wrapper.unmount();
  });
});

describe('pickLocale', () => {
  it('takes the first supported language, by its base tag', () => {
    expect(pickLocale(['fi-FI', 'en-US'])).toBe('fi');
    expect(pickLocale(['de-DE', 'ru'])).toBe('ru');
    expect(pickLocale(['EN-gb'])).toBe('en');
  });

  it('falls back to English', () => {
    expect(pickLocale([])).toBe('en');
    expect(pickLocale(['de', 'sv-SE'])).toBe('en');
  });
});

describe('russianPlural', () => {
  it('chooses one, few or many', () => {
    const forms = ['карта', 'карты', 'карт'];
    const pick = (n: number) => forms[russianPlural(n, 3)];
    expect([1, 21, 101].map(pick)).toEqual(['карта', 'карта', 'карта']);
    expect([2, 3, 4, 22, 34].map(pick)).toEqual(['карты', 'карты', 'карты', 'карты', 'карты']);
    expect([0, 5, 11, 12, 14, 19, 20, 111].map(pick)).toEqual(['карт', 'карт', 'карт', 'карт', 'карт', 'карт', 'карт', 'карт']);
  });
});
