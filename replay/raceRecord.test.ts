import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSayableMessage } from '../engine/messages/stored';
import type { JournalLine } from '../journal/read';
import { eventSeqs, FLOOR_DECISIONS } from '../protocol/races';
import { buildRecord } from './raceRecord';
import { isSessionRecord, type SessionRecord } from './session';

const RACE = { rules: 'classic', removed: 25, next: 100, button: 1, decks: 1, seats: [{ seat: 1, chips: 3, other: 100 }, { seat: 2, chips: 2, other: 100 }] };
const START: SessionRecord = { kind: 'race-start', raceId: 'race-1', race: RACE, counts: [{ seat: 1, chips: 3, hasOther: true }, { seat: 2, chips: 2, hasOther: true }], names: {} };

function lines(...records: SessionRecord[]): { line: JournalLine<SessionRecord>; seal: string | null }[] {
  return [START, ...records].map((record, index) => ({ line: { seq: index + 1, at: `2024-05-04T18:30:${String(index).padStart(2, '0')}.000Z`, record }, seal: null }));
}

const REPORT = { chain: 'unchained', findings: [], unchainedThrough: 10 } as const;

describe('a refusal on the record slip', () => {
  it('carries the reason in keys when the station recorded it so, and this version can say it', () => {
    const said = { key: 'hardware.decoder.notACardCode' } as const;
    const refused: SessionRecord = { kind: 'refused', raceId: 'race-1', input: 'X9', reason: 'not a card code', said, source: 'scanner' };
    expect(isSessionRecord(refused)).toBe(true);
    const record = buildRecord('race-1', lines(refused), REPORT);
    expect(record?.events.at(-1)).toEqual({ seq: 2, at: '2024-05-04T18:30:01.000Z', type: 'refused', input: 'X9', reason: 'not a card code', said, source: 'scanner', count: 1 });
  });

  it('is told by its English when it has no keys (an older station) or keys this version does not know (a newer one)', () => {
    const older: SessionRecord = { kind: 'refused', raceId: 'race-1', input: 'X9', reason: 'not a card code', source: 'scanner' };
    const newer = { kind: 'refused', raceId: 'race-1', input: 'X8', reason: 'a reason of the future', said: { key: 'hardware.decoder.fromTheFuture' }, source: 'scanner' } as unknown as SessionRecord;
    // Both are records this console replays: a newer key makes no journal unreadable.
    expect([older, newer].map(isSessionRecord)).toEqual([true, true]);
    const events = buildRecord('race-1', lines(older, newer), REPORT)?.events ?? [];
    expect(events.slice(1).map((event) => (event.type === 'refused' ? [event.reason, 'said' in event] : null))).toEqual([['not a card code', false], ['a reason of the future', false]]);
  });

  it('is no record at all when its `said` is no object or far too large', () => {
    const base = { kind: 'refused', raceId: 'race-1', input: 'X9', reason: 'not a card code', source: 'scanner' };
    expect(isSessionRecord({ ...base, said: 'not a card code' })).toBe(false);
    expect(isSessionRecord({ ...base, said: { key: 'hardware.decoder.notACardCode', params: { text: 'x'.repeat(5000) } } })).toBe(false);
  });
});

describe('a card read at another seat\'s antenna and taken by the dealer (issue 26)', () => {
  it('keeps the seat whose antenna read it on the record, beside the seat it was dealt to', () => {
    const taken: SessionRecord = { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'shoe', held: true, readAt: 2 };
    expect(isSessionRecord(taken)).toBe(true);
    expect(buildRecord('race-1', lines(taken), REPORT)?.events.at(-1)).toEqual({ seq: 2, at: '2024-05-04T18:30:01.000Z', type: 'card', card: 'Ah', seat: 2, round: 0, source: 'shoe', held: true, readAt: 2 });
    const plain: SessionRecord = { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'shoe' };
    expect(buildRecord('race-1', lines(plain), REPORT)?.events.at(-1)).not.toHaveProperty('readAt');
  });

  it('is no record when `readAt` is no seat, or comes without `held`', () => {
    const base = { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'shoe' };
    for (const readAt of [0, 11, 2.5, '2', null]) expect(isSessionRecord({ ...base, held: true, readAt }), String(readAt)).toBe(false);
    expect(isSessionRecord({ ...base, readAt: 2 })).toBe(false);
  });
});

