// The screens' intents as commands of their own (markBreak, startColorUp, setLanguage,
// setClockSound, saveStructure): each accepted, refused with a clear message, kept over a restart; a stale
// window undoes nothing; the colour-up's progress is the journal's, the same after a restart.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StructureInput } from '../../engine/plan/csv';
import type { ConsoleSettings } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { ConsoleService } from './service';
import { serviceHarness } from './testing/services';
import { DEFAULT_SETTINGS } from './settings';

const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn, restart } = serviceHarness({ clock });

const ok = { ok: true, value: null };
/** Two colour-ups: 25 after level 2; 100 and 500 (two races) after level 6. */
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 300, bb: 600, ante: 100 }, { sb: 500, bb: 1000 }, { break: 15 },
    { sb: 1000, bb: 2000 }, { sb: 2000, bb: 4000 },
  ],
};
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
/** Seat 1 holds exactly one `next` chip's worth of the leaving chips, the others none: nothing to race, complete at once. */
const evenCounts = (ratio: number) => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }];

const journalRecords = (dataDir: string) =>
  readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { record?: { kind?: string } }).filter((line) => line.record !== undefined).map((line) => line.record);

async function withStructure(): Promise<{ service: ConsoleService; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'intents-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(TABLE)).toEqual(ok);
  expect(await service.saveStructure(STRUCTURE)).toEqual(ok);
  return { service, dataDir };
}

describe('saveStructure', () => {
  it('saves the structure, makes its chips the table’s, keeps them once on disk, and survives a restart', async () => {
    const { service, dataDir } = await withStructure();
    const { settings, plan } = service.getState();
    expect(settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000], removed: 25, next: 100 });
    expect(settings.tournament).toEqual({ structure: STRUCTURE, atBreakAfter: null });
    expect(plan?.colorUps).toEqual([{ afterLevel: 2, remove: [25], next: 100 }, { afterLevel: 6, remove: [100, 500], next: 1000 }]);
    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
    expect(file.table.chipSet).toEqual([25, 100, 500, 1000]);
    expect(file.tournament.structure.chips).toBeUndefined();
    const again = await restart(service, dataDir);
    expect(again.getState().settings).toEqual(settings);
  });

  it('refuses a structure that does not plan, naming the field; nothing changes', async () => {
    const { service } = await withStructure();
    const before = service.getState().settings;
    expect(await service.saveStructure({ ...STRUCTURE, levels: [{ sb: 30, bb: 60 }] })).toMatchObject({
      ok: false,
      error: { field: 'tournament.structure.levels[0].sb', message: expect.stringContaining('30 is not a multiple of any chip') },
    });
    expect(await dispatch(service, 'saveStructure', [[1, 2]])).toMatchObject({ ok: false, error: { field: 'structure', message: 'must be a tournament structure: a JSON object of at most 256 KB' } });
    expect(service.getState().settings).toBe(before);
  });

  it('changes the table’s chips with the structure’s: the chip leaving and the next kept where they fit', async () => {
    const { service } = await withStructure();
    expect(await service.saveStructure({ ...STRUCTURE, chips: [25, 100, 500, 1000, 5000] })).toEqual(ok);
    expect(service.getState().settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000, 5000], removed: 25, next: 100 });
    // saveSettings with a structure of other chips than the table's is refused: the chip set is kept once.
    expect(await service.saveSettings({ ...service.getState().settings, tournament: { structure: STRUCTURE, atBreakAfter: null } })).toMatchObject({ ok: false, error: { field: 'tournament.structure.chips' } });
  });
});

