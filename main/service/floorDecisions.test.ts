// The station's dealings with the floor (issue 23): callFloor journals a `floor-called` record with
// its note (optional, trimmed) and the race open then; the floor's decisions the link reads are
// journaled once each by the floor's id (read again, or after a restart, nothing more), a row this
// console does not keep is passed by, and the state, the race's slip and the history export carry
// them, the same after a restart (from the journal or a checkpoint).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dispatch } from '../ipc/validate';
import type { FloorDecisionRow } from '../floorLink/link';
import { FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE } from './testing/finnish';
import { exportText, recordsOfKind, serviceHarness } from './testing/services';

const { serviceIn, restart } = serviceHarness({ clock: () => new Date('2026-12-04T21:00:00Z') });
const ok = { ok: true, value: null };

const STANDS: FloorDecisionRow = { id: 7, at: '2026-12-04T21:04:00.000Z', by: 'Anna', decision: 'race-stands', note: 'the count was right', raceId: 'race-1' };

it('journals a call of the floor with its note and the open race, and each decision of the floor once', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-decisions-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
  // Through the command table: the note is optional, text of at most 200 characters.
  expect(await dispatch(service, 'callFloor', [])).toEqual(ok);
  expect(await dispatch(service, 'callFloor', [{}])).toMatchObject({ ok: false, error: { field: 'note' } });
  expect(await dispatch(service, 'callFloor', ['x'.repeat(201)])).toMatchObject({ ok: false, error: { field: 'note' } });
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  expect(await dispatch(service, 'callFloor', ['  seat 3 disputes the count  '])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-called')).toEqual([{ kind: 'floor-called', note: '' }, { kind: 'floor-called', note: 'seat 3 disputes the count', raceId: 'race-1' }]);
  expect(service.getState().floorCalls).toEqual({ called: { at: '2026-12-04T21:00:00.000Z', note: 'seat 3 disputes the count', raceId: 'race-1' }, decisions: [] });

  for (const card of FINNISH_CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
  expect(await service.confirmRace('race-1')).toEqual(ok);
  // Read twice (two polls before the first was journaled), with a row of a shape this console does not keep.
  const odd = { ...STANDS, id: 8, decision: 'coin-toss' };
  expect(await service.takeFloorDecisions([STANDS, odd])).toEqual(ok);
  expect(await service.takeFloorDecisions([STANDS])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision')).toEqual([{ kind: 'floor-decision', id: 7, decision: 'race-stands', note: 'the count was right', by: 'Anna', at: '2026-12-04T21:04:00.000Z', raceId: 'race-1' }]);
  const decision = { id: 7, decision: 'race-stands', note: 'the count was right', by: 'Anna', at: '2026-12-04T21:04:00.000Z', raceId: 'race-1' };
  // The floor decided after the call: it is answered.
  expect(service.getState().floorCalls).toEqual({ called: null, decisions: [decision] });
  const slip = await service.raceRecord('race-1');
  expect(slip.ok && slip.value.floorDecisions).toEqual([decision]);
  expect((await exportText(service, 'csv')).split('\r\n')[1]).toMatch(/,2026-12-04T21:04:00\.000Z Anna: race-stands: the count was right$/);
  expect((JSON.parse(await exportText(service, 'json')) as { races: { floorDecisions?: unknown }[] }).races[0]?.floorDecisions).toEqual([decision]);

  // Restarted: the same, and the decision read again is not journaled again.
  const again = await restart(service, dataDir);
  expect(again.getState().floorCalls).toEqual({ called: null, decisions: [decision] });
  expect(await again.takeFloorDecisions([STANDS])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision')).toHaveLength(1);
  const later = { ...STANDS, id: 9, decision: 'chips-adjusted' as const, note: 'seat 2 given one 100', raceId: null };
  expect(await again.takeFloorDecisions([STANDS, later])).toEqual(ok);
  expect(recordsOfKind(dataDir, 'floor-decision').map((record) => (record as unknown as { id: number }).id)).toEqual([7, 9]);
  expect(again.getState().floorCalls.decisions.map((shown) => shown.id)).toEqual([7, 9]);
  // A decision on no race is on no race's slip.
  const slipAgain = await again.raceRecord('race-1');
  expect(slipAgain.ok && slipAgain.value.floorDecisions?.map((shown) => shown.id)).toEqual([7]);
});
