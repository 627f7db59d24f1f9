import type { HistoryEntry } from '../ipc/contract';

const COLUMNS = ['race', 'started', 'confirmed', 'rules', 'removed', 'next', 'odd chips', 'race chips', 'winners', 'protected', 'value delta', 'corrections'] as const;

function csvCell(value: string | number): string {
  const text = String(value);
  // Quote anything a spreadsheet could misread: separators, quotes, line breaks, and formula starts.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function seatLabel(entry: HistoryEntry, seat: number): string {
  const name = entry.names[seat];
  return name ? `${seat} ${name}` : String(seat);
}

/** The confirmed races as CSV (one row each) for the tournament director's spreadsheet. */
export function historyCsv(history: readonly HistoryEntry[]): string {
  const rows = history.map((entry) => {
    const { summary } = entry;
    const winners = summary.awards.map((seat) => {
      const card = summary.winningCards.find((winning) => winning.seat === seat)?.card;
      return card ? `${seatLabel(entry, seat)} (${card})` : seatLabel(entry, seat);
    });
    return [
      entry.id, entry.startedAt, entry.confirmedAt, summary.rules, summary.removed, summary.next, summary.oddChips, summary.raceChips ?? '',
      winners.join('; '), summary.protected.map((seat) => seatLabel(entry, seat)).join('; '), summary.valueDelta ?? '', entry.corrections,
    ].map(csvCell).join(',');
  });
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

export function historyJson(history: readonly HistoryEntry[]): string {
  return `${JSON.stringify({ races: history, totalValueDelta: history.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0) }, null, 2)}\n`;
}
