// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSettings } from '../../protocol/contract';
import { structureToCsv } from '../../engine/plan/csv';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { makeSettings, makeTournamentState, TOURNAMENT_STRUCTURE } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import StructureView from './StructureView.vue';

async function setup(given?: KernelApi) {
  const api = given ?? (await createKernelApi({ settings: makeTournamentState().settings }));
  const prepared = await prepare({ api });
  const wrapper = mount(StructureView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

/** The settings as saved, after the structure screen's commands (saveStructure, markBreak): what the service holds. */
function lastSaved(api: KernelApi): ConsoleSettings {
  return api.current.settings;
}

function rowKinds(wrapper: VueWrapper): string[] {
  return wrapper.findAll('[data-testid^="structure-row-"][data-kind]').map((row) => `${row.attributes('data-kind')}:${row.attributes('data-level')}`);
}

async function fill(wrapper: VueWrapper, testid: string, value: string): Promise<void> {
  await wrapper.get(`[data-testid="${testid}"]`).setValue(value);
}

let blobs: Blob[] = [];
beforeEach(() => {
  blobs = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:test-${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the structure screen', () => {
  it('shows the saved structure with its planned colour-ups beside the levels', async () => {
    const { wrapper } = await setup();
    expect(rowKinds(wrapper)).toEqual(['level:1', 'level:2', 'break:2', 'level:3', 'level:4', 'level:5', 'level:6', 'break:6', 'level:7', 'level:8']);
    expect((wrapper.get('[data-testid="structure-row-5-ante"]').element as HTMLInputElement).value).toBe('100');
    expect(wrapper.get('[data-testid="structure-starting-stack"]').element).toHaveProperty('value', '5000');
    const first = wrapper.get('[data-testid="plan-after-2"]');
    expect(first.get('[data-testid="plan-text"]').text()).toBe('Colour-up: 25 leaves, smallest chip now 100');
    expect(first.attributes()).toMatchObject({ 'data-remove': '25', 'data-next': '100', 'data-source': 'planned' });
    expect(first.get('[data-testid="plan-source"]').text()).toBe('Planned');
    expect(wrapper.get('[data-testid="plan-after-6"] [data-testid="plan-text"]').text()).toBe('Colour-up: 100, 500 leave, smallest chip now 1000');
    expect(wrapper.get('[data-testid="need-5"]').text()).toBe('100 (small blind 300)');
    expect(wrapper.get('[data-testid="need-1"]').text()).toBe('25 (small blind 25)');
    expect(wrapper.findAll('[data-testid^="structure-plan-"]').map((item) => item.attributes('data-testid'))).toEqual([
      'structure-plan-list',
      'structure-plan-2',
      'structure-plan-6',
    ]);
    expect(wrapper.get('[data-testid="structure-plan-6"]').text()).toBe('On the break after level 6: colour up 100, 500 → 1000');
    expect(wrapper.find('[data-testid="plan-warnings"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('builds a structure from nothing: levels and a break added, saved with the table chips', async () => {
    const api = await createKernelApi({ settings: makeSettings({ table: { removed: 100, next: 500 } }) });
    const { wrapper, store } = await setup(api);
    expect(wrapper.find('[data-testid="structure-empty"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="structure-now"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="structure-plan-none"]').exists()).toBe(true);
    await wrapper.get('[data-testid="structure-chip-remove-1000"]').trigger('click');
    for (const _level of [1, 2, 3]) await wrapper.get('[data-testid="structure-add-level"]').trigger('click');
    await settle();
    // The new level's first field takes the focus, ready to type.
    expect(document.activeElement?.getAttribute('data-testid')).toBe('structure-row-2-sb');
    await wrapper.get('[data-testid="structure-add-break"]').trigger('click');
    await settle();
    expect(document.activeElement?.getAttribute('data-testid')).toBe('structure-row-3-minutes');
    // The break goes after level 2: moved up once.
    await wrapper.get('[data-testid="structure-row-3-up"]').trigger('click');
    await settle();
    expect(document.activeElement?.getAttribute('data-testid')).toBe('structure-row-2-up');
    expect(rowKinds(wrapper)).toEqual(['level:1', 'level:2', 'break:2', 'level:3']);
    for (const [row, sb, bb] of [[0, 25, 50], [1, 50, 100], [3, 100, 200]] as const) {
      await fill(wrapper, `structure-row-${row}-sb`, String(sb));
      await fill(wrapper, `structure-row-${row}-bb`, String(bb));
    }
    await fill(wrapper, 'structure-row-3-ante', '100');
    await fill(wrapper, 'structure-row-2-minutes', '10');
    await fill(wrapper, 'structure-rebuy-amount', '2500');
    await fill(wrapper, 'structure-rebuy-until', '2');
    expect(wrapper.find('[data-testid="structure-plan-stale"]').exists()).toBe(true);
    await wrapper.get('form').trigger('submit');
    await settle();
    const saved = lastSaved(api);
    expect(saved.tournament).toEqual({
      structure: {
        chips: [25, 100, 500],
        levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200, ante: 100 }],
        rebuys: { amount: 2500, untilLevel: 2 },
      },
      atBreakAfter: null,
    });
    expect(saved.table).toMatchObject({ chipSet: [25, 100, 500], removed: 100, next: 500, seats: makeSettings().table.seats });
    expect(store.plan?.colorUps).toEqual([{ afterLevel: 2, remove: [25], next: 100 }]);
    expect(wrapper.get('[data-testid="structure-saved"]').text()).toBe('Structure saved. The planned colour-ups are beside the levels.');
    expect(wrapper.get('[data-testid="plan-after-2"] [data-testid="plan-text"]').text()).toBe('Colour-up: 25 leaves, smallest chip now 100');
    expect(wrapper.find('[data-testid="structure-plan-stale"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('removes and reorders rows from the keyboard', async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="structure-row-1-down"]').trigger('click');
    expect(rowKinds(wrapper).slice(0, 3)).toEqual(['level:1', 'break:1', 'level:2']);
    await wrapper.get('[data-testid="structure-row-0-remove"]').trigger('click');
    await settle();
    expect(rowKinds(wrapper).slice(0, 2)).toEqual(['break:0', 'level:1']);
    expect(document.activeElement?.getAttribute('data-testid')).toBe('structure-row-0-remove');
    expect(wrapper.get('[data-testid="structure-row-0-remove"]').attributes('aria-label')).toBe('Remove: the break before the first level');
    expect(wrapper.get('[data-testid="structure-row-0-up"]').attributes('disabled')).toBeDefined();
    // Unsaved: the plan is not shown for rows it no longer matches, and the edit can be undone.
    expect(wrapper.find('[data-testid="structure-plan-stale"]').exists()).toBe(true);
    await wrapper.get('[data-testid="structure-revert"]').trigger('click');
    expect(rowKinds(wrapper).slice(0, 3)).toEqual(['level:1', 'level:2', 'break:2']);
    wrapper.unmount();
  });

  it("shows the service's refusal with its message and the field, marked on the form", async () => {
    const { wrapper, api } = await setup();
    await fill(wrapper, 'structure-row-3-sb', '30');
    await wrapper.get('form').trigger('submit');
    await settle();
    const error = wrapper.get('[data-testid="structure-error"]');
    expect(error.attributes('data-field')).toBe('tournament.structure.levels[3].sb');
    expect(error.text()).toContain("Not saved: level 3's small blind 30 is not a multiple of any chip (25, 100, 500, 1000), so it cannot be paid");
    expect(wrapper.get('[data-testid="structure-error-where"]').text()).toBe('Check: Level 3: Small blind');
    expect(wrapper.get('[data-testid="structure-row-3-sb"]').attributes('aria-invalid')).toBe('true');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('structure-row-3-sb');
    expect(api.current.settings.tournament?.structure).toEqual(TOURNAMENT_STRUCTURE);
    // Fixing the field clears the stale refusal.
    await fill(wrapper, 'structure-row-3-sb', '100');
    expect(wrapper.find('[data-testid="structure-error"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('names a structure without levels', async () => {
    const { wrapper } = await setup(await createKernelApi());
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="structure-error"]').text()).toContain('Not saved: at least one level is needed');
    expect(wrapper.get('[data-testid="structure-error-where"]').text()).toBe('Check: Levels and breaks');
    wrapper.unmount();
  });

  it('overrides the plan at a break: planned vs override, and a refused override named', async () => {
    const { wrapper, api } = await setup();
    await wrapper.get('[data-testid="override-2-edit"]').trigger('click');
    expect(wrapper.get('[data-testid="override-2-edit"]').attributes('aria-expanded')).toBe('true');
    const box = wrapper.get('[data-testid="override-2-chip-25"]');
    expect((box.element as HTMLInputElement).checked).toBe(true);
    expect(wrapper.find('[data-testid="override-2-chip-1000"]').exists()).toBe(false); // the largest never leaves
    await box.setValue(false);
    expect(wrapper.get('[data-testid="plan-after-2"] [data-testid="plan-text"]').text()).toBe('Your choice: no chip leaves here (save to check it)');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(lastSaved(api).tournament?.structure?.overrides).toEqual({ '2': [] });
    const first = wrapper.get('[data-testid="plan-after-2"]');
    expect(first.attributes('data-source')).toBe('override');
    expect(first.get('[data-testid="plan-text"]').text()).toBe('No colour-up here');
    expect(first.get('[data-testid="plan-source"]').text()).toBe('Override');
    expect(wrapper.get('[data-testid="plan-after-6"]').attributes('data-remove')).toBe('25,100,500');

    // 100 cannot leave after level 2: level 3 still needs it.
    await wrapper.get('[data-testid="override-2-chip-100"]').setValue(true);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="structure-error"]').attributes('data-field')).toBe('tournament.structure.overrides.2[0]');
    expect(wrapper.get('[data-testid="structure-error"]').text()).toContain('100 cannot leave after level 2: level 3 still needs it');
    expect(wrapper.get('[data-testid="structure-error-where"]').text()).toBe('Check: Chips leaving after level 2');

    await wrapper.get('[data-testid="override-2-clear"]').trigger('click');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(lastSaved(api).tournament?.structure?.overrides).toBeUndefined();
    expect(wrapper.get('[data-testid="plan-after-2"]').attributes('data-source')).toBe('planned');
    wrapper.unmount();
  });

  it('marks where the tournament is: only breaks to choose, saved at once', async () => {
    const { wrapper, api, store } = await setup();
    const options = wrapper.findAll('[data-testid="structure-at"] option');
    expect(options.map((option) => [option.attributes('value'), option.text()])).toEqual([
      ['', 'Playing a level (not on a break)'],
      ['2', 'On the break after level 2: colour up 25 → 100'],
      ['6', 'On the break after level 6: colour up 100, 500 → 1000'],
    ]);
    await wrapper.get('[data-testid="structure-at"]').setValue('6');
    await settle();
    expect(lastSaved(api).tournament).toEqual({ structure: TOURNAMENT_STRUCTURE, atBreakAfter: 6 });
    expect(store.plan?.proposal).toMatchObject({ afterLevel: 6, remove: [100, 500], next: 1000 });
    expect(wrapper.get('[data-testid="plan-after-6"] [data-testid="plan-now"]').text()).toBe('We are here');
    await wrapper.get('[data-testid="structure-at"]').setValue('');
    await settle();
    expect(lastSaved(api).tournament?.atBreakAfter).toBeNull();
    expect(store.plan?.proposal).toBeNull();
    wrapper.unmount();
  });

  it('keeps the mark on a break that is still there when the structure is saved, and drops it otherwise', async () => {
    const { wrapper, api } = await setup(await createKernelApi({ settings: makeTournamentState().settings, markBreak: 2 }));
    await fill(wrapper, 'structure-row-9-ante', '1000');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(lastSaved(api).tournament?.atBreakAfter).toBe(2);
    await wrapper.get('[data-testid="structure-row-2-remove"]').trigger('click');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(lastSaved(api).tournament?.atBreakAfter).toBeNull();
    wrapper.unmount();
  });

  it('imports a CSV sheet into the form, to check and save', async () => {
    const { wrapper, api } = await setup(await createKernelApi());
    const csv = 'chips,25,100,500,1000\r\nstarting stack,10000\r\nlevel,25,50\r\nlevel,50,100\r\nbreak,15\r\nlevel,100,200,25\r\nlevel,200,400\r\n';
    const input = wrapper.get('[data-testid="structure-import"]');
    Object.defineProperty(input.element, 'files', { configurable: true, value: [new File([csv], 'main-event.csv', { type: 'text/csv' })] });
    await input.trigger('change');
    await settle();
    expect(wrapper.get('[data-testid="structure-imported"]').text()).toBe('main-event.csv imported: check it, then save.');
    expect(rowKinds(wrapper)).toEqual(['level:1', 'level:2', 'break:2', 'level:3', 'level:4']);
    expect(api.callsOf('saveStructure')).toEqual([]);
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(lastSaved(api).tournament?.structure).toEqual({
      chips: [25, 100, 500, 1000],
      levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 15 }, { sb: 100, bb: 200, ante: 25 }, { sb: 200, bb: 400 }],
      startingStack: 10000,
    });
    wrapper.unmount();
  });

  it('refuses a broken file, naming the line or the field', async () => {
    const { wrapper } = await setup();
    const input = wrapper.get('[data-testid="structure-import"]');
    Object.defineProperty(input.element, 'files', { configurable: true, value: [new File(['chips,25,100\nlevel,25,x\n'], 'bad.csv')] });
    await input.trigger('change');
    await settle();
    const error = wrapper.get('[data-testid="structure-import-error"]');
    expect(error.attributes('data-field')).toBe('line 2, big blind');
    expect(error.text()).toBe('bad.csv was not imported: line 2, big blind: "x" is not a whole number');
    Object.defineProperty(input.element, 'files', { configurable: true, value: [new File(['{"chips": [25], "levels": [{"sb": "a"}]}'], 'bad.json')] });
    await input.trigger('change');
    await settle();
    expect(wrapper.get('[data-testid="structure-import-error"]').attributes('data-field')).toBe('levels[0].sb');
    // The form keeps the saved structure.
    expect(rowKinds(wrapper)).toHaveLength(10);
    wrapper.unmount();
  });

  it('exports the structure as JSON and CSV through a download link', async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="structure-export-json"]').trigger('click');
    const link = wrapper.get('[data-testid="structure-download"]');
    expect(link.attributes()).toMatchObject({ href: 'blob:test-1', 'data-format': 'json' });
    expect(link.attributes('download')).toMatch(/^structure-\d{4}-\d{2}-\d{2}\.json$/);
    expect(JSON.parse(await (blobs[0] as Blob).text())).toEqual(TOURNAMENT_STRUCTURE);
    await wrapper.get('[data-testid="structure-export-csv"]').trigger('click');
    expect(wrapper.get('[data-testid="structure-download"]').attributes('download')).toMatch(/\.csv$/);
    expect(await (blobs[1] as Blob).text()).toBe(structureToCsv(TOURNAMENT_STRUCTURE));
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:test-1');
    wrapper.unmount();
  });

  it("shows the plan's warnings", async () => {
    const structure = { chips: [20, 50, 100], levels: [{ sb: 20, bb: 40 }, { break: 10 }, { sb: 50, bb: 100 }, { sb: 100, bb: 200 }] };
    const { wrapper } = await setup(await createKernelApi({ settings: makeTournamentState({ structure, table: { chipSet: [20, 50, 100], removed: 50, next: 100 } }).settings }));
    expect(wrapper.get('[data-testid="plan-warnings"]').text()).toContain('1 race cannot exchange its chips exactly:');
    expect(wrapper.get('[data-testid="plan-warning"]').text()).toBe('after level 1: 50 is not a whole multiple of 20, so the 20 chips cannot be exchanged for 50 chips in a race');
    // The warning is a message from the engine, said in the dealer's language (no longer marked as English).
    expect(wrapper.get('[data-testid="plan-warning"]').element.closest('[lang="en"]')).toBeNull();
    wrapper.unmount();
    const prepared = await prepare({ api: await createKernelApi({ settings: makeTournamentState({ structure, table: { chipSet: [20, 50, 100], removed: 50, next: 100 } }).settings }), locale: 'fi' });
    const finnish = mount(StructureView, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    expect(finnish.get('[data-testid="plan-warning"]').text()).toBe('tason 1 jälkeen: 50 ei ole arvon 20 monikerta, joten 20-merkkejä ei voi vaihtaa 50-merkkeihin arvonnassa');
    finnish.unmount();
  });
});
