// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../composables/preferences';
import { createFakeApi } from '../testing/fakeApi';
import { makeSettings, makeState } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import SettingsView from './SettingsView.vue';

describe('settings', () => {
  it('picks a port, decoder and speed, and saves them with the rest of the settings', async () => {
    const api = createFakeApi({ ports: [{ path: '/dev/ttyUSB1', manufacturer: 'FTDI', vendorId: '0403', productId: '6001' }] });
    const { plugins } = await prepare({ api });
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    expect(wrapper.get('[data-testid="settings-save"]').text()).toBe('Save and connect');
    await wrapper.get('[data-testid="list-ports"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="port-select"]').text()).toContain('/dev/ttyUSB1 — FTDI');
    await wrapper.get('[data-testid="port-select"]').setValue('/dev/ttyUSB1');
    const decoders = wrapper.findAll('[data-testid="source-decoder"] option').map((option) => option.attributes('value'));
    expect(decoders).toEqual(['text', 'suit-number', 'index1', 'index0', 'stx-text', 'stx-sum', 'barcode', 'rfid']);
    await wrapper.get('[data-testid="source-decoder"]').setValue('barcode');
    expect(wrapper.get('[data-testid="source-decoder-summary"]').text()).toContain('Barcode reader');
    await wrapper.get('[data-testid="source-baud"]').setValue('115200');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...makeSettings(), source: { kind: 'serial', path: '/dev/ttyUSB1', baud: 115200, decoder: 'barcode' } }]]);
    expect(wrapper.find('[data-testid="settings-saved"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('takes a typed port path when none is found', async () => {
    const { plugins, api } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="source-kind-simulator"]').setValue(true);
    await wrapper.get('[data-testid="list-ports"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-testid="ports-none"]').exists()).toBe(true);
    await wrapper.get('[data-testid="source-path"]').setValue(' /tmp/shoeA ');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.current.settings.source).toEqual({ kind: 'simulator', path: '/tmp/shoeA', baud: 9600, decoder: 'text' });
    wrapper.unmount();
  });

  it('shows the latest input events live, unreadable codes marked', async () => {
    const { plugins, api } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    expect(wrapper.find('[data-testid="input-log-empty"]').exists()).toBe(true);
    const source = { kind: 'serial', path: '/dev/ttyUSB0', state: 'connected' } as const;
    api.push(makeState({ source, lastInput: { type: 'card', card: 'Qd', raw: 'D12' } }));
    api.push(makeState({ source, lastInput: { type: 'unknown', raw: 'D99', reason: 'not a suit letter and rank number (e.g. S01, D12)' } }));
    api.push(makeState({ source, lastInput: { type: 'device', message: 'shoe-empty', raw: 'EMPTY' } }));
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
    const { plugins, api, i18n } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    await wrapper.get('[data-testid="settings-locale"]').setValue('ru');
    await settle();
    expect(i18n.global.locale.value).toBe('ru');
    expect(api.current.settings.language).toBe('ru');
    expect(wrapper.get('h2').text()).toBe('Настройки');
    wrapper.unmount();
  });

  it('toggles the four-colour deck', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(SettingsView, { global: { plugins } });
    const box = wrapper.get('[data-testid="four-colour"]');
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
