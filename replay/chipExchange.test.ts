import { describe, expect, it } from 'vitest';
import { readChipExchange } from '../engine/race/exchange';
import { chipExchangeRecord, isChipExchangeRecord } from './chipExchange';

describe('the journal record of chips exchanged outside a race', () => {
  it('reads an exchange as the engine does, and writes it back as the station records it', () => {
    const late = readChipExchange({ reason: 'late-found', raceId: 'race-3', seat: 4, removed: 25, next: 100, count: 5, note: ' under the rail ' });
    expect(late).toEqual({ reason: 'late-found', raceId: 'race-3', seat: 4, removed: 25, next: 100, count: 5, note: 'under the rail' });
    expect(isChipExchangeRecord(chipExchangeRecord(late))).toBe(true);
    const floor = readChipExchange({ reason: 'discretionary', removed: 25, next: 100, count: 7, note: 'Seat 2 alone with 25s' });
    expect(floor).toEqual({ reason: 'discretionary', raceId: null, seat: null, removed: 25, next: 100, count: 7, note: 'Seat 2 alone with 25s' });
    expect(isChipExchangeRecord(chipExchangeRecord(floor))).toBe(true);
  });

  it('a record with a field changed or added is not one the station writes', () => {
    const record = chipExchangeRecord(readChipExchange({ reason: 'late-found', raceId: 'race-1', removed: 25, next: 100, count: 5 }));
    expect(isChipExchangeRecord({ ...record, given: 9 })).toBe(false);
    expect(isChipExchangeRecord({ ...record, note: ' padded ' })).toBe(false);
    expect(isChipExchangeRecord({ ...record, kind: 'race-start' })).toBe(false);
  });
});
