// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../testing/fakeApi';
import { makeHistoryEntry, makeState } from '../testing/fixtures';
import { prepare, settle } from '../testing/setup';
import HistoryView from './HistoryView.vue';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('history', () => {
  it('lists confirmed races newest first with chips, rules, winners, value and corrections', async () => {
    const older = makeHistoryEntry({ id: 'a', confirmedAt: '2024-05-04T18:00:00.000Z' });
    const newer = makeHistoryEntry({ id: 'b', confirmedAt: '2024-05-04T19:00:00.000Z', corrections: 2, rules: 'tda' });
    const { plugins } = await prepare({ api: createFakeApi({ state: makeState({ history: [older, newer] }) }) });
    const wrapper = mount(HistoryView, { global: { plugins } });
    const rows = wrapper.findAll('[data-testid="history-row"]');
    expect(rows.map((row) => row.attributes('data-id'))).toEqual(['b', 'a']);
    const first = rows[0];
    expect(first?.text()).toContain('25 → 100');
    expect(first?.text()).toContain('TDA rule');
    expect(first?.get('[data-testid="history-winners"]').text()).toBe('Seat 1 — Matti (A♥), Seat 2 — Teppo (10♠)');
    expect(first?.get('[data-testid="history-value"]').text()).toBe('+25');
    expect(first?.get('[data-testid="history-corrections"]').text()).toBe('2');
    expect(first?.get('time').attributes('datetime')).toBe('2024-05-04T19:00:00.000Z');
    wrapper.unmount();
  });

  it('says so when there is no history', async () => {
    const { plugins } = await prepare();
    const wrapper = mount(HistoryView, { global: { plugins } });
    expect(wrapper.get('[data-testid="history-empty"]').text()).toBe('No races confirmed yet.');
    wrapper.unmount();
  });

  it('exports CSV and JSON as a download link', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return `blob:test/${created.length}`;
    });
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const { plugins, api } = await prepare({ api: createFakeApi({ state: makeState({ history: [makeHistoryEntry({ id: 'x' })] }) }) });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await wrapper.get('[data-testid="export-csv"]').trigger('click');
    await settle();
    expect(api.callsOf('exportHistory')).toEqual([['csv']]);
    const link = wrapper.get('[data-testid="export-download"]');
    expect(link.attributes('href')).toBe('blob:test/1');
    expect(link.attributes('download')).toMatch(/^chip-races-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await created[0]?.text()).toContain('x,2024-05-04T18:34:00.000Z');
    expect(created[0]?.type).toContain('text/csv');
    await wrapper.get('[data-testid="export-json"]').trigger('click');
    await settle();
    expect(revoke).toHaveBeenCalledWith('blob:test/1');
    expect(wrapper.get('[data-testid="export-download"]').attributes('download')).toMatch(/\.json$/);
    expect(created[1]?.type).toBe('application/json');
    wrapper.unmount();
    expect(revoke).toHaveBeenCalledWith('blob:test/2');
  });

  it('shows a refused export', async () => {
    const api = createFakeApi();
    api.cann('exportHistory', { ok: false, error: { field: 'format', message: 'cannot write' } });
    const { plugins } = await prepare({ api });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await wrapper.get('[data-testid="export-json"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="export-error"]').text()).toBe('Not done: cannot write');
    expect(wrapper.find('[data-testid="export-download"]').exists()).toBe(false);
    wrapper.unmount();
  });
});
