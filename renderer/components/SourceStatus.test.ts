// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { SourceStatus as Status } from '../../protocol/contract';
import { prepare } from '../testing/setup';
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
