import { JournalEncoder } from '../../journal/encoder';
import { Sealer } from '../../journal/seal';
import type { OutgoingRecord } from '../push';

/**
 * A station's journal as the console writes it, already cut into what the station sends: record
 * `seq` is `records[seq - first]`, the journal's header riding with its first record. For the
 * floor's database tests, which forge, damage and replay such records by hand; `first` above 1
 * makes a journal sealed and chained as the console would, numbered from there.
 */
export function journalRecords(count: number, table = 'test', key: Buffer | null = null, first = 1): OutgoingRecord[] {
  const sealer = new Sealer(key);
  const encoder = new JournalEncoder(sealer, first - 1, null, JournalEncoder.headerOf(sealer));
  const records: OutgoingRecord[] = [];
  for (let seq = first; seq < first + count; seq += 1) {
    const text = encoder.next(new Date(Date.UTC(2026, 11, 1, 20, 0, seq)).toISOString(), seq, { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'AS', n: seq }, source: 'manual', table });
    const lines = text.split('\n').slice(0, -1);
    records.push({ seq, line: lines[lines.length - 1] as string, headers: lines.slice(0, -1).join('\n') });
  }
  return records;
}
