// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../composables/preferences';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import type { ConsoleState, SourceSettings } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { DECK_PROFILE_INFO, makeSettings, makeSource, makeState } from '../testing/fixtures';
import { createStubApi, type StubApi } from '../testing/stubApi';
import { prepare, settle } from '../testing/setup';
import SettingsView from './SettingsView.vue';

/** The built-in device profiles as the service offers them (the fake's list lacked the last six). */
const BUILT_IN = ['text', 'suit-number', 'index1', 'index0', 'stx-text', 'stx-sum', 'barcode', 'rfid', 'stx-plain', 'rdm6300', 'id12la', 'zebra-ssi', 'pn532-uart', 'uhf-r200', 'uhf-a0'];
/** The service's tournament while none is saved: the screens send it back as it is. */
const NO_TOURNAMENT = { structure: null, atBreakAfter: null };

describe('settings', () => {
  it('picks a port, decoder and speed, and saves them with the rest of the settings', async () => {
    const api = await createKernelApi({ ports: [{ path: '/dev/ttyUSB1', manufacturer: 'FTDI', vendorId: '0403', productId: '6001' }] });
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    expect(wrapper.get('[data-testid="settings-save"]').text()).toBe('Save and connect');
    await wrapper.get('[data-testid="list-ports"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="port-select"]').text()).toContain('/dev/ttyUSB1 — FTDI');
    await wrapper.get('[data-testid="port-select"]').setValue('/dev/ttyUSB1');
    const decoders = wrapper.findAll('[data-testid="source-decoder"] option').map((option) => option.attributes('value'));
    expect(decoders).toEqual(BUILT_IN);
    await wrapper.get('[data-testid="source-decoder"]').setValue('barcode');
    expect(wrapper.get('[data-testid="source-decoder-summary"]').text()).toContain('Barcode reader');
    await wrapper.get('[data-testid="source-baud"]').setValue('115200');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...makeSettings(), source: { kind: 'serial', path: '/dev/ttyUSB1', baud: 115200, decoder: 'barcode' }, tournament: NO_TOURNAMENT }]]);
    expect(wrapper.find('[data-testid="settings-saved"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('chooses the barcode scanner its own profile, apart from the shoe’s, saved with the card source (none saved: the default, text)', async () => {
    const api = await createKernelApi();
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    const scanner = wrapper.get('[data-testid="scanner-decoder"]');
    expect((scanner.element as HTMLSelectElement).value).toBe('text');
    expect(scanner.findAll('option').map((option) => option.attributes('value'))).toEqual(BUILT_IN);
    await scanner.setValue('suit-number');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...makeSettings(), source: { ...makeSettings().source, scanner: 'suit-number' }, tournament: NO_TOURNAMENT }]]);
    wrapper.unmount();
  });

  it("switches the room clock's sound on the player display with a command of its own, kept out of the settings saved", async () => {
    const api = await createKernelApi();
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    const box = wrapper.get('[data-testid="clock-sound"]');
    expect((box.element as HTMLInputElement).checked).toBe(true);
    await box.setValue(false);
    await settle();
    expect(api.callsOf('setClockSound')).toEqual([[false]]);
    expect(api.current.settings.display).toEqual({ clockSound: false, resultMinutes: 10 });
    expect((wrapper.get('[data-testid="clock-sound"]').element as HTMLInputElement).checked).toBe(false);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...makeSettings(), tournament: NO_TOURNAMENT }]]);
    expect(api.current.settings.display).toEqual({ clockSound: false, resultMinutes: 10 });
    wrapper.unmount();
  });

  it('sets how long the player display keeps a result with a command of its own (issue 24), the sound kept', async () => {
    const api = await createKernelApi();
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    const select = wrapper.get('[data-testid="display-result-minutes"]');
    expect((select.element as HTMLSelectElement).value).toBe('10');
    expect(select.findAll('option').map((option) => option.text())).toEqual(['not kept (gone when confirmed)', '2 minutes after it is confirmed', '5 minutes after it is confirmed', '10 minutes after it is confirmed', '15 minutes after it is confirmed', '30 minutes after it is confirmed', '60 minutes after it is confirmed']);
    await select.setValue('0');
    await settle();
    expect(api.callsOf('setResultMinutes')).toEqual([[0]]);
    expect(api.current.settings.display).toEqual({ clockSound: true, resultMinutes: 0 });
    wrapper.unmount();
  });

  it("sets the house's stack for the count keypad with a command of its own (issue 24)", async () => {
    const api = await createKernelApi();
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    const select = wrapper.get('[data-testid="count-stack"]');
    expect((select.element as HTMLSelectElement).value).toBe('0');
    expect(select.findAll('option').map((option) => option.text())).toEqual(['no stacks (chip by chip)', '5 chips', '10 chips', '20 chips', '25 chips']);
    await select.setValue('20');
    await settle();
    expect(api.callsOf('setCountStack')).toEqual([[20]]);
    expect(api.current.settings.counting).toEqual({ stack: 20 });
    wrapper.unmount();
  });

  it('takes a typed port path when none is found', async () => {
    const { plugins, api } = await prepare({ api: await createKernelApi() });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    await wrapper.get('[data-testid="list-ports"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-testid="ports-none"]').exists()).toBe(true);
    await wrapper.get('[data-testid="source-path"]').setValue(' /tmp/shoeA ');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.current.settings.source).toEqual({ kind: 'serial', path: '/tmp/shoeA', baud: 9600, decoder: 'text' });
    wrapper.unmount();
  });

  it('shows the latest input events live, unreadable codes marked', async () => {
    // The reader on the serial port is the test: the port connected, then what it decoded.
    const api = await createKernelApi({ settings: makeSettings({ source: { kind: 'serial', path: '/dev/ttyUSB0', decoder: 'suit-number' } }) });
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    expect(wrapper.find('[data-testid="input-log-empty"]').exists()).toBe(true);
    const shoe = api.station.shoe();
    shoe?.emit({ type: 'status', state: 'connected' });
    shoe?.emit({ type: 'card', card: 'Qd', raw: 'D12' });
    shoe?.emit({ type: 'unknown', raw: 'D99', reason: 'not a suit letter and rank number (e.g. S01, D12)', said: { key: 'hardware.decoder.notSuitNumber' } });
    shoe?.emit({ type: 'device', message: 'shoe-empty', raw: 'EMPTY' });
    await settle();
    const entries = wrapper.findAll('[data-testid="input-log-entry"]');
    expect(entries.map((entry) => entry.attributes('data-type'))).toEqual(['device', 'unknown', 'card']);
    expect(entries[0]?.text()).toContain('The shoe is empty.');
    expect(entries[1]?.text()).toContain('Unreadable code “D99”');
    expect(entries[1]?.classes()).toContain('input-log__entry--warn');
    expect(entries[2]?.text()).toContain('Card Q♦');
    expect(entries[2]?.text()).toContain('read as “D12”');
    expect(wrapper.get('[data-testid="source-status"]').text()).toContain('Connected');
    wrapper.unmount();
  });

  it('switches the language and remembers it through the service', async () => {
    const { plugins, api, i18n } = await prepare({ api: await createKernelApi() });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="settings-locale"]').setValue('ru');
    await settle();
    expect(i18n.global.locale.value).toBe('ru');
    expect(api.current.settings.language).toBe('ru');
    expect(wrapper.get('h2').text()).toBe('Настройки');
    wrapper.unmount();
  });

  it('toggles the four-color deck', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    const box = wrapper.get('[data-testid="four-color"]');
    const before = (box.element as HTMLInputElement).checked;
    await box.setValue(!before);
    expect((box.element as HTMLInputElement).checked).toBe(!before);
    await box.setValue(before);
    wrapper.unmount();
  });

  it('turns the sound of card reads off and on, kept at this station (on by default)', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    const box = wrapper.get('[data-testid="sound"]');
    expect((box.element as HTMLInputElement).checked).toBe(true);
    expect(box.element.closest('label')?.textContent).toContain('Sound for every card read');
    await box.setValue(false);
    expect(usePreferences().sound.value).toBe(false);
    expect(localStorage.getItem('chip-race-console:sound')).toBe('false');
    await box.setValue(true);
    expect(usePreferences().sound.value).toBe(true);
    wrapper.unmount();
  });
});