describe('markBreak', () => {
  it('marks the break, journaled, and survives a restart; null resumes play', async () => {
    const { service, dataDir } = await withStructure();
    expect(await service.markBreak(6)).toEqual(ok);
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 6, remove: [100, 500], next: 1000 });
    expect(service.getState().colorUp).toEqual({ afterLevel: 6, done: [], running: null });
    expect(journalRecords(dataDir).at(-1)).toEqual({ kind: 'break-marked', afterLevel: 6 });
    const again = await restart(service, dataDir);
    expect(again.getState().settings.tournament?.atBreakAfter).toBe(6);
    expect(again.getState().colorUp).toEqual({ afterLevel: 6, done: [], running: null });
    expect(again.getState().journal.findings).toEqual([]);
    expect(await again.markBreak(null)).toEqual(ok);
    expect(again.getState().plan?.proposal).toBeNull();
    expect(again.getState().colorUp).toBeNull();
  });

  it('refuses a level not followed by a break, a tournament without a structure, and a malformed level', async () => {
    const { service } = await withStructure();
    expect(await service.markBreak(3)).toMatchObject({ ok: false, error: { field: 'tournament.atBreakAfter', message: 'level 3 is not followed by a break in the structure' } });
    expect(await dispatch(service, 'markBreak', ['6'])).toMatchObject({ ok: false, error: { field: 'afterLevel', message: 'must be the level the break follows, or null when the tournament is playing' } });
    const bare = await serviceIn(mkdtempSync(join(tmpdir(), 'intents-')));
    expect(await bare.markBreak(2)).toMatchObject({ ok: false, error: { field: 'tournament', message: 'no tournament structure is saved: save the structure first' } });
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
  });
});

describe('setLanguage', () => {
  it('switches the language alone, and keeps it over a restart; an unknown one is refused', async () => {
    const { service, dataDir } = await withStructure();
    await service.markBreak(2);
    expect(await service.setLanguage('fi')).toEqual(ok);
    expect(service.getState().settings).toMatchObject({ language: 'fi', tournament: { atBreakAfter: 2 } });
    expect(await dispatch(service, 'setLanguage', ['de'])).toMatchObject({ ok: false, error: { field: 'language', message: 'choose one of en, fi, ru' } });
    const again = await restart(service, dataDir);
    expect(again.getState().settings.language).toBe('fi');
  });
});

describe('setClockSound', () => {
  it("switches the room clock's sound alone (on until set), keeps it over a restart and a save of the rest; a non-boolean is refused", async () => {
    const { service, dataDir } = await withStructure();
    expect(service.getState().settings.display).toBeUndefined();
    expect(await service.setClockSound(false)).toEqual(ok);
    expect(service.getState().settings).toMatchObject({ display: { clockSound: false }, tournament: { structure: STRUCTURE } });
    expect(await service.setClockSound(false)).toEqual(ok);
    expect(await dispatch(service, 'setClockSound', ['yes'])).toMatchObject({ ok: false, error: { field: 'on', message: 'must be true or false' } });
    // A screen saving the table and source leaves the display's settings as they are.
    const { language: _language, tournament: _tournament, display: _display, ...tableAndSource } = service.getState().settings;
    expect(await service.saveSettings({ ...tableAndSource, table: { ...tableAndSource.table, button: 2 } })).toEqual(ok);
    expect(service.getState().settings.display).toEqual({ clockSound: false, resultMinutes: 10 });
    const again = await restart(service, dataDir);
    expect(again.getState().settings.display).toEqual({ clockSound: false, resultMinutes: 10 });
    expect(await again.setClockSound(true)).toEqual(ok);
    expect(again.getState().settings.display).toEqual({ clockSound: true, resultMinutes: 10 });
  });
});

describe('setResultMinutes', () => {
  it('sets how long the player display keeps a result (10 until set), the sound kept, over a restart; minutes out of 0 to 60 refused', async () => {
    const { service, dataDir } = await withStructure();
    expect(await service.setClockSound(false)).toEqual(ok);
    expect(await service.setResultMinutes(0)).toEqual(ok);
    expect(service.getState().settings.display).toEqual({ clockSound: false, resultMinutes: 0 });
    expect(await dispatch(service, 'setResultMinutes', [61])).toMatchObject({ ok: false, error: { field: 'minutes', message: 'must be a whole number from 0 to 60' } });
    expect(await dispatch(service, 'setResultMinutes', [2.5])).toMatchObject({ ok: false, error: { field: 'minutes' } });
    const again = await restart(service, dataDir);
    expect(again.getState().settings.display).toEqual({ clockSound: false, resultMinutes: 0 });
    expect(await again.setResultMinutes(30)).toEqual(ok);
    expect(again.getState().settings.display).toEqual({ clockSound: false, resultMinutes: 30 });
  });
});

