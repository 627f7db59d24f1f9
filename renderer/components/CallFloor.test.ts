// @vitest-environment happy-dom
// "Call the floor" on the race screens: a note (optional) sent with callFloor, the call shown on the
// counts screen until the floor decides, then the director's decision in the screen's language.
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createStubApi } from '../testing/stubApi';
import { FINNISH_CARDS, makeRaceView, makeState, type RaceInput } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import type { Locale } from '../i18n';
import RaceScreen from '../views/RaceScreen.vue';

/**
 * The race screen of a station linked to its floor (`linked: false`: one without a floor), a race
 * open when `race` is given. A floor link's states only a floor gives: the state-only stub, which
 * answers callFloor that the call is taken (the call then on record is the test's to push).
 */
async function screen(options: { race?: RaceInput } = {}, locale: Locale = 'en', linked = true) {
  const state = makeState(options.race === undefined ? {} : { race: makeRaceView(options.race) });
  const prepared = await prepare({ api: createStubApi({ state, answers: { callFloor: { ok: true, value: null } } }), locale });
  if (linked) prepared.api.push({ ...prepared.api.current, floorLink: { state: 'connected', floor: { host: 'floor.local', database: 'chip_race', table: '7', from: 'environment' } } });
  const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

const decision = { id: 3, decision: 'race-stands' as const, note: 'the count was right', by: 'Anna', at: '2026-12-04T21:04:00.000Z', raceId: null };

describe('calling the floor', () => {
  it('is not offered on a station without a floor (there is none to call), on any race screen', async () => {
    for (const options of [{}, { race: {} }]) {
      const { wrapper } = await screen(options, 'en', false);
      expect(wrapper.find('[data-testid="call-floor"]').exists()).toBe(false);
      wrapper.unmount();
    }
  });

  it('is on the dealing screen: the note is sent trimmed, the panel closes once the call is on record', async () => {
    const { wrapper, api } = await screen({ race: {} });
    expect(wrapper.find('[data-testid="call-floor-panel"]').exists()).toBe(false);
    await wrapper.get('[data-testid="call-floor"]').trigger('click');
    expect(wrapper.get('[data-testid="call-floor-panel"]').text()).toContain('Call the floor to this table');
    await wrapper.get('[data-testid="call-floor-note"]').setValue('  seat 3 disputes the deal ');
    await wrapper.get('[data-testid="call-floor-send"]').trigger('click');
    await settle();
    expect(api.callsOf('callFloor')).toEqual([['  seat 3 disputes the deal ']]);
    // The call on record, as the service journals it (trimmed, with the race open: station/service/floorCommands.ts).
    api.push({ ...api.current, floorCalls: { ...api.current.floorCalls, called: { at: new Date().toISOString(), note: 'seat 3 disputes the deal', raceId: 'race-1' } } });
    await settle();
    expect(wrapper.find('[data-testid="call-floor-panel"]').exists()).toBe(false);
    // The button says the call went out, and when, until the decision arrives; its title the whole line (issue 43).
    const button = wrapper.get('[data-testid="call-floor"]');
    expect(button.text()).toMatch(/^Floor called \d{1,2}:\d{2}( [AP]M)?$/);
    expect(button.attributes('data-called')).toBe('true');
    expect(button.attributes('title')).toMatch(/^Floor called at \d{1,2}:\d{2}( [AP]M)? \(seat 3 disputes the deal\): waiting for the director's decision$/);
    api.push({ ...api.current, floorCalls: { called: null, decisions: [decision] } });
    await settle();
    expect(wrapper.get('[data-testid="call-floor"]').text()).toBe('Call the floor');
    wrapper.unmount();
  });

  it('sits in the floor\'s row with the link\'s state on the counts screen and under the result, never laid over the screen (issue 41)', async () => {
    for (const [options, where] of [[{}, 'counts'], [{ race: {} }, 'dealing'], [{ race: { cards: FINNISH_CARDS } }, 'result']] as const) {
      const { wrapper, api } = await screen(options);
      const row = wrapper.get('[data-testid="floor-row"]');
      expect(row.get('[data-testid="floor-link"]').text(), where).toBe('Floor: connected');
      expect(row.find('[data-testid="call-floor"]').exists(), where).toBe(true);
      api.push({ ...api.current, floorLink: { state: 'offline', since: '2026-12-04T21:04:00.000Z', reason: 'unreachable', detail: '', records: 2, floor: { host: 'floor.local', database: 'chip_race', table: '7', from: 'environment' } } });
      await settle();
      expect(wrapper.get('[data-testid="floor-link-text"]').text(), where).toMatch(/^Floor: offline since /);
      wrapper.unmount();
    }
  });

  it('is on the counts screen, which says the floor was called, then what the floor decided (en, fi, ru)', async () => {
    const { wrapper, api } = await screen();
    await wrapper.get('[data-testid="call-floor"]').trigger('click');
    await wrapper.get('[data-testid="call-floor-send"]').trigger('click');
    await settle();
    expect(api.callsOf('callFloor')).toEqual([['']]);
    api.push({ ...api.current, floorCalls: { ...api.current.floorCalls, called: { at: new Date().toISOString(), note: '', raceId: null } } });
    await settle();
    expect(wrapper.get('[data-testid="floor-called"]').text()).toMatch(/^Floor called at .+: waiting for the director's decision$/);
    api.push({ ...api.current, floorCalls: { called: null, decisions: [decision] } });
    await settle();
    expect(wrapper.find('[data-testid="floor-called"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="floor-decision"]').text()).toMatch(/^Floor decided at .+ \(Anna\): race stands — the count was right$/);
    wrapper.unmount();
    for (const [locale, words] of [['fi', /^Sali päätti klo .+ \(Anna\): arvonta pysyy — the count was right$/], ['ru', /^Зал решил в .+ \(Anna\): чип-рейс в силе — the count was right$/]] as const) {
      const other = await screen({}, locale);
      other.api.push({ ...other.api.current, floorCalls: { called: null, decisions: [decision] } });
      await settle();
      expect(other.wrapper.get('[data-testid="floor-decision"]').text()).toMatch(words);
      other.wrapper.unmount();
    }
  });
});
