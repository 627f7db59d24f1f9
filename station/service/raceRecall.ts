import { closeSync, openSync, readSync } from 'node:fs';
import { applyRaceEvents, startRace, type RaceEvent, type RaceState } from '../../engine/race/race';
import type { HistoryEntry } from '../../protocol/contract';
import { isSessionRecord } from '../../replay/session';
import type { RaceRecall } from '../../replay/sessionState';
import type { RaceSpans } from './raceSpans';

/**
 * A confirmed race's engine state made again from its own lines in the journal file (its span, as
 * the record slip reads it back: station/service/raceRecord.ts), for its summary when first read: the
 * station's history keeps no race's state, so neither its memory nor its checkpoints grow with it.
 * The race's start and its accepted cards and voids, replayed as on start (refused ones skipped).
 */
export function raceRecall(journal: string, spans: RaceSpans): RaceRecall {
  return (entry: HistoryEntry): RaceState => {
    const span = spans.of(entry.id);
    if (span === undefined) throw new Error(`race ${entry.id} is not in the journal`);
    const bytes = Buffer.alloc(span.end - span.start);
    const file = openSync(journal, 'r');
    try {
      readSync(file, bytes, 0, bytes.length, span.start);
    } finally {
      closeSync(file);
    }
    let state: RaceState | null = null;
    const events: RaceEvent[] = [];
    for (const text of bytes.toString('utf8').split('\n')) {
      let line: { seq?: unknown; record?: unknown };
      try {
        line = JSON.parse(text) as typeof line;
      } catch {
        continue; // reported by the start-up check
      }
      const { record, seq } = line;
      if (typeof seq !== 'number' || seq < entry.seqs.first || seq > entry.seqs.last || !isSessionRecord(record) || !('raceId' in record) || record.raceId !== entry.id) continue;
      if (record.kind === 'race-start') state = startRace(record.race);
      else if (record.kind === 'race-event') events.push(record.event);
    }
    if (state === null) throw new Error(`race ${entry.id}: its start is no longer in the journal`);
    return applyRaceEvents(state, events).state;
  };
}