describe('settings: register deck', () => {
  const rfid = makeSource({ kind: 'serial', path: '/dev/ttyUSB0', decoder: 'rfid' });
  const registering = (registered: number, next: string | null, problem: string | null = null) => ({ name: 'deck-1', registered, total: 52, next, problem });

  /**
   * The settings screen over a state given: the registration's and the antennas' progress come
   * from the RFID reader's tags, on the state-only stub (which takes the commands the test says).
   */
  async function settings(options: { source?: SourceSettings; locale?: Locale; profiles?: ConsoleState['profiles'] } = {}) {
    const state = makeState({ settings: makeSettings({ source: options.source ?? rfid }), ...(options.profiles ? { profiles: options.profiles } : {}) });
    const api = createStubApi({ state, answers: { saveSettings: { ok: true, value: null }, registerDeck: { ok: true, value: null } } });
    return mounted(api, options.locale);
  }

  /** The settings screen on the real kernel: its card source as given, these profile files imported. */
  async function onKernel(options: { source?: SourceSettings; locale?: Locale; importProfiles?: readonly unknown[] } = {}) {
    return mounted(await createKernelApi({ settings: makeSettings({ source: options.source ?? rfid }), importProfiles: options.importProfiles ?? [] }), options.locale);
  }

  async function mounted<Api extends KernelApi | StubApi>(api: Api, locale?: Locale) {
    const prepared = await prepare({ api, locale });
    const wrapper = mount(SettingsView, { global: { plugins: prepared.plugins } });
    await settle();
    return { ...prepared, wrapper };
  }

  it('maps the antennas to seats on a stored RFID profile: started (the form saved first), its progress and a read not taken said, the map saved shown (issue 26)', async () => {
    // On the real kernel: the table's reader's profile file imported; the reader on the port is the test.
    const table = { name: 'table-4', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>.+)$', cards: {} } };
    const { wrapper, api } = await onKernel({ source: rfid, importProfiles: [table] });
    /** A card read at an antenna, as the reader decodes it. */
    const read = async (reader: string, card: string) => {
      api.station.shoe()?.emit({ type: 'card', card: card as never, raw: `${reader}|04A2B3C${reader}`, reader });
      await settle();
    };
    expect(wrapper.find('[data-testid="seat-map"]').exists()).toBe(false);
    await wrapper.get('[data-testid="source-decoder"]').setValue('table-4');
    expect(wrapper.get('[data-testid="seat-map"]').attributes('data-state')).toBe('ready');
    await wrapper.get('[data-testid="seat-map-start"]').trigger('click');
    await settle();
    expect(api.calls.map((call) => call.method).filter((method) => method === 'saveSettings' || method === 'mapSeats')).toEqual(['saveSettings', 'mapSeats']);
    expect(api.callsOf('mapSeats')).toEqual([[true]]);
    const seats = api.current.settings.table.seats.map(({ seat }) => seat);
    expect(wrapper.get('[data-testid="seat-map"]').attributes('data-state')).toBe('mapping');
    // Seat 1's card at antenna 2; the next card at antenna 2 again: not taken.
    await read('2', 'As');
    await read('2', 'Ks');
    expect(wrapper.get('[data-testid="seat-map-progress"]').attributes('data-next')).toBe(String(seats[1]));
    expect(wrapper.get('[data-testid="seat-map-progress"]').text()).toBe(`1 of ${seats.length}, next: seat ${seats[1] ?? ''}`);
    expect(wrapper.get('[data-testid="seat-map-problem"]').text()).toBe(`That read was not taken: antenna 2 is already seat ${seats[0] ?? ''}`);
    // The last seat read: the service stores the map in the profile and says it is done.
    for (const [index] of seats.entries()) if (index > 0) await read(String(seats.length - 1 - index), 'Kh');
    expect(wrapper.get('[data-testid="seat-map"]').attributes('data-state')).toBe('done');
    expect(wrapper.get('[data-testid="seat-map-saved"]').text()).toContain(`Saved in table-4: ${seats.length - 1} → ${seats[0] ?? ''}`);
    await wrapper.get('[data-testid="seat-map-start"]').trigger('click');
    await settle();
    expect(api.callsOf('mapSeats')).toEqual([[true], [true]]);
    await wrapper.get('[data-testid="seat-map-stop"]').trigger('click');
    await settle();
    expect(api.callsOf('mapSeats')).toEqual([[true], [true], [false]]);
    expect(wrapper.get('[data-testid="seat-map"]').attributes('data-state')).toBe('ready');
    expect(wrapper.get('[data-testid="seat-map-saved"]').text()).toContain('Saved in table-4');
    wrapper.unmount();
  });

  it('is offered for a serial source whose profile reads tag IDs, and not otherwise', async () => {
    const { wrapper } = await settings({ source: makeSource() });
    expect(wrapper.find('[data-testid="register-deck"]').exists()).toBe(false);
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    expect(wrapper.find('[data-testid="register-deck"]').exists()).toBe(false);
    await wrapper.get('[data-testid="source-decoder"]').setValue('rfid');
    expect(wrapper.find('[data-testid="register-deck"]').exists()).toBe(true);
    expect((wrapper.get('[data-testid="register-name"]').element as HTMLInputElement).value).toBe('deck-1');
    // The form is not saved yet: Start saves it first.
    expect(wrapper.get('[data-testid="register-start"]').text()).toBe('Save and start registering');
    await wrapper.get('[data-testid="source-kind-simulator"]').setValue(true);
    expect(wrapper.find('[data-testid="register-deck"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('saves an edited card source, then starts; shows the progress, a read not taken with the service’s reason, and stops', async () => {
    // On the real kernel; the RFID reader on the port is the test.
    const { wrapper, api } = await onKernel({ source: makeSource() });
    const shoe = () => api.station.shoe();
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    await wrapper.get('[data-testid="source-path"]').setValue('/dev/ttyUSB0');
    await wrapper.get('[data-testid="source-decoder"]').setValue('rfid');
    await wrapper.get('[data-testid="register-start"]').trigger('click');
    await settle();
    expect(api.calls.map((call) => call.method).filter((method) => method === 'saveSettings' || method === 'registerDeck')).toEqual(['saveSettings', 'registerDeck']);
    expect(api.current.settings.source).toEqual(rfid);
    expect(api.callsOf('registerDeck')).toEqual([['deck-1']]);
    const section = wrapper.get('[data-testid="register-deck"]');
    expect(section.attributes('data-state')).toBe('registering');
    expect(wrapper.get('[data-testid="register-count"]').text()).toBe('0 of 52, next: A♠');
    expect(wrapper.find('[data-testid="register-start"]').exists()).toBe(false);

    // Thirteen new tags (the spades), as the registration's decoder gives them.
    for (const [index, card] of ['As', '2s', '3s', '4s', '5s', '6s', '7s', '8s', '9s', 'Ts', 'Js', 'Qs', 'Ks'].entries()) shoe()?.emit({ type: 'card', card: card as never, raw: `04A210${String(index).padStart(2, '0')}` });
    await settle();
    expect(wrapper.get('[data-testid="register-count"]').text()).toBe('13 of 52, next: A♥');
    expect(wrapper.get('[data-testid="register-progress"]').attributes('data-registered')).toBe('13');
    const bar = wrapper.get('[data-testid="register-bar"]').element as HTMLProgressElement;
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['13', '52']);
    expect(wrapper.find('[data-testid="register-problem"]').exists()).toBe(false);

    // The first tag again: the decoder's refusal.
    shoe()?.emit({ type: 'unknown', raw: '04A21000', reason: 'tag 04A210C4 is already registered as As', said: { key: 'hardware.decoder.tagRegistered', params: { uid: '04A210C4', card: { card: 'As' } } } });
    await settle();
    const problem = wrapper.get('[data-testid="register-problem"]');
    expect(problem.text()).toContain('That read was not taken; the next card is still A♥:');
    // The service passes the decoder's reason in keys: said in the screen's language (the fake gave English only).
    expect(problem.get('span').text()).toBe('tag 04A210C4 is already registered as A♠');
    expect(problem.find('[lang="en"]').exists()).toBe(false);

    await wrapper.get('[data-testid="register-stop"]').trigger('click');
    await settle();
    expect(api.callsOf('registerDeck')).toEqual([['deck-1'], [null]]);
    expect(wrapper.find('[data-testid="register-progress"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="register-done"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="register-start"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it.each([
    ['en', "Deck registered: deck-1 is now the card source's profile."],
    ['fi', 'Pakka rekisteröity: deck-1 on nyt korttien lähteen profiili.'],
    ['ru', 'Колода зарегистрирована: deck-1 теперь профиль источника карт.'],
  ] as const)('says when the deck is registered and its profile chosen (%s); the form takes it', async (locale, notice) => {
    const { wrapper, api } = await settings({ locale });
    await wrapper.get('[data-testid="register-start"]').trigger('click');
    await settle();
    api.push({ ...api.current, registration: registering(51, 'Kc') });
    await settle();
    // The 52nd tag: the service stores the profile and chooses it, in one state.
    api.push({ ...api.current, registration: null, profiles: [...api.current.profiles, DECK_PROFILE_INFO], settings: { ...api.current.settings, source: { ...rfid, decoder: 'deck-1' } } });
    await settle();
    expect(wrapper.get('[data-testid="register-done"]').text()).toBe(notice);
    expect(wrapper.get('[data-testid="register-deck"]').attributes('data-state')).toBe('done');
    expect((wrapper.get('[data-testid="source-decoder"]').element as HTMLSelectElement).value).toBe('deck-1');
    // The next deck would be another profile.
    expect((wrapper.get('[data-testid="register-name"]').element as HTMLInputElement).value).toBe('deck-2');
    wrapper.unmount();
  });

  it('shows the service’s refusal beside a translated lead (no port chosen)', async () => {
    const { wrapper, api } = await onKernel({ source: { ...rfid, path: '' }, locale: 'fi' });
    await wrapper.get('[data-testid="register-start"]').trigger('click');
    await settle();
    expect(api.current.registration).toBeNull();
    const error = wrapper.get('[data-testid="register-error"]');
    expect(error.attributes('data-field')).toBe('source');
    expect(error.text()).toContain('Ei tehty:');
    // The service refuses in keys: its reason said in the screen's language too (the fake gave it in English only).
    expect(error.text()).toBe('Ei tehty: rekisteröi pakka lukijan ollessa kytkettynä: valitse ensin sarjaportin korttien lähde ja sen portti');
    expect(error.find('[lang="en"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('does not register when saving the edited form is refused', async () => {
    const { wrapper, api } = await settings();
    await wrapper.get('[data-testid="source-path"]').setValue('/dev/ttyUSB1');
    api.cann('saveSettings', { ok: false, error: { field: 'source.path', message: 'must be the full path of the port' } });
    await wrapper.get('[data-testid="register-start"]').trigger('click');
    await settle();
    expect(api.callsOf('registerDeck')).toEqual([]);
    expect(wrapper.get('[data-testid="settings-error"]').text()).toContain('must be the full path of the port');
    wrapper.unmount();
  });

  it('saves only the line settings that differ from the profile’s own', async () => {
    const { wrapper, api } = await onKernel({ source: makeSource({ kind: 'serial', path: '/dev/ttyUSB0' }) });
    await wrapper.get('[data-testid="source-parity"]').setValue('odd');
    await wrapper.get('[data-testid="source-repeat-ms"]').setValue('0');
    await wrapper.get('[data-testid="source-decoder"]').setValue('rfid');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...makeSettings(), source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'rfid', parity: 'odd' }, tournament: NO_TOURNAMENT }]]);
    expect(wrapper.find('[data-testid="settings-saved"]').exists()).toBe(true);
    wrapper.unmount();
  });
});

