// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ReaderHealthView, SourceStatus as Status } from '../../protocol/contract';
import { prepare } from '../testing/setup';
import ReaderHealthTable from './ReaderHealthTable.vue';
import SourceStatus from './SourceStatus.vue';

async function pill(source: Status) {
  const { plugins } = await prepare();
  return mount(SourceStatus, { props: { source, lastInput: null }, global: { plugins } });
}

describe('the source pill', () => {
  it('shows manual entry as “Manual entry” only: no state, no path (even one left in the settings)', async () => {
    const wrapper = await pill({ kind: 'manual', path: '/dev/ttyUSB0', state: 'idle' });
    expect(wrapper.get('[data-testid="source-status"]').text()).toBe('Manual entry');
    wrapper.unmount();
  });

  it('names a serial port by its path, with its state', async () => {
    const wrapper = await pill({ kind: 'serial', path: '/dev/ttyUSB0', state: 'connected' });
    expect(wrapper.get('[data-testid="source-name"]').text()).toBe('/dev/ttyUSB0');
    expect(wrapper.get('[data-testid="source-status"]').text()).toContain('Connected');
    expect(wrapper.get('[data-testid="source-status"]').text()).not.toContain('Serial port');
    wrapper.unmount();
  });

  it('names a serial source without a port yet, and the simulated shoe, by kind (the simulator opens no port)', async () => {
    const serial = await pill({ kind: 'serial', path: '', state: 'idle' });
    expect(serial.get('[data-testid="source-name"]').text()).toBe('Serial port');
    serial.unmount();
    const simulator = await pill({ kind: 'simulator', path: '/tmp/shoe', state: 'connected' });
    expect(simulator.get('[data-testid="source-name"]').text()).toBe('Simulated shoe');
    expect(simulator.text()).not.toContain('/tmp/shoe');
    simulator.unmount();
  });
});

describe('reader health beside the source', () => {
  const recent = { frames: 40, unknown: 3, checksum: 5, repeats: 2, held: 1 };
  const health = (verdict: 'ok' | 'warn' | 'quiet'): ReaderHealthView => ({
    current: 'serial /dev/ttyUSB0',
    sources: [{ source: 'serial /dev/ttyUSB0', hours: [{ hour: '2026-12-05T20:00:00.000Z', ...recent }, { hour: '2026-12-05T21:00:00.000Z', ...recent, frames: 41 }], recent: { verdict, ...recent } }],
  });

  it('warns in the dealer’s language when the bad frames among the last ones rose, and says nothing otherwise', async () => {
    const { plugins } = await prepare();
    const warned = mount(SourceStatus, { props: { source: { kind: 'serial', path: '/dev/ttyUSB0', state: 'connected' }, lastInput: null, health: health('warn') }, global: { plugins } });
    expect(warned.get('[data-testid="reader-health-warning"]').text()).toBe('Card reader: 8 of the last 40 frames bad. Check the cable and the reader.');
    warned.unmount();
    for (const verdict of ['ok', 'quiet'] as const) {
      const quiet = mount(SourceStatus, { props: { source: { kind: 'serial', path: '/dev/ttyUSB0', state: 'connected' }, lastInput: null, health: health(verdict) }, global: { plugins } });
      expect(quiet.find('[data-testid="reader-health-warning"]').exists()).toBe(false);
      quiet.unmount();
    }
  });

  it('the technician’s table: each hour’s counts, newest first, with the verdict', async () => {
    const { plugins } = await prepare();
    const table = mount(ReaderHealthTable, { props: { health: health('warn') }, global: { plugins } });
    expect(table.get('[data-testid="reader-health"]').attributes('data-verdict')).toBe('warn');
    expect(table.findAll('th').map((cell) => cell.text())).toEqual(['/dev/ttyUSB0', 'Frames', 'Unknown', 'Checksum failed', 'Repeats', 'Held']);
    const rows = table.findAll('[data-testid="reader-health-hour"]');
    expect(rows.map((row) => row.attributes('data-hour'))).toEqual(['2026-12-05T21:00:00.000Z', '2026-12-05T20:00:00.000Z']);
    expect(rows[0]?.findAll('td').slice(1).map((cell) => cell.text())).toEqual(['41', '3', '5', '2', '1']);
    table.unmount();
  });
});
