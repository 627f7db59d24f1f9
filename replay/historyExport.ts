import { formatCard, type Card } from '../engine/cards';
import { countsAsConfirmed, type ChipExchangeNote, type FloorDecisionNote, type HistoryEntry, type JournalReport } from '../protocol/contract';
import { chainOf, findingText } from '../journal/findings';
import { houseVariants } from '../engine/race/rules';
import type { RaceSummary } from '../engine/race/summary';
import { summaryOnce } from './sessionState';
import { CSV_BOM, CSV_EOL, csvLine, decisionForJson, localTime, type CsvOptions } from './csv';

const COLUMNS = [
  'race', 'table', 'level', 'station', 'started', 'started local', 'confirmed', 'confirmed local', 'confirmed by', 'rules', 'removed', 'next', 'odd chips', 'race chips', 'winners', 'protected', 'value delta', 'late-found chips',
  'cards', 'voided', 'refusals', 'corrections', 'records', 'chain', 'floor decision',
] as const;

function seatLabel(entry: HistoryEntry, seat: number): string {
  const name = entry.names[seat];
  return name ? `${seat} ${name}` : String(seat);
}

const shown = (card: string) => formatCard(card as Card, 'pips');

/** The rule set, and the house settings the race ran over it by the rules page's names: `classic (dealStart: seat-1; award: high-card-takes-all)`. */
function rulesCell(summary: RaceSummary): string {
  const variants = houseVariants(summary.rules, summary.settings);
  return variants.length === 0 ? summary.rules : `${summary.rules} (${variants.map((name) => `${name}: ${summary.settings[name]}`).join('; ')})`;
}

