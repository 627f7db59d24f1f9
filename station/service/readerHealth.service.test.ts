import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { unknownEvent, type ShoeEvent } from '../../hardware/events';
import type { ConsoleSettings } from '../../protocol/contract';
import { HEALTH_REFRESH_MS } from './cardInputs';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';
import { serviceHarness } from './testing/services';

let now = Date.parse('2026-12-05T20:59:00Z');
const { serviceIn } = serviceHarness({ clock: () => new Date(now) });

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
  source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text' },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const BAD_CHECKSUM = unknownEvent('\\x02AS7\\x03', { key: 'hardware.frame.badChecksumHex', params: { checksum: 'xor', got: '7', expected: '70' } });

async function fedByShoe(): Promise<{ service: ConsoleService; emit: (event: ShoeEvent) => void; repeat: () => void }> {
  let sink: (event: ShoeEvent) => void = () => undefined;
  let repeats: () => void = () => undefined;
  const service = await serviceIn(mkdtempSync(join(tmpdir(), 'health-')), {
    cardSources: (_request, emit, onRepeat) => {
      sink = emit;
      repeats = onRepeat ?? (() => undefined);
      return { stop: async () => undefined };
    },
  });
  expect(await service.saveSettings(TABLE)).toEqual({ ok: true, value: null });
  return { service, emit: (event) => sink(event), repeat: () => repeats() };
}
const settle = (service: ConsoleService) => service.historyPage(null, 1);

describe('reader health at the station', () => {
  it('counts the source’s frames, unknown frames, checksum failures, repeats and held cards per hour, and warns when bad frames rise', async () => {
    now = Date.parse('2026-12-05T20:59:00Z');
    const { service, emit, repeat } = await fedByShoe();
    expect(service.getState().readerHealth).toEqual({ current: 'serial /dev/ttyUSB0', sources: [] });
    for (let i = 0; i < 18; i += 1) emit({ type: 'device', message: 'new-shoe', raw: 'NEW' });
    emit(unknownEvent('zz', { key: 'hardware.frame.notText' }));
    repeat();
    repeat();
    now = Date.parse('2026-12-05T21:01:00Z');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    emit({ type: 'card', card: 'Ah', raw: 'AH', suspect: true });
    emit({ type: 'card', card: 'Kc', raw: 'KC' });
    emit(BAD_CHECKSUM);
    emit(BAD_CHECKSUM);
    // The start-up grace's report and a status count for nothing.
    emit(unknownEvent('banner', { key: 'hardware.frame.grace', params: { n: 1, ms: 500 } }));
    emit({ type: 'status', state: 'connected' });
    await settle(service);
    // The view is made again at most every HEALTH_VIEW_MS: the counts after the first come with the next.
    await vi.waitFor(() => expect(service.getState().readerHealth.sources[0]?.recent.frames).toBe(23), { timeout: 5_000 });
    const health = service.getState().readerHealth;
    expect(health.current).toBe('serial /dev/ttyUSB0');
    expect(health.sources).toHaveLength(1);
    expect(health.sources[0]?.hours).toEqual([
      { hour: '2026-12-05T20:00:00.000Z', frames: 19, unknown: 1, checksum: 0, repeats: 2, held: 0 },
      // The suspect card held counts; the clean one queued behind it does not.
      { hour: '2026-12-05T21:00:00.000Z', frames: 4, unknown: 0, checksum: 2, repeats: 0, held: 1 },
    ]);
    // 3 bad of the last 23 frames (all within the hour): 13 %, over the 10 % that warns.
    expect(health.sources[0]?.recent).toEqual({ verdict: 'warn', frames: 23, unknown: 1, checksum: 2, repeats: 2, held: 1 });
  });

  it('a warning holds through a quiet spell between races, and ends once an hour has passed with no frame (looked at again on a timer)', async () => {
    now = Date.parse('2026-12-05T20:00:00Z');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { service, emit } = await fedByShoe();
    for (let i = 0; i < 15; i += 1) emit(i < 5 ? BAD_CHECKSUM : { type: 'device', message: 'new-shoe', raw: 'NEW' });
    await vi.waitFor(() => expect(service.getState().readerHealth.sources[0]?.recent.verdict).toBe('warn'), { timeout: 5_000 });
    // Forty quiet minutes (the next race not yet dealt): the warning stands, on the same frames.
    now += 40 * 60_000;
    vi.advanceTimersByTime(HEALTH_REFRESH_MS);
    expect(service.getState().readerHealth.sources[0]?.recent).toMatchObject({ verdict: 'warn', frames: 15, checksum: 5 });
    now += 21 * 60_000;
    vi.advanceTimersByTime(HEALTH_REFRESH_MS);
    vi.useRealTimers();
    expect(service.getState().readerHealth.sources[0]?.recent).toEqual({ verdict: 'quiet', frames: 0, unknown: 0, checksum: 0, repeats: 0, held: 0 });
    expect(service.getState().readerHealth.sources[0]?.hours[0]?.checksum).toBe(5);
  });
});
