import { describe, expect, it } from 'vitest';
import { isSayableMessage } from '../engine/messages/stored';
import type { JournalLine } from '../journal/read';
import { buildRecord } from './raceRecord';
import { isSessionRecord, type SessionRecord } from './session';

const RACE = { rules: 'classic', removed: 25, next: 100, button: 1, decks: 1, seats: [{ seat: 1, chips: 3, other: 100 }, { seat: 2, chips: 2, other: 100 }] };
const START: SessionRecord = { kind: 'race-start', raceId: 'race-1', race: RACE, counts: [{ seat: 1, chips: 3, hasOther: true }, { seat: 2, chips: 2, hasOther: true }], names: {} };

function lines(...records: SessionRecord[]): { line: JournalLine<SessionRecord>; seal: string | null }[] {
  return [START, ...records].map((record, index) => ({ line: { seq: index + 1, at: `2024-05-04T18:30:0${index}.000Z`, record }, seal: null }));
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