describe('a Message read back from a file', () => {
  it('is sayable when every key in it is known and every parameter of a Message’s shapes', () => {
    expect(isSayableMessage({ key: 'service.scan.refused', params: { raw: '"X9"', reason: { message: { key: 'hardware.decoder.notACardCode' } }, decoder: 'text' } })).toBe(true);
    expect(isSayableMessage({ key: 'race.refused.duplicate', params: { card: { card: 'Ah' }, seats: { seats: [{ seat: 1, name: 'Matti' }] } } })).toBe(true);
    expect(isSayableMessage({ key: 'service.scan.refused', params: { reason: { message: { key: 'hardware.nothing' } } } })).toBe(false);
    expect(isSayableMessage({ key: 'hardware.decoder.notACardCode', extra: true })).toBe(false);
    expect(isSayableMessage({ key: 'hardware.decoder.notACardCode', params: { card: { card: 'Ah', more: 1 } } })).toBe(false);
    let deep: unknown = { key: 'hardware.decoder.notACardCode' };
    for (let level = 0; level < 10; level += 1) deep = { key: 'service.scan.refused', params: { reason: { message: deep } } };
    expect(isSayableMessage(deep)).toBe(false);
  });
});

describe('every record of a race on its record, in order, with no gap in the numbering (issue 43)', () => {
  const CALLED: SessionRecord = { kind: 'floor-called', raceId: 'race-1', note: 'seat 2 disputes the count' };
  const DECIDED: SessionRecord = { kind: 'floor-decision', id: 4, decision: 'race-stands', note: 'the count was right', by: 'Anna', at: '2024-05-04T18:40:00.000Z', raceId: 'race-1' };

  it('lists the floor called about the race and the director\'s decision on it, as the journal has them', () => {
    const card: SessionRecord = { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'manual' };
    const events = buildRecord('race-1', lines(card, CALLED, { kind: 'race-confirm', raceId: 'race-1' }, DECIDED), REPORT)?.events ?? [];
    expect(events.map((event) => [event.seq, event.type])).toEqual([[1, 'start'], [2, 'card'], [3, 'floor-called'], [4, 'confirm'], [5, 'floor-decision']]);
    expect(events[2]).toEqual({ seq: 3, at: '2024-05-04T18:30:02.000Z', type: 'floor-called', note: 'seat 2 disputes the count' });
    expect(events[4]).toEqual({ seq: 5, at: '2024-05-04T18:30:04.000Z', type: 'floor-decision', decision: 'race-stands', by: 'Anna', note: 'the count was right', decidedAt: '2024-05-04T18:40:00.000Z' });
  });

  it('lists a refusal\'s "came again" records with it', () => {
    const refused: SessionRecord = { kind: 'refused', raceId: 'race-1', input: 'Z77', reason: 'not a card code', source: 'shoe' };
    const events = buildRecord('race-1', lines(refused, { kind: 'refused', raceId: 'race-1', input: 'Z78', reason: 'not a card code', source: 'shoe' }, { kind: 'refused-again', raceId: 'race-1', of: 2, count: 4 }), REPORT)?.events ?? [];
    expect(events.flatMap(eventSeqs)).toEqual([1, 2, 4, 3]);
    expect(events[1]).toMatchObject({ seq: 2, count: 5, again: [4] });
  });

  it('for any run of a race\'s records the console writes: each record listed once (fast-check)', () => {
    const record = fc.oneof(
      fc.constant<SessionRecord>({ kind: 'refused', raceId: 'race-1', input: 'Z77', reason: 'not a card code', source: 'shoe' }),
      fc.constant('again' as const),
      fc.string({ maxLength: 20 }).map((note): SessionRecord => ({ kind: 'floor-called', raceId: 'race-1', note })),
      fc.constantFrom(...FLOOR_DECISIONS).map((decision): SessionRecord => ({ ...(DECIDED as Extract<SessionRecord, { kind: 'floor-decision' }>), decision })),
      fc.constant('card' as const),
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), fc.boolean(), (drawn, confirmed) => {
        // As the console writes them: cards while the deal takes them (two here), "again" only after a refusal.
        const records: SessionRecord[] = [];
        const cards = ['Ah', 'Kd'];
        let lastRefusal: number | null = null;
        for (const next of drawn) {
          if (next === 'card') {
            const card = cards.shift();
            if (card !== undefined) records.push({ kind: 'race-event', raceId: 'race-1', event: { type: 'card', card }, source: 'manual' });
          } else if (next === 'again') {
            if (lastRefusal !== null) records.push({ kind: 'refused-again', raceId: 'race-1', of: lastRefusal, count: 1 });
          } else {
            records.push(next);
            // Its seq: the start is 1, the records follow it.
            if (next.kind === 'refused') lastRefusal = records.length + 1;
          }
        }
        if (confirmed) records.push({ kind: 'race-confirm', raceId: 'race-1' });
        const built = buildRecord('race-1', lines(...records), REPORT);
        const listed = (built?.events ?? []).flatMap(eventSeqs);
        expect([...listed].sort((a, b) => a - b)).toEqual(Array.from({ length: records.length + 1 }, (_, index) => index + 1));
        expect(built?.seqs).toEqual({ first: 1, last: records.length + 1 });
      }),
    );
  });
});

