import { formatCard, type Card } from '../engine/cards';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { chainOf, findingText } from '../journal/findings';

const COLUMNS = [
  'race', 'table', 'level', 'station', 'started', 'confirmed', 'confirmed by', 'rules', 'removed', 'next', 'odd chips', 'race chips', 'winners', 'protected', 'value delta',
  'cards', 'voided', 'refusals', 'corrections', 'records', 'chain',
] as const;

export function csvCell(value: string | number): string {
  const text = String(value);
  // Quote anything a spreadsheet could misread: separators, quotes, line breaks, and formula starts.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function seatLabel(entry: HistoryEntry, seat: number): string {
  const name = entry.names[seat];
  return name ? `${seat} ${name}` : String(seat);
}

const shown = (card: string) => formatCard(card as Card, 'pips');

/** Each seat's cards in deal order, tie-break cards marked with their round: `1 Matti: A♠ K♥; 3 Johanna: 2♦ (tie-break 1: 9♥)`. */
function cardsBySeat(entry: HistoryEntry): string {
  const seats: number[] = [];
  const bySeat = new Map<number, { deal: string[]; tiebreak: string[] }>();
  for (const { card, seat, round } of entry.summary.cards) {
    let cards = bySeat.get(seat);
    if (cards === undefined) {
      cards = { deal: [], tiebreak: [] };
      bySeat.set(seat, cards);
      seats.push(seat);
    }
    (round === 0 ? cards.deal : cards.tiebreak).push(round === 0 ? shown(card) : `tie-break ${round}: ${shown(card)}`);
  }
  return seats
    .map((seat) => {
      const { deal, tiebreak } = bySeat.get(seat) as { deal: string[]; tiebreak: string[] };
      return `${seatLabel(entry, seat)}: ${deal.join(' ')}${tiebreak.length > 0 ? ` (${tiebreak.join(', ')})` : ''}`;
    })
    .join('; ');
}

function voided(entry: HistoryEntry): string {
  return entry.voided.map(({ card, seat, reason }) => `${shown(card)} (seat ${seat})${reason === '' ? '' : `: ${reason}`}`).join('; ');
}

/** The chain's verdict on a race's records, in words for the spreadsheet. */
function chainCell(entry: HistoryEntry, journal: JournalReport): string {
  const { chain, findings } = chainOf(journal, entry.seqs.first, entry.seqs.last);
  if (chain !== 'broken') return chain;
  return `broken: ${findings.map(findingText).join('; ')}`;
}

/** The confirmed races as CSV (one row each) for the tournament director's spreadsheet. */
export function historyCsv(history: readonly HistoryEntry[], journal: JournalReport): string {
  const rows = history.map((entry) => {
    const { summary } = entry;
    const winners = summary.awards.map((seat) => {
      const card = summary.winningCards.find((winning) => winning.seat === seat)?.card;
      return card ? `${seatLabel(entry, seat)} (${shown(card)})` : seatLabel(entry, seat);
    });
    return [
      entry.id, entry.table ?? '', entry.level ?? '', entry.station ?? '', entry.startedAt, entry.confirmedAt, entry.confirmedBy ?? '', summary.rules, summary.removed, summary.next, summary.oddChips, summary.raceChips ?? '',
      winners.join('; '), summary.protected.map((seat) => seatLabel(entry, seat)).join('; '), summary.valueDelta ?? '',
      cardsBySeat(entry), voided(entry), entry.refusals, entry.corrections, `${entry.seqs.first}–${entry.seqs.last}`, chainCell(entry, journal),
    ].map(csvCell).join(',');
  });
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

export function historyJson(history: readonly HistoryEntry[], journal: JournalReport): string {
  const races = history.map((entry) => ({ ...entry, chain: chainOf(journal, entry.seqs.first, entry.seqs.last).chain }));
  const report = { chain: journal.chain, unchained: journal.unchained, records: journal.records, findings: journal.findings.map(findingText) };
  return `${JSON.stringify({ journal: report, races, totalValueDelta: history.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0) }, null, 2)}\n`;
}
