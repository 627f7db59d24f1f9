// Abandoning a race says why: the reason is required and not blank, trimmed into the journal's
// race-abandon record and the race's record slip, the same after a restart.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ConsoleSettings } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { DEFAULT_SETTINGS } from './settings';
import { serviceHarness } from './testing/services';

const { serviceIn, restart } = serviceHarness({ clock: () => new Date('2026-11-29T12:00:00Z') });
const ok = { ok: true, value: null };
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const NEEDED = { ok: false, error: { field: 'reason', message: 'say why the race is abandoned: a reason is needed for the record', said: { key: 'command.abandonReason' } } };

it('refuses an abandon without a reason, and records the reason given, trimmed, on the journal and the slip', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'abandon-reason-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(TABLE)).toEqual(ok);
  expect(await service.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }])).toEqual(ok);
  const before = service.getState().journal.records;
  expect(await dispatch(service, 'abandonRace', ['race-1'])).toEqual(NEEDED);
  expect(await dispatch(service, 'abandonRace', ['race-1', ' \n '])).toEqual(NEEDED);
  // Called directly (not through the command table), the service refuses it too.
  expect(await service.abandonRace('race-1', '   ')).toEqual(NEEDED);
  expect(service.getState().journal.records).toBe(before);
  expect(service.getState().race?.id).toBe('race-1');

  expect(await dispatch(service, 'abandonRace', ['race-1', '  Misdeal: seat 2 got two cards '])).toEqual(ok);
  const last = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').at(-1) ?? '';
  expect(JSON.parse(last).record).toEqual({ kind: 'race-abandon', raceId: 'race-1', reason: 'Misdeal: seat 2 got two cards' });
  const again = await restart(service, dataDir);
  const record = await again.raceRecord('race-1');
  expect(record.ok && record.value.events.at(-1)).toMatchObject({ type: 'abandon', reason: 'Misdeal: seat 2 got two cards' });
});
