// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { SourceSettings } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { DECK_PROFILE_INFO, makeSettings, makeSource, makeState, VENDOR_PROFILE } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import en from '../locales/en.json';
import fi from '../locales/fi.json';
import ru from '../locales/ru.json';
import SourceEditor from './SourceEditor.vue';

async function editor(options: { source?: Partial<SourceSettings>; importProfiles?: readonly unknown[]; locale?: Locale; stub?: boolean } = {}) {
  const source = makeSource({ kind: 'serial', path: '/dev/ttyUSB0', ...options.source });
  const api = options.stub === true ? createStubApi({ state: makeState({ settings: makeSettings({ source }) }) }) : await createKernelApi({ settings: makeSettings({ source }), importProfiles: options.importProfiles ?? [] });
  const prepared = await prepare({ api, locale: options.locale });
  const models: SourceSettings[] = [];
  const wrapper: VueWrapper = mount(SourceEditor, {
    props: {
      modelValue: source,
      'onUpdate:modelValue': (value: SourceSettings) => {
        models.push(value);
        void wrapper.setProps({ modelValue: value });
      },
    },
    global: { plugins: prepared.plugins },
  });
  await settle();
  /** The settings the form holds now. */
  const model = () => models.at(-1) ?? source;
  return { ...prepared, wrapper, model };
}

async function chooseFile(input: ReturnType<VueWrapper['get']>, name: string, text: string): Promise<void> {
  Object.defineProperty(input.element, 'files', { configurable: true, value: [new File([text], name, { type: 'application/json' })] });
  await input.trigger('change');
  await settle();
  await settle();
}

const options = (wrapper: VueWrapper) => wrapper.findAll('[data-testid="source-decoder"] option').map((option) => option.attributes('value'));

