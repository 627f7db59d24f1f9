// Chips exchanged outside a race (issue 23): recordChipExchange journals a `chip-exchange` record
// for late-found chips of a race this station confirmed (at that race's chips), or for a colour-up
// of a player with its reason while no race is dealt; everything else is refused in keys, and
// nothing is journaled then. The state lists the exchanges with what each gives, the race's slip
// and the history exports its late-found chips, the same after a restart (reading the whole
// journal, or from a checkpoint), and the journal stays writable.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exchangeAtEqualValue, type ChipExchange } from '../../engine/race/exchange';
import { checkpointPath } from '../journal/checkpoint';
import { chipExchangeRecord } from '../../replay/chipExchange';
import { dispatch } from '../ipc/validate';
import { ChipExchanges } from '../../replay/chipExchange';
import { FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE } from './testing/finnish';
import { exportText, recordsOfKind, serviceHarness } from './testing/services';
import type { ConsoleService } from './service';

const { serviceIn, restart } = serviceHarness({ clock: () => new Date('2026-12-04T21:00:00Z') });
const ok = { ok: true, value: null };

const LATE_FOUND: ChipExchange = { reason: 'late-found', raceId: 'race-1', seat: 3, removed: 25, count: 5, next: 100, note: 'under the chair' };
const COLOUR_UP: ChipExchange = { reason: 'discretionary', raceId: null, seat: null, removed: 25, count: 3, next: 100, note: 'table 4 broken' };

const exchanges = (dataDir: string) => recordsOfKind(dataDir, 'chip-exchange');

async function confirmedRace(service: ConsoleService, raceId: string): Promise<void> {
  expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
  for (const card of FINNISH_CARDS) expect(await service.dealCard(raceId, card)).toEqual(ok);
  expect(await service.confirmRace(raceId)).toEqual(ok);
}

/** What a start shows of the exchanges: the state's list, and race-1's slip and export. */
async function shown(service: ConsoleService) {
  const slip = await service.raceRecord('race-1');
  return { state: service.getState().chipExchanges, slip: slip.ok ? slip.value.chipExchanges : slip, csv: (await exportText(service, 'csv')).split('\r\n')[1] };
}

describe('recordChipExchange', () => {
  it('refuses, in keys and with nothing journaled, what is no exchange of this station', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chip-exchanges-'));
    const service = await serviceIn(dataDir);
    expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
    expect(await service.recordChipExchange(LATE_FOUND)).toMatchObject({ ok: false, error: { field: 'raceId', said: { key: 'service.exchange.notConfirmed', params: { race: 'race-1' } } } });
    expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
    expect(await service.recordChipExchange(LATE_FOUND)).toMatchObject({ ok: false, error: { said: { key: 'service.exchange.raceOpen' } } });
    // A colour-up of a player waits while the dealer deals.
    expect(await service.recordChipExchange(COLOUR_UP)).toMatchObject({ ok: false, error: { field: 'reason', said: { key: 'service.exchange.raceDealing', params: { race: 'race-1' } } } });
    for (const card of FINNISH_CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
    expect(await service.confirmRace('race-1')).toEqual(ok);
    // Another race's chips, an abandoned race, a race never run.
    expect(await service.recordChipExchange({ ...LATE_FOUND, removed: 5, next: 25 })).toMatchObject({ ok: false, error: { field: 'removed', said: { key: 'service.exchange.otherChips', params: { raceRemoved: 25, raceNext: 100, removed: 5, next: 25 } } } });
    expect(await service.recordChipExchange({ ...LATE_FOUND, next: 500 })).toMatchObject({ ok: false, error: { field: 'next', said: { key: 'service.exchange.otherChips' } } });
    expect(await service.startRace(FINNISH_COUNTS)).toEqual(ok);
    expect(await service.abandonRace('race-2', 'misdeal')).toEqual(ok);
    expect(await service.recordChipExchange({ ...LATE_FOUND, raceId: 'race-2' })).toMatchObject({ ok: false, error: { said: { key: 'service.exchange.notConfirmed', params: { race: 'race-2' } } } });
    expect(await service.recordChipExchange({ ...LATE_FOUND, raceId: 'race-9' })).toMatchObject({ ok: false, error: { said: { key: 'service.exchange.notConfirmed' } } });
    // Through the command table: the engine's reader, its refusals as they are.
    expect(await dispatch(service, 'recordChipExchange', [{ ...COLOUR_UP, note: '  ' }])).toMatchObject({ ok: false, error: { field: 'note', said: { key: 'race.exchange.reasonNeeded' } } });
    expect(await dispatch(service, 'recordChipExchange', [{ ...LATE_FOUND, raceId: null }])).toMatchObject({ ok: false, error: { field: 'raceId', said: { key: 'race.exchange.raceNeeded' } } });
    expect(await dispatch(service, 'recordChipExchange', [{ ...LATE_FOUND, next: 110 }])).toMatchObject({ ok: false, error: { field: 'next' } });
    expect(await dispatch(service, 'recordChipExchange', [{ ...LATE_FOUND, note: 'x'.repeat(500) }])).toMatchObject({ ok: false, error: { field: 'exchange', said: { key: 'command.tooLong' } } });
    expect(await dispatch(service, 'recordChipExchange', ['5 chips'])).toMatchObject({ ok: false });
    expect(exchanges(dataDir)).toEqual([]);
    expect(service.getState().chipExchanges).toEqual({ exchanges: [], valueDelta: 0 });
  });

  it('journals late-found chips and a colour-up of a player; the state, the slip and the exports list them, the same after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chip-exchanges-'));
    const service = await serviceIn(dataDir, { checkpointEvery: 1 });
    expect(await service.saveSettings(FINNISH_TABLE)).toEqual(ok);
    await confirmedRace(service, 'race-1');
    expect(await dispatch(service, 'recordChipExchange', [{ ...LATE_FOUND, note: '  under the chair ' }])).toEqual(ok);
    expect(await dispatch(service, 'recordChipExchange', [COLOUR_UP])).toEqual(ok);
    expect(exchanges(dataDir)).toEqual([chipExchangeRecord(LATE_FOUND), chipExchangeRecord(COLOUR_UP)]);
    const lateFound = { ...LATE_FOUND, given: 1, lost: 1, valueDelta: -25, at: '2026-12-04T21:00:00.000Z' };
    const colourUp = { ...COLOUR_UP, given: 0, lost: 3, valueDelta: -75, at: '2026-12-04T21:00:00.000Z' };
    const before = await shown(service);
    expect(before.state).toMatchObject({ exchanges: [lateFound, colourUp], valueDelta: -100 });
    // The slip and the exports carry the race's late-found chips only.
    expect(before.slip).toMatchObject([lateFound]);
    expect(before.csv).toContain(',25,"5 × 25 → 1 × 100, 1 × 25 taken off (-25), seat 3: under the chair",1 Matti: A♥');
    expect((JSON.parse(await exportText(service, 'json')) as { races: { chipExchanges?: unknown }[] }).races[0]?.chipExchanges).toMatchObject([lateFound]);
    // A race confirmed after them: a quiet moment, a checkpoint with them.
    await confirmedRace(service, 'race-2');
    const after = await shown(service);

    const fromCheckpoint = await restart(service, dataDir);
    expect(readFileSync(checkpointPath(dataDir), 'utf8')).toContain('"chipExchanges"');
    expect(await shown(fromCheckpoint)).toEqual(after);
    rmSync(checkpointPath(dataDir));
    const replayed = await restart(fromCheckpoint, dataDir);
    expect(await shown(replayed)).toEqual(after);
    // The journal holds no kind this console does not know: it goes on.
    expect(replayed.getState().journal.readOnly).toBeNull();
    expect(await replayed.recordChipExchange({ ...LATE_FOUND, raceId: 'race-2', count: 4, seat: null, note: '' })).toEqual(ok);
    expect(replayed.getState().chipExchanges.valueDelta).toBe(-100);
    const slip = await replayed.raceRecord('race-2');
    expect(slip.ok && slip.value.chipExchanges).toMatchObject([{ raceId: 'race-2', given: 1, lost: 0, valueDelta: 0 }]);
  });
});

