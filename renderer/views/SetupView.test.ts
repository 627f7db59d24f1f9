// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { makeSettings, makeState, makeTournamentState, TOURNAMENT_STRUCTURE } from '../testing/fixtures';
import { createStubApi, type StubApi } from '../testing/stubApi';
import { prepare, settle } from '../testing/setup';
import SetupView from './SetupView.vue';

async function setup(given?: KernelApi | StubApi) {
  const api = given ?? (await createKernelApi());
  const prepared = await prepare({ api });
  const wrapper = mount(SetupView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

describe('table setup', () => {
  it('fills the form from the saved settings', async () => {
    const { wrapper } = await setup();
    expect((wrapper.get('[data-testid="seat-1-in-play"]').element as HTMLInputElement).checked).toBe(true);
    expect((wrapper.get('[data-testid="seat-4-in-play"]').element as HTMLInputElement).checked).toBe(false);
    expect((wrapper.get('[data-testid="seat-3-name"]').element as HTMLInputElement).value).toBe('Johanna');
    expect((wrapper.get('[data-testid="setup-button"]').element as HTMLSelectElement).value).toBe('10');
    expect(wrapper.findAll('[data-testid^="chipset-value-"]').map((chip) => chip.find('.chip').text())).toEqual(['25', '100', '500', '1000']);
    expect((wrapper.get('[data-testid="setup-removed"]').element as HTMLSelectElement).value).toBe('25');
    expect((wrapper.get('[data-testid="setup-next"]').element as HTMLSelectElement).value).toBe('100');
    expect(wrapper.get('[data-testid="setup-ratio"]').text()).toBe('4 × 25 = 1 × 100');
    expect(wrapper.get('[data-testid="setup-rules-summary"]').text()).toContain('deal from the left of the button');
    expect(wrapper.findAll('[data-testid^="seat-"][data-testid$="-in-play"]')).toHaveLength(10);
    wrapper.unmount();
  });

  it('proposes the next chip up when the leaving chip changes', async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="setup-removed"]').setValue('100');
    expect((wrapper.get('[data-testid="setup-next"]').element as HTMLSelectElement).value).toBe('500');
    expect(wrapper.get('[data-testid="setup-ratio"]').text()).toBe('5 × 100 = 1 × 500');
    wrapper.unmount();
  });

  it('edits the chip set', async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="chipset-add-input"]').setValue('5');
    await wrapper.get('[data-testid="chipset-add"]').trigger('click');
    await wrapper.get('[data-testid="chipset-remove-1000"]').trigger('click');
    expect(wrapper.findAll('[data-testid^="chipset-value-"]').map((chip) => chip.find('.chip').text())).toEqual(['5', '25', '100', '500']);
    expect(wrapper.get('[data-testid="chipset-remove-25"]').attributes('aria-label')).toBe('Remove 25 from the chip set');
    wrapper.unmount();
  });

  it('explains the chosen rule set', async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="setup-rules"]').setValue('roberts');
    expect(wrapper.get('[data-testid="setup-rules-summary"]').text()).toContain('broke players served first');
    wrapper.unmount();
  });

  it('saves seats, button, chips, rules, decks, the dealer on duty and card source', async () => {
    const { wrapper, api, store } = await setup();
    await wrapper.get('[data-testid="seat-4-name"]').setValue('Liisa');
    await wrapper.get('[data-testid="setup-dealer"]').setValue('  Anna ');
    await wrapper.get('[data-testid="seat-2-in-play"]').setValue(false);
    await wrapper.get('[data-testid="setup-button"]').setValue('3');
    await wrapper.get('[data-testid="setup-rules"]').setValue('tda');
    await wrapper.get('[data-testid="setup-decks"]').setValue('2');
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    await wrapper.get('[data-testid="source-path"]').setValue('/dev/ttyUSB0');
    await wrapper.get('[data-testid="source-baud"]').setValue('19200');
    await wrapper.get('[data-testid="source-decoder"]').setValue('suit-number');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([
      [
        {
          table: {
            seats: [
              { seat: 1, name: 'Matti' },
              { seat: 3, name: 'Johanna' },
              { seat: 4, name: 'Liisa' },
            ],
            button: 3,
            chipSet: [25, 100, 500, 1000],
            removed: 25,
            next: 100,
            rules: 'tda',
            decks: 2,
            dealer: 'Anna',
          },
          source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 19200, decoder: 'suit-number' },
          language: 'en',
          // What the service holds (no structure saved yet) goes back as it is.
          tournament: { structure: null, atBreakAfter: null },
        },
      ],
    ]);
    expect(store.settings?.table.rules).toBe('tda');
    expect(wrapper.get('[data-testid="setup-saved"]').text()).toBe('Saved. Next: the counts.');
    await wrapper.get('[data-testid="setup-next-step"]').trigger('click');
    expect(store.view).toBe('race');
    wrapper.unmount();
  });

  it('refuses a setup without seats before calling the service', async () => {
    const api = await createKernelApi({ settings: makeSettings({ table: { seats: [] } }) });
    const { wrapper } = await setup(api);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('saveSettings')).toEqual([]);
    expect(wrapper.get('[data-testid="setup-problem"]').text()).toBe('Tick at least one seat in play.');
    wrapper.unmount();
  });

  it('shows the service refusal', async () => {
    const api = await createKernelApi();
    api.cann('saveSettings', { ok: false, error: { field: 'source.path', message: 'no such port /dev/nope' } });
    const { wrapper } = await setup(api);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="setup-error"]').text()).toBe('Not saved: no such port /dev/nope');
    expect(wrapper.get('[data-testid="setup-error"]').attributes('data-field')).toBe('source.path');
    wrapper.unmount();
  });

  it('finds serial ports for the card source', async () => {
    const api = await createKernelApi({ ports: [{ path: '/dev/ttyACM0', manufacturer: 'Shuffle Co', vendorId: '1', productId: '2' }] });
    const { wrapper } = await setup(api);
    await wrapper.get('[data-testid="source-kind-serial"]').setValue(true);
    await wrapper.get('[data-testid="list-ports"]').trigger('click');
    await settle();
    await wrapper.get('[data-testid="port-select"]').setValue('/dev/ttyACM0');
    expect((wrapper.get('[data-testid="source-path"]').element as HTMLInputElement).value).toBe('/dev/ttyACM0');
    wrapper.unmount();
  });

  it('keeps the tournament structure, on the chips of the table', async () => {
    const api = await createKernelApi({ settings: makeTournamentState().settings, markBreak: 2 });
    const { wrapper, store } = await setup(api);
    await wrapper.get('[data-testid="chipset-add-input"]').setValue('5000');
    await wrapper.get('[data-testid="chipset-add"]').trigger('click');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(store.settings?.tournament).toEqual({ structure: { ...TOURNAMENT_STRUCTURE, chips: [25, 100, 500, 1000, 5000] }, atBreakAfter: 2 });
    // A chip the structure needs cannot go: the refusal names the structure's field.
    await wrapper.get('[data-testid="chipset-remove-25"]').trigger('click');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="setup-error"]').attributes('data-field')).toBe('tournament.structure.levels[0].sb');
    wrapper.unmount();
  });
});