describe('setCountStack', () => {
  it("sets the house's stack for the count keypad (none until set), kept across a save of the table and a restart; a stack out of 0 to 100 refused (issue 24)", async () => {
    const { service, dataDir } = await withStructure();
    expect(service.getState().settings.counting).toBeUndefined();
    expect(await service.setCountStack(20)).toEqual(ok);
    expect(service.getState().settings.counting).toEqual({ stack: 20 });
    expect(await dispatch(service, 'setCountStack', [101])).toMatchObject({ ok: false, error: { field: 'stack', message: 'must be a whole number from 0 to 100' } });
    expect(await dispatch(service, 'setCountStack', [-1])).toMatchObject({ ok: false, error: { field: 'stack' } });
    expect(await dispatch(service, 'setCountStack', ['20'])).toMatchObject({ ok: false, error: { field: 'stack' } });
    // A screen saving the table and source leaves the counting's settings as they are.
    const { language: _language, tournament: _tournament, display: _display, counting: _counting, ...tableAndSource } = service.getState().settings;
    expect(await service.saveSettings({ ...tableAndSource, table: { ...tableAndSource.table, button: 2 } })).toEqual(ok);
    expect(service.getState().settings.counting).toEqual({ stack: 20 });
    const again = await restart(service, dataDir);
    expect(again.getState().settings.counting).toEqual({ stack: 20 });
    expect(await again.setCountStack(0)).toEqual(ok);
    expect(again.getState().settings.counting).toEqual({ stack: 0 });
  });
});

describe('startColorUp', () => {
  it('sets the table to the named race of the proposed colour-up; refuses a stale break, an unknown race, an open race', async () => {
    const { service } = await withStructure();
    expect(await service.startColorUp(6, 100)).toMatchObject({ ok: false, error: { field: 'afterLevel', message: expect.stringContaining('not on a break, not the one after level 6: this screen was out of date') } });
    await service.markBreak(6);
    expect(await service.startColorUp(2, 25)).toMatchObject({ ok: false, error: { field: 'afterLevel', message: expect.stringContaining('on the break after level 6, not the one after level 2') } });
    expect(await service.startColorUp(6, 25)).toMatchObject({ ok: false, error: { field: 'removed', message: 'the colour-up after level 6 has no race taking 25 off' } });
    expect(await dispatch(service, 'startColorUp', [6])).toMatchObject({ ok: false, error: { field: 'removed', message: 'must be the chip the race takes off' } });
    expect(await service.startColorUp(6, 500)).toEqual(ok);
    expect(service.getState().settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000], removed: 500, next: 1000 });
    expect(await service.startRace(evenCounts(2))).toEqual(ok);
    expect(await service.startColorUp(6, 100)).toMatchObject({ ok: false, error: { field: 'race', message: 'race race-1 is still open: confirm or abandon it first' } });
  });
});

