// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { makeSettings, makeState } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import FloorEditor from './FloorEditor.vue';

const FLOOR = { host: 'floor-pc:5432', database: 'tournament', table: '7', from: 'settings' } as const;

/** The floor part over the real kernel, on these settings (the floor link off: no floor is reached). */
async function kernelEditor(settings: ConsoleSettings, locale: Locale = 'en') {
  const api = await createKernelApi({ settings });
  const prepared = await prepare({ api, locale });
  const wrapper = mount(FloorEditor, { global: { plugins: prepared.plugins } });
  await settle();
  return { wrapper, api, missing: prepared.missing };
}

/** The floor part over a state given (the floor link's, which only a floor gives), on the state-only stub. */
async function editor(state: ConsoleState, locale: Locale = 'en') {
  const api = createStubApi({ state });
  const prepared = await prepare({ api, locale });
  const wrapper = mount(FloorEditor, { global: { plugins: prepared.plugins } });
  await settle();
  return { wrapper, api, missing: prepared.missing };
}

describe("the settings' floor part", () => {
  it('saves the URL and the link on with the rest of the settings; says no floor is set up until then', async () => {
    // Turning the link on would reach for the floor: the state-only stub, which takes the save.
    const state = makeState({ settings: makeSettings({ table: { name: '7' } }) });
    const { wrapper, api } = await editor(state);
    api.cann('saveSettings', { ok: true, value: null });
    expect(wrapper.get('[data-testid="floor-off"]').text()).toBe('Floor: not set up');
    expect(wrapper.find('[data-testid="floor-link"]').exists()).toBe(false);
    await wrapper.get('[data-testid="floor-url"]').setValue(' postgres://station:secret@floor-pc:5432/tournament ');
    await wrapper.get('[data-testid="floor-on"]').setValue(true);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...state.settings, floor: { on: true, url: 'postgres://station:secret@floor-pc:5432/tournament' } }]]);
    // The password typed leaves the field once saved.
    expect((wrapper.get('[data-testid="floor-url"]').element as HTMLInputElement).value).toBe('postgres://station@floor-pc:5432/tournament');
    wrapper.unmount();
  });

  it('takes the floor and its standby as a list; the password typed leaves the field once saved', async () => {
    const { wrapper, api } = await kernelEditor(makeSettings({ table: { name: '7' } }));
    const saved = api.current.settings;
    const list = 'postgres://station:se:cr@t@floor-pc:5432,standby-pc:5432/tournament?sslmode=verify-full';
    await wrapper.get('[data-testid="floor-url"]').setValue(list);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([[{ ...saved, floor: { on: false, url: list } }]]);
    expect((wrapper.get('[data-testid="floor-url"]').element as HTMLInputElement).value).toBe('postgres://station@floor-pc:5432,standby-pc:5432/tournament?sslmode=verify-full');
    wrapper.unmount();
  });

  it('shows the URL without its password, whether one is saved, and the link state', async () => {
    const settings = { ...makeSettings({ table: { name: '7' } }), floor: { on: true, url: 'postgres://station@floor-pc:5432/tournament', passwordSet: true } };
    const { wrapper } = await editor(makeState({ settings, floorLink: { state: 'behind', floor: FLOOR, records: 12 } }));
    expect((wrapper.get('[data-testid="floor-url"]').element as HTMLInputElement).value).toBe('postgres://station@floor-pc:5432/tournament');
    expect(wrapper.get('[data-testid="floor-password"]').text()).toBe('A password is saved for it (never shown). To change it, type the whole URL with the new one.');
    expect(wrapper.get('[data-testid="floor-link"]').text()).toBe('Floor: 12 records to send');
    expect(wrapper.find('[data-testid="floor-from-environment"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says the environment set the floor, and asks for the table name before the link goes on', async () => {
    const { wrapper } = await editor(makeState({ floorLink: { state: 'connected', floor: { ...FLOOR, from: 'environment' } } }));
    expect(wrapper.find('[data-testid="floor-from-environment"]').exists()).toBe(true);
    await wrapper.get('[data-testid="floor-on"]').setValue(true);
    expect(wrapper.get('[data-testid="floor-table-needed"]').text()).toContain('Name the table first');
    wrapper.unmount();
  });

  it('shows the refusal of a bad URL, in the dealer’s language', async () => {
    // The service's own refusal (the fake's was canned).
    const { wrapper } = await kernelEditor(makeSettings({ table: { name: '7' } }), 'fi');
    await wrapper.get('[data-testid="floor-url"]').setValue('http://floor-pc/tournament');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="floor-error"]').text()).toContain('salitietokannan on oltava PostgreSQL-osoite');
    wrapper.unmount();
  });

  it('has every word in Finnish and Russian', async () => {
    for (const locale of ['fi', 'ru'] as const) {
      const settings = { ...makeSettings(), floor: { on: true, url: 'postgres://station@floor-pc/tournament', passwordSet: false } };
      const { wrapper, missing } = await editor(makeState({ settings, floorLink: { state: 'offline', floor: { ...FLOOR, from: 'environment' }, since: '2026-12-01T21:04:00Z', reason: 'login', detail: '28P01', records: 3 } }), locale);
      expect(missing).toEqual([]);
      expect(wrapper.text()).not.toMatch(/Floor|password|table/);
      wrapper.unmount();
    }
  });
});
