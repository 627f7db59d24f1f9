// A second race of chips already raced off at this break is refused, with the race that raced
// them off and when: the break is the one marked (by hand or by the clock); the next break, an
// abandoned race and a table with no break marked refuse nothing; a restart refuses the same.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StructureInput } from '../../engine/plan/csv';
import { wallClock } from '../../protocol/colorUp';
import type { ConsoleSettings } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import type { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';
import { serviceHarness } from './testing/services';

const AT = '2026-11-29T12:00:00.000Z';
const { serviceIn, restart } = serviceHarness({ clock: () => new Date(AT) });

const ok = { ok: true, value: null };
/** 25 leaves at the break after level 4; 100 at the break after level 6. */
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { sb: 75, bb: 150 }, { sb: 100, bb: 200 }, { break: 15 },
    { sb: 200, bb: 400 }, { sb: 300, bb: 600 }, { break: 15 }, { sb: 500, bb: 1000 }, { sb: 1000, bb: 2000 },
  ],
};
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
/** Seat 1 holds exactly one `next` chip's worth of the leaving chips, the others none: complete at once. */
const evenCounts = (ratio: number) => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }];

/** The refusal of a race of 25s raced off in `race` at the break after `level`. */
const racedOff = (removed: number, level: number, race: string) => ({
  ok: false,
  error: {
    field: 'removed',
    message: `the ${removed} chips were already raced off at this break (after level ${level}), in ${race} confirmed at ${wallClock(AT)}: they cannot be raced a second time at this break`,
    said: { key: 'service.colorUp.racedOff', params: { removed, level, race, time: wallClock(AT) } },
  },
});

async function console(structure: StructureInput | null): Promise<{ service: ConsoleService; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'raced-off-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(TABLE)).toEqual(ok);
  if (structure !== null) expect(await service.saveStructure(structure)).toEqual(ok);
  return { service, dataDir };
}

async function raceTo(service: ConsoleService, end: 'confirm' | 'abandon', ratio = 4): Promise<void> {
  expect(await service.startRace(evenCounts(ratio))).toEqual(ok);
  const id = service.getState().race?.id ?? '';
  expect(await (end === 'confirm' ? service.confirmRace(id) : service.abandonRace(id, 'misdeal'))).toEqual(ok);
}

describe('a second race of chips raced off at this break', () => {
  it('is refused after "Colour-up done", naming the race and when, and the same after a restart', async () => {
    const { service, dataDir } = await console(STRUCTURE);
    expect(service.getState().plan?.colorUps).toEqual([{ afterLevel: 4, remove: [25], next: 100 }, { afterLevel: 6, remove: [100], next: 500 }]);
    expect(await service.markBreak(4)).toEqual(ok);
    expect(await service.startColorUp(4, 25)).toEqual(ok);
    await raceTo(service, 'confirm');
    expect(service.getState().colorUp?.done.map((race) => race.removed)).toEqual([25]);

    expect(await service.startRace(evenCounts(4))).toEqual(racedOff(25, 4, 'race-1'));
    expect(await dispatch(service, 'startRace', [evenCounts(4)])).toEqual(racedOff(25, 4, 'race-1'));
    expect(await service.startColorUp(4, 25)).toEqual(racedOff(25, 4, 'race-1'));
    expect(service.getState().race).toBeNull();

    const again = await restart(service, dataDir);
    expect(await again.startRace(evenCounts(4))).toEqual(racedOff(25, 4, 'race-1'));
    expect(again.getState().journal.findings).toEqual([]);
  });

  it('is allowed at the next break, and while playing', async () => {
    const { service } = await console(STRUCTURE);
    await service.markBreak(4);
    await raceTo(service, 'confirm');
    expect(await service.markBreak(null)).toEqual(ok);
    await raceTo(service, 'confirm');
    expect(await service.markBreak(6)).toEqual(ok);
    // The 25s at the break after level 6 are a race of their own (not the colour-up's), then refused again there.
    await raceTo(service, 'confirm');
    expect(await service.startRace(evenCounts(4))).toEqual(racedOff(25, 6, 'race-3'));
    // The colour-up of the 100s is untouched by it.
    expect(await service.startColorUp(6, 100)).toEqual(ok);
    await raceTo(service, 'confirm', 5);
    expect(await service.startRace(evenCounts(5))).toEqual(racedOff(100, 6, 'race-4'));
  });

  it('is allowed after an abandoned race: only a confirmed race takes the chips off', async () => {
    const { service } = await console(STRUCTURE);
    await service.markBreak(4);
    await raceTo(service, 'abandon');
    expect(service.getState().colorUp?.done).toEqual([]);
    expect(await service.startColorUp(4, 25)).toEqual(ok);
    await raceTo(service, 'abandon');
    await raceTo(service, 'confirm');
    expect(await service.startRace(evenCounts(4))).toEqual(racedOff(25, 4, 'race-3'));
  });

  it('is allowed at a home game with no break marked (no structure): each race is its own', async () => {
    const { service } = await console(null);
    expect(service.getState().settings.table).toMatchObject({ removed: 25, next: 100 });
    await raceTo(service, 'confirm');
    await raceTo(service, 'confirm');
    await raceTo(service, 'confirm');
    expect(service.getState().history.total).toBe(3);
  });
});
