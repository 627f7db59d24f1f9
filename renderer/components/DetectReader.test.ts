// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { DetectedProfile, SourceSettings } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { createKernelApi, type KernelApi, type KernelApiOptions } from '../testing/kernelApi';
import { makeSettings, makeSource } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import SettingsView from '../views/SettingsView.vue';

/** "Find the settings for this reader" on the settings screen (DetectReader.vue), over the real kernel, the port it listens to being the test. */

const serial = makeSource({ kind: 'serial', path: '/dev/ttyUSB0', decoder: 'text' });

const FOUND: DetectedProfile = {
  setting: '2400 7E1',
  summary: 'text-2400-7e1: 2400 baud, 7 data bits, even parity, 1 stop bit; one message per line (CR, LF or CRLF); card codes such as As or 10h',
  frames: 5,
  cards: ['As', 'Kd'],
  tags: [],
  profile: { name: 'text-2400-7e1', baud: 2400, dataBits: 7, parity: 'even', stopBits: 1, rtscts: false, framing: { kind: 'lines', maxLength: 256 }, decoder: { kind: 'text' }, messages: {}, repeatMs: 0, graceMs: 0, codeId: false },
};

async function settings(options: { source?: SourceSettings; locale?: Locale } = {}) {
  const api = await createKernelApi({ settings: makeSettings({ source: options.source ?? serial }) });
  return mounted(api, options.locale);
}

/** The station's reader detection (hardware/detect's listening), as the test drives it: its progress, then its result. */
type Detector = NonNullable<KernelApiOptions['detectReader']>;
type DetectResult = Awaited<ReturnType<Detector>>;

/** FOUND as hardware/detect finds it (a reading of 5 clean frames: A♠, K♦). */
const FOUND_READ = { setting: FOUND.setting, summary: FOUND.summary, profile: FOUND.profile, reading: { clean: 5, bad: 0, forgiven: 0, cards: ['As', 'Kd'], tags: [], devices: [], repeatEveryMs: null } } as unknown as Extract<DetectResult, { ok: true }>['found'][number];

/** The settings screen on the real kernel, the port listened to being the test: it says how far listening came, and what it found. */
async function given(options: { locale?: Locale } = {}) {
  let listening: { progress: Parameters<Detector>[0]['onProgress']; finish: (result: DetectResult) => void } | null = null;
  const detectReader: Detector = ({ onProgress, signal }) =>
    new Promise((resolve) => {
      listening = { progress: onProgress, finish: resolve };
      signal?.addEventListener('abort', () => resolve({ ok: true, found: [], tried: 0, total: 0 }), { once: true });
    });
  const api = await createKernelApi({ settings: makeSettings({ source: serial }), detectReader });
  const reader = {
    /** Listening has come to the `index`th setting of `total`. */
    async at(index: number, total: number, name: string) {
      listening?.progress?.({ index, total, name } as never);
      await settle();
    },
    async finish(result: DetectResult) {
      listening?.finish(result);
      await settle();
    },
  };
  return { ...(await mounted(api, options.locale)), reader };
}

async function mounted(api: KernelApi, locale?: Locale) {
  const prepared = await prepare({ api, locale });
  const wrapper = mount(SettingsView, { global: { plugins: prepared.plugins } });
  await settle();
  return { ...prepared, wrapper };
}