const exchange: fc.Arbitrary<ChipExchange> = fc
  .record({
    late: fc.boolean(),
    race: fc.integer({ min: 1, max: 40 }),
    seat: fc.option(fc.integer({ min: 1, max: 10 })),
    removed: fc.constantFrom(1, 5, 25, 100, 500),
    ratio: fc.integer({ min: 2, max: 20 }),
    count: fc.integer({ min: 1, max: 500 }),
    note: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== ''),
  })
  .map(({ late, race, seat, removed, ratio, count, note }) => ({ reason: late ? 'late-found' : 'discretionary', raceId: late ? `race-${race}` : null, seat, removed, count, next: removed * ratio, note: note.trim() }));

describe('the station\'s list of exchanges', () => {
  it('lists each exchange with what exchangeAtEqualValue gives, its total the sum of theirs, and a race\'s late-found ones; the same from its checkpoint', () => {
    fc.assert(
      fc.property(fc.array(exchange, { maxLength: 30 }), (recorded) => {
        const list = new ChipExchanges();
        recorded.forEach((entry, index) => list.add({ seq: index + 1, at: '2026-12-04T21:00:00.000Z', record: chipExchangeRecord(entry) }));
        const { view } = list;
        expect(view.exchanges.map(({ given, lost, valueDelta }) => ({ given, lost, valueDelta }))).toEqual(recorded.map(exchangeAtEqualValue));
        expect(view.valueDelta).toBe(recorded.reduce((sum, entry) => sum + exchangeAtEqualValue(entry).valueDelta, 0));
        // Value is only ever taken off: what was given and lost is worth what was found.
        view.exchanges.forEach((note) => expect(note.given * note.next + note.lost * note.removed).toBe(note.count * note.removed));
        expect(list.forRace('race-1').map((note) => note.seq)).toEqual(recorded.flatMap((entry, index) => (entry.raceId === 'race-1' ? [index + 1] : [])));
        const restored = new ChipExchanges();
        restored.checkpoint.restore(JSON.parse(JSON.stringify(list.checkpoint.snapshot())));
        expect(restored.view).toEqual(view);
      }),
    );
  });

  it('refuses a checkpoint that is not its list', () => {
    const list = new ChipExchanges();
    expect(() => list.checkpoint.restore({})).toThrow();
    expect(() => list.checkpoint.restore([{ seq: 1, at: 'x', exchange: { ...COLOUR_UP, note: '' } }])).toThrow();
  });
});