describe('table setup: the table’s name and a new table', () => {
  it('names the table (trimmed; empty: not named) and saves it with the table', async () => {
    const { wrapper, api } = await setup();
    const field = wrapper.get('[data-testid="setup-table-name"]');
    expect(field.attributes('maxlength')).toBe('32');
    await field.setValue('  Table 7 ');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.current.settings.table.name).toBe('Table 7');
    await field.setValue('   ');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect('name' in api.current.settings.table).toBe(false);
    wrapper.unmount();
  });

  it('starts a table never set up with no seat ticked, and remembers the last table’s seats', async () => {
    const fresh = await setup(await createKernelApi({ settings: makeSettings({ table: { seats: [] } }) }));
    const ticked = () => fresh.wrapper.findAll('[data-testid$="-in-play"]').filter((box) => (box.element as HTMLInputElement).checked).length;
    expect(ticked()).toBe(0);
    // Nine seats ticked: nothing to untick.
    for (let seat = 1; seat <= 9; seat += 1) await fresh.wrapper.get(`[data-testid="seat-${seat}-in-play"]`).setValue(true);
    await fresh.wrapper.get('form').trigger('submit');
    await settle();
    expect(fresh.api.current.settings.table.seats.map((seat) => seat.seat)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    fresh.wrapper.unmount();
    // The next time the screen opens, the last table's seats are there.
    const again = await setup(fresh.api);
    expect(again.wrapper.findAll('[data-testid$="-in-play"]').filter((box) => (box.element as HTMLInputElement).checked)).toHaveLength(9);
    again.wrapper.unmount();
  });

  it("leaves the floor's seats to the floor: a notice, the seats' ticks and names disabled; a broken table still saves the rest", async () => {
    const held = makeSettings({ table: { seats: [{ seat: 2, name: 'Anna Virtanen' }, { seat: 5, name: 'Иван' }] } });
    // The floor's seating comes over the floor link (not in-process): a state given, on the state-only stub.
    const linked = await setup(createStubApi({ state: makeState({ settings: { ...held, seatsFromFloor: { own: [{ seat: 1, name: 'Matti' }], broken: false } } }) }));
    expect(linked.wrapper.get('[data-testid="setup-seats-from-floor"]').text()).toContain('From the floor: the seats in play and the players');
    for (let seat = 1; seat <= 10; seat += 1) {
      expect((linked.wrapper.get(`[data-testid="seat-${seat}-in-play"]`).element as HTMLInputElement).disabled, `seat ${seat}`).toBe(true);
      expect((linked.wrapper.get(`[data-testid="seat-${seat}-name"]`).element as HTMLInputElement).disabled, `seat ${seat}`).toBe(true);
    }
    expect((linked.wrapper.get('[data-testid="seat-5-name"]').element as HTMLInputElement).value).toBe('Иван');
    linked.wrapper.unmount();
    const broken = await setup(createStubApi({ state: makeState({ settings: { ...makeSettings({ table: { seats: [] } }), seatsFromFloor: { own: [{ seat: 1, name: 'Matti' }], broken: true } } }), answers: { saveSettings: { ok: true, value: null } } }));
    expect(broken.wrapper.get('[data-testid="setup-seats-from-floor"]').text()).toContain('this table was broken on the floor');
    await broken.wrapper.get('[data-testid="setup-dealer"]').setValue('Liisa');
    await broken.wrapper.get('form').trigger('submit');
    await settle();
    // The rest sent to be saved (the stub's state is the floor's, which a save does not change here).
    expect(broken.api.callsOf('saveSettings').at(-1)?.[0]).toMatchObject({ table: { dealer: 'Liisa' } });
    broken.wrapper.unmount();
  });
});