describe('find the settings for this reader', () => {
  it('is offered for a serial card source only', async () => {
    const { wrapper } = await settings({ source: makeSource() });
    expect(wrapper.find('[data-testid="detect-reader"]').exists()).toBe(false);
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    expect(wrapper.get('[data-testid="detect-reader"]').attributes('data-state')).toBe('ready');
    // No port yet: nothing to listen to.
    expect(wrapper.get('[data-testid="detect-start"]').attributes('disabled')).toBeDefined();
    wrapper.unmount();
  });

  it('starts, shows a progress bar with the setting tried, then offers what it found; one used is stored under its name and chosen at its speed', async () => {
    const { wrapper, api, reader } = await given();
    await wrapper.get('[data-testid="detect-start"]').trigger('click');
    await settle();
    expect(api.callsOf('detectReader')).toEqual([[true]]);
    expect(wrapper.get('[data-testid="detect-reader"]').attributes('data-state')).toBe('listening');
    expect(wrapper.get('[data-testid="detect-start"]').text()).toBe('Stop');

    await reader.at(20, 24, '2400 7E1');
    const bar = wrapper.get('[data-testid="detect-bar"]').element as HTMLProgressElement;
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['20', '24']);
    expect(wrapper.get('[data-testid="detect-progress"]').text()).toBe('Listening at 2400 7E1 (20 of 24): deal a few cards onto the reader');

    await reader.at(24, 24, '2400 7O1');
    await reader.finish({ ok: true, found: [FOUND_READ], tried: 24, total: 24 });
    const found = wrapper.get('[data-testid="detect-found"] li');
    expect(found.attributes('data-setting')).toBe('2400 7E1');
    expect(found.get('[lang="en"]').text()).toBe(FOUND.summary);
    expect(found.text()).toContain('read: A♠ K♦');

    await wrapper.get('[data-testid="detect-use-0"]').trigger('click');
    await settle();
    expect(api.callsOf('importProfile')).toEqual([[FOUND.profile]]);
    expect(api.current.settings.source).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud: 2400, decoder: 'text-2400-7e1' });
    expect(api.callsOf('detectReader')).toEqual([[true], [false]]);
    // The outcome is cleared; the card source's profile shows what was chosen.
    expect(api.current.detection).toBeNull();
    expect((wrapper.get('[data-testid="source-decoder"]').element as HTMLSelectElement).value).toBe('text-2400-7e1');
    wrapper.unmount();
  });

  it.each([
    ['en', 'Nothing read cleanly at the settings tried (24): deal a few cards while it listens, and check the cable'],
    ['fi', 'Mitään ei luettu virheettä kokeilluilla asetuksilla (24): jaa muutama kortti kuuntelun aikana ja tarkista kaapeli'],
    ['ru', 'Ничего не прочитано без ошибок на опробованных настройках (24): положите несколько карт во время прослушивания и проверьте кабель'],
  ] as const)('says when nothing was read (%s), and a port that could not be opened in the dealer\'s language', async (locale, none) => {
    const { wrapper, api, reader } = await given({ locale });
    expect(await api.station.run('detectReader', true)).toEqual({ ok: true, value: null });
    await reader.at(24, 24, '1200 7O1');
    await reader.finish({ ok: true, found: [], tried: 24, total: 24 });
    expect(wrapper.get('[data-testid="detect-none"]').text()).toBe(none);
    expect(await api.station.run('detectReader', true)).toEqual({ ok: true, value: null });
    await reader.at(1, 24, '9600 8N1');
    await reader.finish({ ok: false, problem: { code: 'no-such-port', message: 'No serial port at /dev/ttyUSB0: check the path and that the device is plugged in and switched on', said: { key: 'hardware.port.noSuchPort', params: { path: '/dev/ttyUSB0' } } } as never });
    expect(wrapper.get('[data-testid="detect-problem"]').text()).toContain('/dev/ttyUSB0');
    if (locale === 'en') expect(wrapper.get('[data-testid="detect-problem"]').text()).toBe('No serial port at /dev/ttyUSB0: check the path and that the device is plugged in and switched on');
    wrapper.unmount();
  });

  it('saves an edited card source before it listens', async () => {
    const { wrapper, api } = await settings({ source: makeSource() });
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    await wrapper.get('[data-testid="source-path"]').setValue('/dev/ttyUSB3');
    expect(wrapper.get('[data-testid="detect-start"]').text()).toBe('Find the settings');
    await wrapper.get('[data-testid="detect-start"]').trigger('click');
    await settle();
    expect(api.calls.map((call) => call.method).filter((method) => method === 'saveSettings' || method === 'detectReader')).toEqual(['saveSettings', 'detectReader']);
    expect(api.current.detection).toMatchObject({ state: 'listening', path: '/dev/ttyUSB3' });
    wrapper.unmount();
  });
});
