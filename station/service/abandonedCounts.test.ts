import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import { serviceHarness } from './testing/services';
import { DEFAULT_SETTINGS } from './settings';

// Issue 41: a race abandoned (wrong counts, a misdeal) is raced again from the same counts, less
// the one that was wrong; typing every count again is where the next mistake comes from.

const clock = () => new Date('2026-12-06T12:00:00Z');
const { serviceIn, release } = serviceHarness({ clock, station: 'table-pc-1' });
const folder = () => mkdtempSync(join(tmpdir(), 'abandoned-counts-'));

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 44, hasOther: false }, { seat: 3, chips: 2, hasOther: true }];

async function expectOk(result: Promise<{ ok: boolean }>): Promise<void> {
  expect(await result).toEqual({ ok: true, value: null });
}

describe('an abandoned race’s counts', () => {
  it('come back as the drafts for the re-race, for every window and across a restart; the re-race starting clears them', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.startRace(COUNTS));
    await expectOk(service.dealCard('race-1', 'Ah'));
    expect(service.getState().countDrafts).toEqual([]);
    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    await expectOk(service.abandonRace('race-1', 'Wrong counts'));
    // Every window is told: the state after the abandon carries them, none open.
    expect(states.at(-1)?.race).toBeNull();
    expect(states.at(-1)?.countDrafts).toEqual(COUNTS);
    // The dealer corrects the one that was wrong; a restart keeps the rest.
    await expectOk(service.saveCountDrafts([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 4, hasOther: false }, { seat: 3, chips: 2, hasOther: true }]));
    await service.close();
    release(service);
    const again = await serviceIn(dataDir);
    expect(again.getState().countDrafts).toEqual([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 4, hasOther: false }, { seat: 3, chips: 2, hasOther: true }]);
    await expectOk(again.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 4, hasOther: false }, { seat: 3, chips: 2, hasOther: true }]));
    expect(again.getState().race?.id).toBe('race-2');
    expect(again.getState().countDrafts).toEqual([]);
    await again.close();
    release(again);
  });

  it('come back across a restart straight after the abandon', async () => {
    const dataDir = folder();
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.startRace(COUNTS));
    await expectOk(service.abandonRace('race-1', 'Misdeal'));
    await service.close();
    release(service);
    const again = await serviceIn(dataDir);
    expect(again.getState().countDrafts).toEqual(COUNTS);
    await again.close();
    release(again);
  });

  it('are not brought back by a confirmed race: the next race starts from empty fields', async () => {
    const service = await serviceIn(folder());
    await expectOk(service.saveSettings(TABLE));
    await expectOk(service.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }]));
    for (const card of ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc']) await expectOk(service.dealCard('race-1', card));
    await expectOk(service.confirmRace('race-1'));
    expect(service.getState().countDrafts).toEqual([]);
    await service.close();
    release(service);
  });
});