describe('the card source editor: device profiles', () => {
  it('offers the profiles of the state, built-in first, then those stored in the data folder, as the service lists them', async () => {
    const { wrapper, api } = await editor({ importProfiles: [VENDOR_PROFILE] });
    const builtIn = api.current.profiles.filter((profile) => profile.builtIn).map((profile) => profile.name);
    expect(builtIn.slice(0, 3)).toEqual(['text', 'suit-number', 'index1']);
    expect(options(wrapper)).toEqual([...builtIn, 'vendor-x']);
    const groups = wrapper.findAll('[data-testid="source-decoder"] optgroup');
    expect(groups.map((group) => group.attributes('label'))).toEqual(['Built in', 'Stored in the data folder']);
    expect(groups[1]?.findAll('option').map((option) => option.text())).toEqual(['vendor-x']);
    expect(wrapper.get('[data-testid="source-decoder"] option[value="rfid"]').text()).toBe('rfid — RFID tags');
    // A profile stored later (another window imported it, or a deck was registered) is offered at once.
    if (!('station' in api)) throw new Error('this test runs on the real kernel');
    await api.station.run('importProfile', DECK_PROFILE_INFO.profile);
    await settle();
    expect(options(wrapper).slice(-2)).toEqual(['vendor-x', 'deck-1']);
    wrapper.unmount();
  });

  it('labels and summarises a built-in profile in the dealer’s language (Finnish), stx-plain too', async () => {
    const { wrapper } = await editor({ source: { decoder: 'rfid' }, locale: 'fi' });
    expect(wrapper.get('[data-testid="source-decoder"] option[value="rfid"]').text()).toBe('rfid — RFID-tunnisteet');
    expect(wrapper.get('[data-testid="source-decoder"] option[value="stx-plain"]').text()).toBe('stx-plain — STX/ETX, ei tarkistetta');
    const summary = wrapper.get('[data-testid="source-decoder-summary"]');
    expect(summary.text()).toBe(fi.source.decoders.rfid);
    expect(summary.find('[lang="en"]').exists()).toBe(false);
    await wrapper.get('[data-testid="source-decoder"]').setValue('stx-plain');
    expect(wrapper.get('[data-testid="source-decoder-summary"]').text()).toBe(fi.source.decoders['stx-plain']);
    wrapper.unmount();
  });

  // Issue 41: the binary readers' built-in profiles (hardware/profile.ts's BINARY_PROFILES) had
  // neither a label in the picker nor a description under it.
  const BINARY_READERS = ['rdm6300', 'id12la', 'zebra-ssi', 'pn532-uart', 'uhf-r200', 'uhf-a0'] as const;
  it.each([
    ['en', en],
    ['fi', fi],
    ['ru', ru],
  ] as const)('labels and describes every binary reader’s built-in profile in the picker (%s), as the other built-ins', async (locale, words) => {
    // The service offers them as built-ins (the fake's list lacked them: a test had to add them).
    const { wrapper } = await editor({ source: { decoder: 'rdm6300' }, locale });
    for (const name of BINARY_READERS) {
      const label = words.source.profileNames[name];
      const description = words.source.decoders[name];
      expect(label).toMatch(/\S/);
      expect(wrapper.get(`[data-testid="source-decoder"] option[value="${name}"]`).text()).toBe(`${name} — ${label}`);
      await wrapper.get('[data-testid="source-decoder"]').setValue(name);
      const summary = wrapper.get('[data-testid="source-decoder-summary"]');
      // The description in the dealer's language, not the service's English summary.
      expect(summary.text()).toBe(description);
      expect(summary.find('[lang="en"]').exists()).toBe(false);
      if (locale !== 'en') expect(description).not.toBe(en.source.decoders[name]);
    }
    wrapper.unmount();
  });

  it('summarises a stored profile in the service’s English, marked lang="en", after a lead in the dealer’s language', async () => {
    const { wrapper, api } = await editor({ source: { decoder: 'vendor-x' }, importProfiles: [VENDOR_PROFILE], locale: 'fi' });
    const stored = api.current.profiles.find((profile) => profile.name === 'vendor-x');
    const summary = wrapper.get('[data-testid="source-decoder-summary"]');
    expect(summary.text()).toContain(fi.source.profileStored);
    expect(summary.get('[lang="en"]').text()).toBe(stored?.summary);
    expect(stored?.summary).toContain('7 data bits, even parity');
    // Its own line settings are what the form shows.
    expect((wrapper.get('[data-testid="source-data-bits"]').element as HTMLSelectElement).value).toBe('7');
    expect((wrapper.get('[data-testid="source-parity"]').element as HTMLSelectElement).value).toBe('even');
    wrapper.unmount();
  });

  it('keeps a profile the settings name but the data folder lacks, and says so', async () => {
    // The settings name a profile the folder lacks (removed by hand): the service refuses to save such settings, so a state given, on the state-only stub.
    const { wrapper } = await editor({ source: { decoder: 'gone' }, stub: true });
    expect(options(wrapper).at(-1)).toBe('gone');
    expect((wrapper.get('[data-testid="source-decoder"]').element as HTMLSelectElement).value).toBe('gone');
    expect(wrapper.get('[data-testid="source-decoder-summary"]').text()).toContain('“gone”, which is not in the data folder');
    wrapper.unmount();
  });

  it('imports a profile file: read in the page, stored by the service, offered, chosen with its own settings', async () => {
    const { wrapper, api, model } = await editor();
    await chooseFile(wrapper.get('[data-testid="source-import"]'), 'vendor-x.json', JSON.stringify(VENDOR_PROFILE));
    expect(api.callsOf('importProfile')).toEqual([[VENDOR_PROFILE]]);
    expect(wrapper.get('[data-testid="source-imported"]').text()).toBe('vendor-x.json: the profile vendor-x is imported and chosen. Save to use it.');
    expect(options(wrapper).at(-1)).toBe('vendor-x');
    // Chosen, with its own line settings: nothing over them.
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'vendor-x' });
    expect((wrapper.get('[data-testid="source-decoder"]').element as HTMLSelectElement).value).toBe('vendor-x');
    expect((wrapper.get('[data-testid="source-data-bits"]').element as HTMLSelectElement).value).toBe('7');
    expect(wrapper.get('[data-testid="source-decoder-summary"] [lang="en"]').text()).toContain('vendor-x: 9600 baud, 7 data bits, even parity');
    expect(wrapper.find('[data-testid="source-import-error"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it.each([
    ['en', 'broken.json is not a profile file: it is not JSON.'],
    ['fi', 'broken.json ei ole profiilitiedosto: se ei ole JSON-muotoinen.'],
    ['ru', 'broken.json — не файл профиля: это не JSON.'],
  ] as const)('refuses a file that is not JSON on the screen, naming it (%s), and sends the service nothing', async (locale, lead) => {
    const { wrapper, api, model } = await editor({ locale });
    await chooseFile(wrapper.get('[data-testid="source-import"]'), 'broken.json', '{ "name": "x", framing: }');
    const error = wrapper.get('[data-testid="source-import-error"]');
    expect(error.attributes('role')).toBe('alert');
    expect(error.attributes('data-field')).toBe('file');
    expect(error.text()).toContain(lead);
    // The parser's own words, in English, marked so.
    expect(error.get('[lang="en"]').text()).not.toBe('');
    expect(api.callsOf('importProfile')).toEqual([]);
    expect(model().decoder).toBe('text');
    wrapper.unmount();
  });

  it('shows the service’s refusal of a profile file, naming the field, beside a translated lead', async () => {
    const { wrapper, api, model } = await editor({ locale: 'fi' });
    const morse = { name: 'morse', framing: { kind: 'morse' }, decoder: { kind: 'text' } };
    await chooseFile(wrapper.get('[data-testid="source-import"]'), 'morse.json', JSON.stringify(morse));
    expect(api.callsOf('importProfile')).toEqual([[morse]]);
    const error = wrapper.get('[data-testid="source-import-error"]');
    expect(error.attributes('data-field')).toBe('profile.framing.kind');
    // The service's refusal carries its reason in keys: said in the dealer's language (the fake's had only the English).
    expect(error.text()).toBe('Tiedostoa morse.json ei tuotu: tuntematon kehystys "morse"; valitse lines, stx-etx, silence tai binary');
    expect(error.find('[lang="en"]').exists()).toBe(false);
    expect(model().decoder).toBe('text');
    expect(options(wrapper)).not.toContain('morse');
    // The next file tried clears it.
    await chooseFile(wrapper.get('[data-testid="source-import"]'), 'vendor-x.json', JSON.stringify(VENDOR_PROFILE));
    expect(wrapper.find('[data-testid="source-import-error"]').exists()).toBe(false);
    expect(model().decoder).toBe('vendor-x');
    wrapper.unmount();
  });

  it('carries a line setting or the repeat window only where it differs from the chosen profile’s own', async () => {
    const { wrapper, model } = await editor({ importProfiles: [VENDOR_PROFILE] });
    const line = wrapper.get('[data-testid="source-line"]');
    expect(line.attributes('data-overridden')).toBe('false');
    expect((wrapper.get('[data-testid="source-repeat-ms"]').element as HTMLInputElement).value).toBe('0');
    expect(wrapper.findAll('[data-testid="source-data-bits"] option').map((option) => option.text())).toEqual(['5', '6', '7', '8']);
    expect(wrapper.findAll('[data-testid="source-parity"] option').map((option) => option.attributes('value'))).toEqual(['none', 'even', 'odd', 'mark', 'space']);
    expect(wrapper.findAll('[data-testid="source-stop-bits"] option').map((option) => option.attributes('value'))).toEqual(['1', '1.5', '2']);

    await wrapper.get('[data-testid="source-data-bits"]').setValue('7');
    await wrapper.get('[data-testid="source-parity"]').setValue('even');
    await wrapper.get('[data-testid="source-stop-bits"]').setValue('1.5');
    await wrapper.get('[data-testid="source-rtscts"]').setValue(true);
    await wrapper.get('[data-testid="source-repeat-ms"]').setValue('800');
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text', dataBits: 7, parity: 'even', stopBits: 1.5, rtscts: true, repeatMs: 800 });
    expect(wrapper.get('[data-testid="source-line"]').attributes('data-overridden')).toBe('true');

    // Set back to the profile's own: left out again.
    await wrapper.get('[data-testid="source-data-bits"]').setValue('8');
    await wrapper.get('[data-testid="source-rtscts"]').setValue(false);
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text', parity: 'even', stopBits: 1.5, repeatMs: 800 });

    // Another profile whose own parity is even: that override is no longer one; the others stay.
    await wrapper.get('[data-testid="source-decoder"]').setValue('vendor-x');
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'vendor-x', stopBits: 1.5, repeatMs: 800 });
    expect((wrapper.get('[data-testid="source-data-bits"]').element as HTMLSelectElement).value).toBe('7');

    // The repeat window left empty is the profile's own again.
    const repeat = wrapper.get('[data-testid="source-repeat-ms"]');
    await repeat.setValue('');
    await repeat.trigger('change');
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'vendor-x', stopBits: 1.5 });

    await wrapper.get('[data-testid="source-line-reset"]').trigger('click');
    expect(model()).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'vendor-x' });
    expect(wrapper.find('[data-testid="source-line-reset"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('takes a chosen profile’s baud rate, unless the dealer set another than the last profile’s', async () => {
    const { wrapper, model } = await editor({ importProfiles: [DECK_PROFILE_INFO.profile] });
    await wrapper.get('[data-testid="source-decoder"]').setValue('deck-1');
    expect(model()).toMatchObject({ decoder: 'deck-1', baud: 115200 });
    // deck-1's own repeat window (1500 ms) shown, not carried.
    expect((wrapper.get('[data-testid="source-repeat-ms"]').element as HTMLInputElement).value).toBe('1500');
    expect(model().repeatMs).toBeUndefined();
    await wrapper.get('[data-testid="source-decoder"]').setValue('text');
    expect(model().baud).toBe(9600);
    await wrapper.get('[data-testid="source-baud"]').setValue('19200');
    await wrapper.get('[data-testid="source-decoder"]').setValue('deck-1');
    expect(model()).toMatchObject({ decoder: 'deck-1', baud: 19200 });
    wrapper.unmount();
  });

  it('shows the line settings for a serial source only', async () => {
    const { wrapper } = await editor({ source: { kind: 'serial' } });
    expect(wrapper.find('[data-testid="source-line"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('asks the simulated shoe for nothing it does not use: no port, no profile, no speed, no line settings', async () => {
    const { wrapper } = await editor({ source: { kind: 'simulator' } });
    for (const testid of ['source-path', 'list-ports', 'source-decoder', 'source-baud', 'source-import', 'source-line']) {
      expect(wrapper.find(`[data-testid="${testid}"]`).exists(), testid).toBe(false);
    }
    expect(wrapper.get('[data-testid="source-simulator-hint"]').text()).toContain('deals by itself');
    wrapper.unmount();
  });
});