describe('a stale window undoes nothing', () => {
  it('one window marks the break, the other (holding the old settings) saves the structure, and the other way round', async () => {
    const { service } = await withStructure();
    // Both windows got this state; each acts on it without having seen the other's change.
    const old = service.getState().settings;
    expect(await service.markBreak(6)).toEqual(ok);
    const edited = { ...(old.tournament?.structure as StructureInput), startingStack: 20_000 };
    expect(await service.saveStructure(edited)).toEqual(ok);
    expect(service.getState().settings.tournament).toEqual({ structure: edited, atBreakAfter: 6 });

    expect(await service.saveStructure({ ...edited, startingStack: 30_000 })).toEqual(ok);
    expect(await service.markBreak(2)).toEqual(ok);
    expect(service.getState().settings.tournament).toEqual({ structure: { ...edited, startingStack: 30_000 }, atBreakAfter: 2 });
    // The language switched in one window is not undone by the other's structure, nor the other way round.
    expect(await service.setLanguage('ru')).toEqual(ok);
    expect(await service.saveStructure(edited)).toEqual(ok);
    expect(service.getState().settings).toMatchObject({ language: 'ru', tournament: { structure: edited, atBreakAfter: 2 } });
    // Settings saved by a screen that edits neither the language nor the tournament keep both.
    const { language: _language, tournament: _tournament, ...tableAndSource } = old;
    expect(await service.saveSettings({ ...tableAndSource, table: { ...old.table, button: 2 } })).toEqual(ok);
    expect(service.getState().settings).toMatchObject({ language: 'ru', table: { button: 2 }, tournament: { structure: edited, atBreakAfter: 2 } });
  });

  it('a structure that drops the break marked leaves the tournament playing', async () => {
    const { service } = await withStructure();
    await service.markBreak(2);
    const levels = STRUCTURE.levels.filter((entry) => !('break' in entry && entry.break === 10));
    expect(await service.saveStructure({ ...STRUCTURE, levels })).toEqual(ok);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
  });
});

describe('the colour-up’s progress is the journal’s', () => {
  it('knows which race runs which race of the colour-up and when it was confirmed; the same after a restart; a break marked afresh starts over', async () => {
    const { service, dataDir } = await withStructure();
    await service.markBreak(6);
    expect(await service.startColorUp(6, 100)).toEqual(ok);
    expect(await service.startRace(evenCounts(5))).toEqual(ok);
    expect(service.getState().colorUp).toEqual({ afterLevel: 6, done: [], running: { raceId: 'race-1', removed: 100, next: 500 } });
    expect(await service.confirmRace('race-1')).toEqual(ok);
    const done = [{ raceId: 'race-1', removed: 100, next: 500, confirmedAt: '2026-11-29T12:00:00.000Z' }];
    expect(service.getState().colorUp).toEqual({ afterLevel: 6, done, running: null });
    expect(await service.startColorUp(6, 100)).toMatchObject({ ok: false, error: { field: 'removed', message: expect.stringContaining('already raced off') } });
    // A race of other chips is no race of the colour-up.
    expect(await service.saveSettings({ ...service.getState().settings, table: { ...service.getState().settings.table, removed: 25, next: 100 } })).toEqual(ok);
    expect(await service.startRace(evenCounts(4))).toEqual(ok);
    expect(service.getState().colorUp?.running).toBeNull();
    expect(await service.abandonRace('race-2', 'wrong chips')).toEqual(ok);

    const again = await restart(service, dataDir);
    expect(again.getState().colorUp).toEqual({ afterLevel: 6, done, running: null });
    expect(again.getState().journal.findings).toEqual([]);
    expect(await again.startColorUp(6, 500)).toEqual(ok);
    expect(await again.startRace(evenCounts(2))).toEqual(ok);
    expect(again.getState().colorUp?.running).toEqual({ raceId: 'race-3', removed: 500, next: 1000 });
    expect(await again.confirmRace('race-3')).toEqual(ok);
    expect(again.getState().colorUp?.done.map((race) => race.removed)).toEqual([100, 500]);
    // The race's record reads as before: the colour-up's records are not the race's lines.
    const record = await again.raceRecord('race-3');
    expect(record.ok && record.value.events.map((event) => event.type)).toEqual(['start', 'confirm']);

    const third = await restart(again, dataDir);
    expect(third.getState().colorUp?.done.map((race) => race.raceId)).toEqual(['race-1', 'race-3']);
    expect(await third.markBreak(6)).toEqual(ok);
    expect(third.getState().colorUp).toEqual({ afterLevel: 6, done: [], running: null });
    expect(journalRecords(dataDir).filter((record) => record?.kind === 'color-up-race')).toEqual([
      { kind: 'color-up-race', race: 'race-1', afterLevel: 6, removed: 100, next: 500 },
      { kind: 'color-up-race', race: 'race-3', afterLevel: 6, removed: 500, next: 1000 },
    ]);
  });
});
