// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { StructureInput } from '../../../engine/plan/csv';
import { createKernelApi } from '../../testing/kernelApi';
import { makeTournamentState } from '../../testing/fixtures';
import { prepare, settle } from '../../testing/setup';
import StructureView from '../../views/StructureView.vue';

/** Level 1 of 20 minutes, level 2 untimed, a 10-minute break, level 3 of 30. */
const TIMED: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200, ante: 100, minutes: 30 }],
};

async function setup() {
  const api = await createKernelApi({ settings: makeTournamentState({ structure: TIMED }).settings });
  const prepared = await prepare({ api });
  const wrapper = mount(StructureView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  return { ...prepared, wrapper };
}

const value = (wrapper: VueWrapper, testid: string) => (wrapper.get(`[data-testid="${testid}"]`).element as HTMLInputElement).value;

afterEach(() => {
  document.body.innerHTML = '';
});

describe("the level table's minutes (the tournament clock's lengths)", () => {
  it('shows each level its minutes (blank when untimed) in a column of its own, and saves them as typed', async () => {
    const { wrapper, api } = await setup();
    expect(wrapper.findAll('[data-testid="structure-levels"] thead th').map((cell) => cell.text())).toContain('Minutes');
    expect([value(wrapper, 'structure-row-0-minutes'), value(wrapper, 'structure-row-1-minutes'), value(wrapper, 'structure-row-2-minutes'), value(wrapper, 'structure-row-3-minutes')]).toEqual(['20', '', '10', '30']);
    await wrapper.get('[data-testid="structure-row-1-minutes"]').setValue('25');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(api.current.settings.tournament?.structure?.levels).toEqual([
      { sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 25 }, { break: 10 }, { sb: 100, bb: 200, ante: 100, minutes: 30 },
    ]);
  });

  it("a level's minutes refused are pointed at: the row's minutes field", async () => {
    const { wrapper } = await setup();
    await wrapper.get('[data-testid="structure-row-3-minutes"]').setValue('601');
    await wrapper.get('form').trigger('submit');
    await settle();
    expect(wrapper.get('[data-testid="structure-error"]').text()).toContain('level 3 can be played at most 600 minutes (got 601)');
    expect(wrapper.get('[data-testid="structure-error-where"]').text()).toBe('Check: Level 3: Minutes');
    expect(wrapper.get('[data-testid="structure-row-3-minutes"]').attributes('aria-invalid')).toBe('true');
  });
});