describe('settings: the status shown live', () => {
  it('shows when the service read each input, in the screen’s language', async () => {
    const { plugins, api, i18n } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    const read = { id: 1, at: '2026-11-29T17:04:05.000Z', event: { type: 'card', card: 'Qd', raw: 'D12' } } as const;
    api.push(makeState({ lastInput: read.event, inputs: [read] }));
    await settle();
    const time = wrapper.get('[data-testid="input-log-time"]');
    expect(time.attributes('datetime')).toBe('2026-11-29T17:04:05.000Z');
    expect(time.text()).toBe(new Intl.DateTimeFormat('en', { timeStyle: 'medium' }).format(new Date(read.at)));
    i18n.global.locale.value = 'fi';
    await settle();
    expect(wrapper.get('[data-testid="input-log-time"]').text()).toBe(new Intl.DateTimeFormat('fi', { timeStyle: 'medium' }).format(new Date(read.at)));
    wrapper.unmount();
  });

  it('counts the journal’s records as they are written', async () => {
    const { plugins, api } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    await settle();
    expect(wrapper.get('[data-testid="journal-info"]').text()).toContain('Records in the journal on disk: 0.');
    api.push({ ...api.current, journal: { ...api.current.journal, records: 3, chain: 'intact' } });
    await settle();
    expect(wrapper.get('[data-testid="journal-info"]').text()).toContain('Records in the journal on disk: 3.');
    wrapper.unmount();
  });
});
