// The race settings a table chooses on its own over the rule set's (issue 25: rounding, dealStart,
// protection, award) reach the race: kept in the settings, on the race-start record, and kept when a
// screen that does not edit them saves the table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings } from '../../protocol/contract';
import { recordsOfKind, serviceHarness } from './testing/services';
import { DEFAULT_SETTINGS } from './settings';

const { serviceIn, restart } = serviceHarness({ clock: () => new Date('2026-12-05T12:00:00Z'), station: 'table-pc-1' });

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];

describe('a table’s house variants', () => {
  it('run the race they choose: high card takes all, the Finnish example, journaled and read back after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'house-'));
    let service = await serviceIn(dataDir);
    expect(await service.saveSettings({ ...TABLE, table: { ...TABLE.table, award: 'high-card-takes-all' } })).toEqual({ ok: true, value: null });
    const preview = await service.previewRace(COUNTS);
    expect(preview.ok && preview.value.deal).toEqual([{ seat: 1, cards: 1 }, { seat: 2, cards: 1 }, { seat: 3, cards: 1 }]);
    await service.startRace(COUNTS);
    for (const card of ['Ah', 'Ts', 'Td']) expect(await service.dealCard('race-1', card)).toEqual({ ok: true, value: null });
    expect(service.getState().race?.summary).toMatchObject({ status: 'complete', awards: [1, 1], valueDelta: 25, settings: { award: 'high-card-takes-all' } });
    expect(recordsOfKind(dataDir, 'race-start')).toEqual([expect.objectContaining({ race: expect.objectContaining({ rules: 'classic', award: 'high-card-takes-all' }) })]);
    service = await restart(service, dataDir);
    expect(service.getState().race?.summary).toMatchObject({ status: 'complete', awards: [1, 1] });
    expect(service.getState().settings.table.award).toBe('high-card-takes-all');
  });

  it('are kept when a screen saves the table without them, cleared by a null, refused naming the field when unknown', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'house-')));
    await service.saveSettings({ ...TABLE, table: { ...TABLE.table, dealStart: 'button', rounding: 'pooled-more-than-half' } });
    expect(await service.saveSettings({ ...TABLE, table: { ...TABLE.table, dealer: 'Liisa' } })).toEqual({ ok: true, value: null });
    expect(service.getState().settings.table).toMatchObject({ dealStart: 'button', rounding: 'pooled-more-than-half', dealer: 'Liisa' });
    const preview = await service.previewRace([{ seat: 1, chips: 2, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }]);
    // 6 odd 25s: one chip, not two; the button's seat 3 dealt first.
    expect(preview.ok && preview.value).toMatchObject({ raceChips: 1, deal: [{ seat: 3, cards: 2 }, { seat: 1, cards: 2 }, { seat: 2, cards: 2 }] });
    await service.saveSettings({ ...TABLE, table: { ...TABLE.table, dealStart: null, rounding: 'pooled-half-up' } as never });
    expect(service.getState().settings.table.dealStart).toBeUndefined();
    expect(service.getState().settings.table.rounding).toBe('pooled-half-up');
    const refused = await service.saveSettings({ ...TABLE, table: { ...TABLE.table, award: 'winner-takes-all' } as never });
    expect(refused).toMatchObject({ ok: false, error: { field: 'table.award' } });
  });
});
