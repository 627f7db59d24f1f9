import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeRecording, type TimedChunk } from './pipeline';
import { MAX_READER_SEAT, profileSummary, readProfile, seatOfReader } from './profile';
import './testing/saidInEnglish';
import { profileRefusal as refusal } from './testing/profileRefusal';

/** A reader per seat (issue 26): a profile's `readers` maps the antennas a table's reader names to its seats. */
const rfidTable = (readers: unknown) =>
  readProfile({ name: 'table-7', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d+)\\|(?<uid>[0-9A-F]+)$', cards: { '04A2B3C4': 'As', '04A2B3C5': 'Kd' } }, readers });

describe('a profile\'s seat map (readers)', () => {
  it('reads a map of reader names to seats, and leaves it out when not given', () => {
    expect(rfidTable({ '0': 1, '1': 2, '2': 3, '3': 4 }).readers).toEqual({ '0': 1, '1': 2, '2': 3, '3': 4 });
    expect(readProfile({ framing: { kind: 'lines' }, decoder: { kind: 'uid' } }).readers).toBeUndefined();
    expect(rfidTable({}).readers).toEqual({});
  });

  it('allows two readers on one seat (a seat with two antennas)', () => {
    expect(rfidTable({ '0': 1, '1': 1 }).readers).toEqual({ '0': 1, '1': 1 });
  });

  it('refuses a bad map by name', () => {
    const base = { framing: { kind: 'lines' }, decoder: { kind: 'uid' } };
    expect(refusal({ ...base, readers: [1, 2] })).toEqual({ field: 'readers', reason: 'must map reader names to seat numbers, e.g. {"0": 1, "1": 2}' });
    expect(refusal({ ...base, readers: 'seat 1' })).toEqual({ field: 'readers', reason: 'must map reader names to seat numbers, e.g. {"0": 1, "1": 2}' });
    expect(refusal({ ...base, readers: null })).toMatchObject({ field: 'readers' });
    expect(refusal({ ...base, readers: { '0': 1, '3': 11 } })).toEqual({ field: 'readers.3', reason: `must be a seat from 1 to ${MAX_READER_SEAT} (got 11)` });
    expect(refusal({ ...base, readers: { '0': 0 } })).toEqual({ field: 'readers.0', reason: 'must be a seat from 1 to 10 (got 0)' });
    expect(refusal({ ...base, readers: { a: 1.5 } })).toEqual({ field: 'readers.a', reason: 'must be a seat from 1 to 10 (got 1.5)' });
    expect(refusal({ ...base, readers: { a: '2' } })).toEqual({ field: 'readers.a', reason: 'must be a seat from 1 to 10 (got "2")' });
    expect(refusal({ ...base, readers: { ' ': 2 } })).toEqual({ field: 'readers', reason: 'must map reader names to seat numbers, e.g. {"0": 1, "1": 2}' });
  });

  it('reads back to itself, and profileSummary says the map', () => {
    const read = rfidTable({ '0': 1, '1': 2 });
    expect(readProfile(JSON.parse(JSON.stringify(read)))).toEqual(read);
    expect(profileSummary(read)).toMatch(/; reader 0 at seat 1, reader 1 at seat 2$/);
    expect(profileSummary(rfidTable({}))).toMatch(/; no reader mapped to a seat$/);
  });

  it('property: any map of names to seats 1 … 10 reads back as given; any other seat is refused at its name', () => {
    const name = fc.string({ minLength: 1, maxLength: 6 }).filter((text) => text.trim() !== '' && text !== '__proto__');
    fc.assert(
      fc.property(fc.dictionary(name, fc.integer({ min: 1, max: MAX_READER_SEAT })), (readers) => {
        expect(rfidTable(readers).readers).toEqual(readers);
      }),
    );
    fc.assert(
      fc.property(name, fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: MAX_READER_SEAT + 1 })), (reader, seat) => {
        expect(refusal({ framing: { kind: 'lines' }, decoder: { kind: 'uid' }, readers: { [reader]: seat } }).field).toBe(`readers.${reader}`);
      }),
    );
  });

  it('the seat of a read: by its reader, or none (no reader, no map, a reader the map does not name)', () => {
    const readers = { '0': 1, '3': 4 };
    expect(seatOfReader(readers, '3')).toBe(4);
    expect(seatOfReader(readers, '7')).toBeNull();
    expect(seatOfReader(readers, undefined)).toBeNull();
    expect(seatOfReader(undefined, '3')).toBeNull();
    expect(seatOfReader(readers, 'toString')).toBeNull();
  });

  it('an RFID table with four antennas names the reader of each card (`3|04A2B3C4`, `Reader 3: Card UID: …`)', () => {
    const chunk = (text: string): TimedChunk => ({ at: 0, bytes: Buffer.from(text) });
    expect(decodeRecording(rfidTable({ '0': 1, '1': 2, '2': 3, '3': 4 }), [chunk('3|04A2B3C4\r\n0|04A2B3C5\r\n')])).toEqual([
      { type: 'card', card: 'As', raw: '3|04A2B3C4', reader: '3' },
      { type: 'card', card: 'Kd', raw: '0|04A2B3C5', reader: '0' },
    ]);
    const named = readProfile({ framing: { kind: 'lines' }, decoder: { kind: 'uid', uidBytes: 'hex', pattern: '^Reader (?<reader>\\d+): Card UID: (?<uid>.+)$', cards: { '04A2B3C4': 'As' } }, readers: { '3': 4 } });
    const [card] = decodeRecording(named, [chunk('Reader 3: Card UID: 4 A2 B3 C4\r\n')]);
    expect(card).toEqual({ type: 'card', card: 'As', raw: 'Reader 3: Card UID: 4 A2 B3 C4', reader: '3' });
    expect(seatOfReader(named.readers, card?.type === 'card' ? card.reader : undefined)).toBe(4);
  });
});
