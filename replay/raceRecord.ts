import { applyRaceEvent, startRace, type RaceState } from '../engine/race/race';
import { isSayableMessage } from '../engine/messages/stored';
import { raceSummary } from '../engine/race/summary';
import { whatOtherRulesSay } from '../engine/race/whatIf';
import type { RaceDamage, RaceRecord, RaceRecordEvent, SeatCount, VoidedCard } from '../protocol/contract';
import { chainOf, type ChainReport, type JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { placeOf, type SessionRecord } from './session';

/**
 * A race's full record from its lines (its start first), with each line's seal: every card in deal
 * order with its seat, round and source, every void with its reason, every refusal with how often
 * it came, the confirmation, the floor called about it and the director's decisions on it, and
 * what the seal chain says about the race's records. The station
 * builds it from its journal file, the floor from the records its station sent: one record slip.
 *
 * A line of the race the journal could not read: `damaged`, what the replay found (the history
 * entry's), else what the lines show alone — a confirmation of a race its readable cards do not
 * complete (a card line lost: `confirmed`, and the first damaged record among its lines when the
 * chain names one). A race whose end was lost has no confirmation here: it stays 'open' (the
 * screens say "not confirmed" from `damaged`), never 'confirmed'.
 */
export function buildRecord(raceId: string, lines: ReadonlyArray<{ line: JournalLine<SessionRecord>; seal: string | null }>, report: ChainReport, damaged?: RaceDamage): RaceRecord | null {
  const first = lines[0]?.line;
  if (first === undefined || first.record.kind !== 'race-start') return null;
  const start = first.record;
  let state: RaceState = startRace(start.race);
  const events: RaceRecordEvent[] = [{ seq: first.seq, at: first.at, type: 'start' }];
  let status: RaceRecord['status'] = 'open';
  /** The race's confirmation came while its readable cards did not complete it. */
  let confirmedIncomplete = false;
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
        confirmedIncomplete = state.progress.status !== 'complete';
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
  // A race whose end was lost: its damaged line comes after its last readable one, and is the chain's concern for it.
  const { chain: verdict, findings } = chainOf(report, seqs.first, Math.max(seqs.last, damaged?.seq ?? seqs.last));
  const damage = damaged ?? (confirmedIncomplete ? { seq: firstDamaged(findings), confirmed: true } : undefined);
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
    ...(damage === undefined ? {} : { damaged: damage }),
  };
}

/** The first record among a race's findings the journal could not read (damaged, unreadable), null when none is named. */
function firstDamaged(findings: readonly JournalFinding[]): number | null {
  for (const finding of findings) {
    if ((finding.code === 'damaged' || finding.code === 'unreadable' || finding.code === 'not-a-record') && finding.seq !== undefined) return finding.seq;
  }
  return null;
}