/** Each seat's cards in deal order, tie-break cards marked with their round: `1 Matti: A♠ K♥; 3 Johanna: 2♦ (tie-break 1: 9♥)`. */
function cardsBySeat(entry: HistoryEntry, summary: RaceSummary): string {
  const seats: number[] = [];
  const bySeat = new Map<number, { deal: string[]; tiebreak: string[] }>();
  for (const { card, seat, round } of summary.cards) {
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

/** The chain's verdict on a race's records, in words for the spreadsheet: a race a damaged line belongs to names it (`damaged at record 812`) unless the chain is broken. */
function chainCell(entry: HistoryEntry, journal: JournalReport): string {
  const { chain, findings } = chainOf(journal, entry.seqs.first, entry.seqs.last);
  if (chain !== 'broken' && entry.damaged !== undefined) return damagedAt(entry.damaged.seq);
  if (chain !== 'broken') return chain;
  return `broken: ${findings.map(findingText).join('; ')}`;
}

const damagedAt = (seq: number | null): string => (seq === null ? 'damaged' : `damaged at record ${seq}`);

/**
 * When a race was confirmed, UTC and local; a race a damaged line cut short was not (its end is
 * lost): `not confirmed: damaged at record 812`, no local time.
 */
function confirmedCells(entry: HistoryEntry, options: CsvOptions): [string, string] {
  if (entry.damaged !== undefined && !countsAsConfirmed(entry)) return [`not confirmed: ${damagedAt(entry.damaged.seq)}`, ''];
  return [entry.confirmedAt, localTime(entry.confirmedAt, options.offsetOf)];
}

/** The CSV's column names (its first line, quoted and joined by csvLine). */
export const HISTORY_CSV_COLUMNS: readonly string[] = COLUMNS;

/** The director's decisions on a race, for the spreadsheet: `2026-12-04T21:04:00.000Z Anna: race-stands: the count was right; …`. */
export function floorDecisionsCell(decisions: readonly FloorDecisionNote[], word: CsvOptions['decisionWord'] = undefined): string {
  return decisions.map((decision) => `${decision.at} ${decision.by}: ${word === undefined ? decision.decision : word(decision.decision)}: ${decision.note}`).join('; ');
}

/**
 * A race's late-found chips (TDA 24C), for the spreadsheet, each with what it gave (read from its
 * numbers): `5 × 25 → 1 × 100, 1 × 25 taken off (-25), seat 3: under the chair; …`.
 */
export function lateFoundCell(exchanges: readonly ChipExchangeNote[]): string {
  return exchanges
    .map((exchange) => {
      const lost = exchange.lost === 0 ? '' : `, ${exchange.lost} × ${exchange.removed} taken off (${exchange.valueDelta})`;
      return `${exchange.count} × ${exchange.removed} → ${exchange.given} × ${exchange.next}${lost}${exchange.seat === null ? '' : `, seat ${exchange.seat}`}${exchange.note === '' ? '' : `: ${exchange.note}`}`;
    })
    .join('; ');
}

/**
 * One confirmed race as a CSV row's cells (unquoted), its summary read once (summaryOnce; the CSV
 * has no use for its explanation); its times in UTC as recorded, each followed by the local clock's
 * reading of it (options.offsetOf: the machine's time zone unless told). A race a damaged line
 * cut short says so where its confirmation would be, and has no value delta (it is not counted:
 * the column adds up to the history's total); its cards and winners are what its readable lines make.
 */
export function historyCsvCells(entry: HistoryEntry, journal: JournalReport, options: CsvOptions = {}): (string | number)[] {
  const summary = summaryOnce(entry, { explain: false });
  const winners = summary.awards.map((seat) => {
    const card = summary.winningCards.find((winning) => winning.seat === seat)?.card;
    return card ? `${seatLabel(entry, seat)} (${shown(card)})` : seatLabel(entry, seat);
  });
  return [
    entry.id, entry.table ?? '', entry.level ?? '', entry.station ?? '', entry.startedAt, localTime(entry.startedAt, options.offsetOf), ...confirmedCells(entry, options), entry.confirmedBy ?? '', rulesCell(summary), summary.removed, summary.next, summary.oddChips, summary.raceChips ?? '',
    winners.join('; '), summary.protected.map((seat) => seatLabel(entry, seat)).join('; '), countsAsConfirmed(entry) ? (summary.valueDelta ?? '') : '', lateFoundCell(entry.chipExchanges ?? []),
    cardsBySeat(entry, summary), voided(entry), entry.refusals, entry.corrections, `${entry.seqs.first}–${entry.seqs.last}`, chainCell(entry, journal),
    floorDecisionsCell(entry.floorDecisions ?? [], options.decisionWord),
  ];
}

/** One confirmed race as a CSV row (its cells quoted, joined by the separator, no line break). */
export function historyCsvRow(entry: HistoryEntry, journal: JournalReport, options: CsvOptions = {}): string {
  return csvLine(historyCsvCells(entry, journal, options), options.separator);
}

/**
 * The confirmed races as CSV (one row each) for the tournament director's spreadsheet, piece by
 * piece (replay/csv.ts: the byte-order mark, the separator, the quoting): the BOM and the header
 * line, then one line per race, each ending in CRLF. The history is read an entry at a time and
 * nothing is kept: however long it is, what is held is one row.
 */
export function* historyCsvChunks(history: Iterable<HistoryEntry>, journal: JournalReport, options: CsvOptions = {}): Generator<string, void, undefined> {
  yield `${CSV_BOM}${csvLine(HISTORY_CSV_COLUMNS, options.separator)}${CSV_EOL}`;
  for (const entry of history) yield `${historyCsvRow(entry, journal, options)}${CSV_EOL}`;
}

/** The whole CSV as one string: the stream's pieces joined (tests; the station streams it). */
export function historyCsv(history: readonly HistoryEntry[], journal: JournalReport, options: CsvOptions = {}): string {
  return [...historyCsvChunks(history, journal, options)].join('');
}

/** A race as the JSON export gives it: the entry's fields in their order (its summary read once), then the chain's verdict on its records. */
function exportedRace(entry: HistoryEntry, journal: JournalReport, summary: RaceSummary): Record<string, unknown> {
  // Field by field rather than spread: spreading would read the summary and keep it on the entry.
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) fields[key] = key === 'summary' ? summary : entry[key as keyof HistoryEntry];
  if (entry.floorDecisions !== undefined) fields['floorDecisions'] = entry.floorDecisions.map(decisionForJson);
  fields['chain'] = chainOf(journal, entry.seqs.first, entry.seqs.last).chain;
  return fields;
}

/** A value as JSON.stringify(…, null, 2) writes it `depth` levels down in a document: its inner lines indented so much more. */
export function nested(value: unknown, depth: number): string {
  // JSON.stringify writes a line break only between tokens (one inside a string is `\n`): indenting after each is exact.
  return (JSON.stringify(value, null, 2) as string).replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/**
 * The journal's report, every confirmed race with the chain's verdict on its records (a race a
 * damaged line belongs to with its `damaged`), and the value created in all (not by a race cut short
 * before its end: it was not confirmed), as JSON: `{ journal, races: [...], totalValueDelta }`, written piece by piece
 * (the report, then one race at a time, then the total, added up on the way), byte for byte what
 * JSON.stringify(document, null, 2) writes of the whole document. Nothing is kept but the total.
 */
export function* historyJsonChunks(history: Iterable<HistoryEntry>, journal: JournalReport): Generator<string, void, undefined> {
  const report = { chain: journal.chain, unchained: journal.unchained, records: journal.records, findings: journal.findings.map(findingText) };
  yield `{\n  "journal": ${nested(report, 1)},\n  "races": [`;
  let total = 0;
  let first = true;
  for (const entry of history) {
    const summary = summaryOnce(entry);
    if (countsAsConfirmed(entry)) total += summary.valueDelta ?? 0;
    yield `${first ? '' : ','}\n    ${nested(exportedRace(entry, journal, summary), 2)}`;
    first = false;
  }
  yield `${first ? ']' : '\n  ]'},\n  "totalValueDelta": ${JSON.stringify(total)}\n}\n`;
}

/** The whole JSON as one string: the stream's pieces joined. */
export function historyJson(history: readonly HistoryEntry[], journal: JournalReport): string {
  return [...historyJsonChunks(history, journal)].join('');
}
