import { applyRaceEvent, startRace, type RaceState } from '../engine/race/race';
import { isSayableMessage } from '../engine/messages/stored';
import { raceSummary } from '../engine/race/summary';
import { whatOtherRulesSay } from '../engine/race/whatIf';
import type { RaceRecord, RaceRecordEvent, SeatCount, VoidedCard } from '../protocol/contract';
import { chainOf, type ChainReport } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { placeOf, type SessionRecord } from './session';

/**
 * A race's full record from its lines (its start first), with each line's seal: every card in deal
 * order with its seat, round and source, every void with its reason, every refusal with how often
 * it came, the confirmation, the floor called about it and the director's decisions on it, and
 * what the seal chain says about the race's records. The station
 * builds it from its journal file, the floor from the records its station sent: one record slip.
 */
export function buildRecord(raceId: string, lines: ReadonlyArray<{ line: JournalLine<SessionRecord>; seal: string | null }>, report: ChainReport): RaceRecord | null {
  const first = lines[0]?.line;
  if (first === undefined || first.record.kind !== 'race-start') return null;
  const start = first.record;
  let state: RaceState = startRace(start.race);
  const events: RaceRecordEvent[] = [{ seq: first.seq, at: first.at, type: 'start' }];
  let status: RaceRecord['status'] = 'open';
  const refusalAt = new Map<number, number>();
  for (const { line } of lines.slice(1)) {
    const { record, seq, at } = line;
    switch (record.kind) {
      case 'race-event': {
        let next: RaceState;
        try {
          next = applyRaceEvent(state, record.event);
        } catch {
          // Reported by the replay on start; the record shows what was accepted.
          continue;
        }
        if (record.event.type === 'card') {
          const dealt = next.cards.at(-1);
          if (dealt) events.push({ seq, at, type: 'card', card: dealt.card, seat: dealt.seat, round: dealt.round, source: record.source, held: record.held === true, ...(record.readAt === undefined ? {} : { readAt: record.readAt }) });
        } else {
          const voided: VoidedCard[] = next.corrections.slice(state.corrections.length).map(({ voided: card, reason }) => ({ card: card.card, seat: card.seat, round: card.round, reason }));
          events.push({ seq, at, type: 'void', voided });
        }
        state = next;
        break;
      }
      case 'refused':
        refusalAt.set(seq, events.length);
        events.push({ seq, at, type: 'refused', input: record.input, reason: record.reason, ...(isSayableMessage(record.said) ? { said: record.said } : {}), source: record.source, count: 1 });
        break;
      case 'refused-again': {
        const index = refusalAt.get(record.of);
        const event = index === undefined ? undefined : events[index];
        if (event?.type === 'refused' && index !== undefined) events[index] = { ...event, count: event.count + record.count, again: [...(event.again ?? []), seq] };
        break;
      }
      case 'race-confirm':
        status = 'confirmed';
        events.push({ seq, at, type: 'confirm', ...(record.by ? { by: record.by } : {}) });
        break;
      case 'race-abandon':
        status = 'abandoned';
        events.push({ seq, at, type: 'abandon', reason: record.reason });
        break;
      // The floor called about the race and the director's decision on it (issue 43): on the record
      // with the race's own lines, so "everything that happened" has no gap where they came.
      case 'floor-called':
        events.push({ seq, at, type: 'floor-called', note: record.note });
        break;
      case 'floor-decision':
        events.push({ seq, at, type: 'floor-decision', decision: record.decision, by: record.by, note: record.note, decidedAt: record.at });
        break;
      default:
        break;
    }
  }
  const last = lines.at(-1) as { line: JournalLine<SessionRecord>; seal: string | null };
  const seqs = { first: first.seq, last: last.line.seq };
  const { chain: verdict, findings } = chainOf(report, seqs.first, seqs.last);
  return {
    id: raceId,
    ...placeOf(start),
    status,
    startedAt: first.at,
    counts: start.counts as readonly SeatCount[],
    names: start.names,
    summary: raceSummary(state),
    // The slip's and the floor page's "What the other rules would have said" (complete deals only).
    whatIf: whatOtherRulesSay(state),
    events,
    seqs,
    lastSeal: last.seal,
    chain: verdict,
    findings,
  };
}