describe('a race a damaged journal line belongs to, on its record slip (issue 44)', () => {
  /** Five cards complete the race (3 + 2 chips, classic); its lines numbered as the journal has them, some lost. */
  const card = (code: string): SessionRecord => ({ kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: code }, source: 'shoe' });
  const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h'].map(card);
  const CONFIRM: SessionRecord = { kind: 'race-confirm', raceId: 'race-1', by: 'Anna' };
  function numbered(records: ReadonlyArray<[number, SessionRecord]>): { line: JournalLine<SessionRecord>; seal: string | null }[] {
    return records.map(([seq, record]) => ({ line: { seq, at: `2024-05-04T18:30:${String(seq).padStart(2, '0')}.000Z`, record }, seal: null }));
  }
  const damagedAt = (seq: number) => ({ chain: 'damaged', findings: [{ code: 'damaged', seq, line: seq + 1 }], unchainedThrough: 0 }) as const;

  it('a card line lost, the confirmation kept: confirmed, and the record says which record of it was damaged', () => {
    // Record 4 (the third card) could not be read.
    const record = buildRecord('race-1', numbered([[1, START], [2, CARDS[0]!], [3, CARDS[1]!], [5, CARDS[3]!], [6, CARDS[4]!], [7, CONFIRM]]), damagedAt(4));
    expect(record?.status).toBe('confirmed');
    expect(record?.damaged).toEqual({ seq: 4, confirmed: true });
    expect(record?.chain).toBe('damaged');
    // What its readable lines make: not a complete race, so no result claimed.
    expect(record?.summary.valueDelta).toBeNull();
  });

  it('its end lost (the next race started): not confirmed, no confirmation on it, and the damaged line is the chain’s concern for it', () => {
    // Record 7 (its confirmation) could not be read; the replay found it so (the history entry's `damaged`).
    const lines = numbered([[1, START], ...CARDS.map((one, index): [number, SessionRecord] => [index + 2, one])]);
    const record = buildRecord('race-1', lines, damagedAt(7), { seq: 7, confirmed: false });
    expect(record?.status).toBe('open');
    expect(record?.events.some((event) => event.type === 'confirm')).toBe(false);
    expect(record?.damaged).toEqual({ seq: 7, confirmed: false });
    expect(record?.chain).toBe('damaged');
    expect(record?.findings).toEqual([{ code: 'damaged', seq: 7, line: 8 }]);
  });

  it('a whole race, intact: nothing said of damage', () => {
    const record = buildRecord('race-1', numbered([[1, START], ...CARDS.map((one, index): [number, SessionRecord] => [index + 2, one]), [7, CONFIRM]]), { chain: 'intact', findings: [], unchainedThrough: 0 });
    expect(record?.status).toBe('confirmed');
    expect(record).not.toHaveProperty('damaged');
    expect(record?.summary.valueDelta).not.toBeNull();
  });
});
