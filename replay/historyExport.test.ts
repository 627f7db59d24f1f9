import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCard, type Card } from '../engine/cards';
import { applyRaceEvent, startRace } from '../engine/race/race';
import { RULE_SET_NAMES } from '../engine/race/rules';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import { chainOf, findingText, type JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { CSV_BOM, csvCell, offsetIn } from './csv';
import { HISTORY_CSV_COLUMNS, historyCsv, historyCsvCells, historyCsvChunks, historyCsvRow, historyJson, historyJsonChunks } from './historyExport';
import { parseCsv, readBack } from './testing/readCsv';
import { applySessionLine, EMPTY_SESSION, replaySession, SessionReplay, type SessionRecord } from './session';
import { historyEntry, type ActiveRace } from './sessionState';

// The exports as they were written before they streamed (one string, JSON.stringify of the whole
// document), kept here word for word as the reference: the streamed pieces joined must be these
// bytes exactly. Since issue 23 the CSV also starts with a byte-order mark and has each time's
// local reading right after it (`started local`, `confirmed local`): added here explicitly, the
// local times computed apart from the writer (a fixed offset, here Helsinki's winter +02:00), and a
// 'late-found chips' column after the value delta (empty for these races: none recorded).
const OLD_COLUMNS = [
  'race', 'table', 'level', 'station', 'started', 'started local', 'confirmed', 'confirmed local', 'confirmed by', 'rules', 'removed', 'next', 'odd chips', 'race chips', 'winners', 'protected', 'value delta', 'late-found chips',
  'cards', 'voided', 'refusals', 'corrections', 'records', 'chain', 'floor decision',
] as const;
const oldSeat = (entry: HistoryEntry, seat: number): string => (entry.names[seat] ? `${seat} ${entry.names[seat]}` : String(seat));
const oldShown = (card: string) => formatCard(card as Card, 'pips');
function oldCards(entry: HistoryEntry): string {
  const seats: number[] = [];
  const bySeat = new Map<number, { deal: string[]; tiebreak: string[] }>();
  for (const { card, seat, round } of entry.summary.cards) {
    let cards = bySeat.get(seat);
    if (cards === undefined) {
      cards = { deal: [], tiebreak: [] };
      bySeat.set(seat, cards);
      seats.push(seat);
    }
    (round === 0 ? cards.deal : cards.tiebreak).push(round === 0 ? oldShown(card) : `tie-break ${round}: ${oldShown(card)}`);
  }
  return seats
    .map((seat) => {
      const { deal, tiebreak } = bySeat.get(seat) as { deal: string[]; tiebreak: string[] };
      return `${oldSeat(entry, seat)}: ${deal.join(' ')}${tiebreak.length > 0 ? ` (${tiebreak.join(', ')})` : ''}`;
    })
    .join('; ');
}
function oldChain(entry: HistoryEntry, journal: JournalReport): string {
  const { chain, findings } = chainOf(journal, entry.seqs.first, entry.seqs.last);
  return chain !== 'broken' ? chain : `broken: ${findings.map(findingText).join('; ')}`;
}
const PINNED = { offsetOf: () => 120 };
const oldLocal = (iso: string) => `${new Date(Date.parse(iso) + 120 * 60_000).toISOString().slice(0, 19).replace('T', ' ')} +02:00`;
function oldCsv(history: readonly HistoryEntry[], journal: JournalReport): string {
  const rows = history.map((entry) => {
    const { summary } = entry;
    const winners = summary.awards.map((seat) => {
      const card = summary.winningCards.find((winning) => winning.seat === seat)?.card;
      return card ? `${oldSeat(entry, seat)} (${oldShown(card)})` : oldSeat(entry, seat);
    });
    return [
      entry.id, entry.table ?? '', entry.level ?? '', entry.station ?? '', entry.startedAt, oldLocal(entry.startedAt), entry.confirmedAt, oldLocal(entry.confirmedAt), entry.confirmedBy ?? '', summary.rules, summary.removed, summary.next, summary.oddChips, summary.raceChips ?? '',
      winners.join('; '), summary.protected.map((seat) => oldSeat(entry, seat)).join('; '), summary.valueDelta ?? '', '',
      oldCards(entry), entry.voided.map(({ card, seat, reason }) => `${oldShown(card)} (seat ${seat})${reason === '' ? '' : `: ${reason}`}`).join('; '), entry.refusals, entry.corrections, `${entry.seqs.first}–${entry.seqs.last}`, oldChain(entry, journal), '',
    ].map((cell) => csvCell(cell)).join(',');
  });
  return `${CSV_BOM}${[OLD_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
function oldJson(history: readonly HistoryEntry[], journal: JournalReport): string {
  const races = history.map((entry) => ({ ...entry, chain: chainOf(journal, entry.seqs.first, entry.seqs.last).chain }));
  const report = { chain: journal.chain, unchained: journal.unchained, records: journal.records, findings: journal.findings.map(findingText) };
  return `${JSON.stringify({ journal: report, races, totalValueDelta: history.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0) }, null, 2)}\n`;
}

/** Names a spreadsheet could misread, and plain ones. */
const name = fc.oneof(fc.constantFrom('Matti', 'Jo, "the rock"', '=HYPERLINK("x")', '+1', '-x', '@me', 'line\nbreak', 'Йоханна', ''), fc.string({ maxLength: 12 }));
const race = fc.record({
  rules: fc.constantFrom(...RULE_SET_NAMES),
  seats: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 2, maxLength: 6 }),
  chips: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 6, maxLength: 6 }),
  names: fc.array(name, { minLength: 6, maxLength: 6 }),
  voids: fc.integer({ min: 0, max: 2 }),
  reason: fc.constantFrom('', 'misdeal', 'flipped, "face up"'),
  place: fc.record({ table: fc.option(name, { nil: undefined }), station: fc.option(fc.constantFrom('pc-1', 'table;7'), { nil: undefined }), level: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }) }, { requiredKeys: [] }),
  by: fc.option(name, { nil: undefined }),
});
type RandomRace = typeof race extends fc.Arbitrary<infer T> ? T : never;

/** The journal lines of these races, each dealt to its end from a shuffled shoe and confirmed. */
function journalOf(races: readonly RandomRace[], seed: number): JournalLine<SessionRecord>[] {
  const shoe = shuffleDecks(4, seededRandom(seed));
  let dealt = 0;
  const lines: JournalLine<SessionRecord>[] = [];
  const write = (record: SessionRecord) => lines.push({ seq: lines.length + 1, at: `2026-11-29T${String(10 + Math.floor(lines.length / 60) % 14).padStart(2, '0')}:${String(lines.length % 60).padStart(2, '0')}:00.000Z`, record });
  races.forEach((one, index) => {
    const raceId = `race-${index + 1}`;
    const seats = one.seats.map((seat, at) => ({ seat, name: one.names[at] as string, chips: one.chips[at] as number, other: at === 1 ? 0 : 100 }));
    const setup = { rules: one.rules, removed: 25, next: 100, button: one.seats[0] as number, decks: 4, seats };
    let state = startRace(setup);
    const counts = seats.map(({ seat, chips, other }) => ({ seat, chips, hasOther: other > 0 }));
    const names = Object.fromEntries(seats.filter((seat) => seat.name !== '').map((seat) => [seat.seat, seat.name]));
    write({ kind: 'race-start', raceId, race: setup, counts, names, ...one.place } as SessionRecord);
    let voids = one.voids;
    while (state.progress.status !== 'complete') {
      const card = shoe[dealt++ % shoe.length] as string;
      state = applyRaceEvent(state, { type: 'card', card });
      write({ kind: 'race-event', raceId, event: { type: 'card', card }, source: 'shoe' });
      if (voids > 0 && state.cards.length > 0 && state.progress.status !== 'complete') {
        voids -= 1;
        state = applyRaceEvent(state, { type: 'void', count: 1, reason: one.reason });
        write({ kind: 'race-event', raceId, event: { type: 'void', count: 1, reason: one.reason }, source: 'manual' });
      }
    }
    write({ kind: 'race-confirm', raceId, ...(one.by === undefined ? {} : { by: one.by }) } as SessionRecord);
  });
  return lines;
}

const finding: fc.Arbitrary<JournalFinding> = fc.oneof(
  fc.record({ code: fc.constant('altered' as const), seq: fc.integer({ min: 1, max: 300 }), skipped: fc.boolean() }),
  fc.record({ code: fc.constant('damaged' as const), seq: fc.integer({ min: 1, max: 300 }), line: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ code: fc.constant('missing' as const), seq: fc.integer({ min: 1, max: 300 }), last: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ code: fc.constant('torn-tail' as const), bytes: fc.integer({ min: 1, max: 99 }), savedAs: fc.constant(null) }),
);
const journal: fc.Arbitrary<JournalReport> = fc.record({
  path: fc.constant('/data/journal.jsonl'),
  records: fc.integer({ min: 0, max: 1000 }),
  findings: fc.array(finding, { maxLength: 3 }),
  chain: fc.constantFrom('intact' as const, 'broken' as const, 'damaged' as const, 'unchained' as const, 'unchecked' as const, 'empty' as const),
  unchained: fc.integer({ min: 0, max: 20 }),
  unchainedThrough: fc.integer({ min: 0, max: 40 }),
  readOnly: fc.constant(null),
});

/** The history the reducer makes, every summary made at once (the reference's input), and the replay's, each summary made only when read. */
function histories(lines: readonly JournalLine<SessionRecord>[]): { made: readonly HistoryEntry[]; lazy: readonly HistoryEntry[] } {
  const made = lines.reduce((session, line) => applySessionLine(session, line), EMPTY_SESSION).history;
  const { session, problems } = replaySession(lines);
  expect(problems).toEqual([]);
  return { made, lazy: session.history };
}

const notMadeYet = (entry: HistoryEntry) => typeof Object.getOwnPropertyDescriptor(entry, 'summary')?.get === 'function';

describe('the history exports, streamed', () => {
  it('join to exactly the bytes the one-string exports wrote, for any history and journal report', () => {
    fc.assert(
      fc.property(fc.array(race, { maxLength: 6 }), fc.integer(), journal, (races, seed, report) => {
        const { made, lazy } = histories(journalOf(races, seed));
        const csv = oldCsv(made, report);
        const json = oldJson(made, report);
        expect([...historyCsvChunks(lazy, report, PINNED)].join('')).toBe(csv);
        expect([...historyJsonChunks(lazy, report)].join('')).toBe(json);
        expect(historyCsv(made, report, PINNED)).toBe(csv);
        expect(historyJson(made, report)).toBe(json);
        // And the JSON is the document it always was.
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify({ journal: JSON.parse(json).journal, races: made.map((entry) => ({ ...entry, chain: chainOf(report, entry.seqs.first, entry.seqs.last).chain })), totalValueDelta: JSON.parse(json).totalValueDelta })));
      }),
      { numRuns: 150 },
    );
  });

  it('read back through an RFC 4180 reader, with either separator, to the BOM, the header and each race\'s cells (names with suits, quotes, separators, line breaks)', () => {
    fc.assert(
      fc.property(fc.array(race, { maxLength: 5 }), fc.integer(), journal, fc.constantFrom<',' | ';'>(',', ';'), (races, seed, report, separator) => {
        const { made } = histories(journalOf(races, seed));
        const file = historyCsv(made, report, { ...PINNED, separator });
        expect(file.startsWith(CSV_BOM)).toBe(true);
        const read = parseCsv(file.slice(CSV_BOM.length), separator);
        expect(read).toEqual([[...HISTORY_CSV_COLUMNS], ...made.map((entry) => historyCsvCells(entry, report, PINNED).map(readBack))]);
      }),
      { numRuns: 100 },
    );
  });

  it('write the same cells with ";" for a Finnish or Russian office, and local times in the zone they are told', () => {
    const { made } = histories(journalOf(fc.sample(race, { numRuns: 4, seed: 3 }), 3));
    const report: JournalReport = { path: '', records: 0, findings: [], chain: 'intact', unchained: 0, unchainedThrough: 0, readOnly: null };
    const helsinki = { offsetOf: offsetIn('Europe/Helsinki') };
    const semi = historyCsv(made, report, { ...helsinki, separator: ';' });
    expect(semi.startsWith(`${CSV_BOM}race;table;level;station;started;started local;confirmed;confirmed local;`)).toBe(true);
    for (const entry of made) {
      expect(historyCsvRow(entry, report, { ...helsinki, separator: ';' }).split(';').length).toBeGreaterThan(20);
      expect(historyCsvRow(entry, report, helsinki)).toContain(`${entry.startedAt},${oldLocal(entry.startedAt)},`);
    }
  });

  it("name the house settings a race ran beside its rule set in the rules column (issue 41: left out)", () => {
    const [plain, house] = histories(journalOf(fc.sample(race, { numRuns: 2, seed: 5 }).map((one) => ({ ...one, rules: 'classic' as const, voids: 0 })), 5)).made as [HistoryEntry, HistoryEntry];
    const ran = { ...house, summary: { ...house.summary, settings: { ...house.summary.settings, dealStart: 'seat-1', award: 'high-card-takes-all' } } } as HistoryEntry;
    const report: JournalReport = { path: '', records: 0, findings: [], chain: 'intact', unchained: 0, unchainedThrough: 0, readOnly: null };
    const rulesAt = HISTORY_CSV_COLUMNS.indexOf('rules');
    expect(historyCsvCells(plain, report, PINNED)[rulesAt]).toBe('classic');
    expect(historyCsvCells(ran, report, PINNED)[rulesAt]).toBe('classic (dealStart: seat-1; award: high-card-takes-all)');
  });

  it('come a piece at a time: the header first, then one piece per race, before the history is read to its end', () => {
    const { lazy } = histories(journalOf(fc.sample(race, { numRuns: 3, seed: 7 }), 7));
    const report: JournalReport = { path: '', records: 0, findings: [], chain: 'intact', unchained: 0, unchainedThrough: 0, readOnly: null };
    let read = 0;
    const counted = (function* counting() {
      for (const entry of lazy) {
        read += 1;
        yield entry;
      }
    })();
    const csv = historyCsvChunks(counted, report);
    expect(csv.next().value).toMatch(/^\uFEFFrace,table,level,station,started,started local,confirmed,confirmed local,.*,chain,floor decision\r\n$/);
    expect(read).toBe(0);
    expect(csv.next().value).toMatch(/^race-1,/);
    expect(read).toBe(1);
    expect([...csv]).toHaveLength(2);
    expect([...historyJsonChunks(lazy, report)]).toHaveLength(1 + 3 + 1);
  });

  it('make each race’s summary for the reading only: the history holds no more after an export than before', () => {
    const { lazy } = histories(journalOf(fc.sample(race, { numRuns: 4, seed: 11 }), 11));
    const report: JournalReport = { path: '', records: 0, findings: [], chain: 'intact', unchained: 0, unchainedThrough: 0, readOnly: null };
    expect(lazy.every(notMadeYet)).toBe(true);
    for (const piece of historyCsvChunks(lazy, report)) expect(typeof piece).toBe('string');
    for (const piece of historyJsonChunks(lazy, report)) expect(typeof piece).toBe('string');
    expect(lazy.every(notMadeYet)).toBe(true);
  });

  it('export a history of 50,000 races and keep none of it: the heap after a full GC grows by under a tenth of the output', () => {
    // A full GC on demand, as the bench's process has it (--expose-gc).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const lines = journalOf(fc.sample(race, { numRuns: 1, seed: 5 }), 5);
    const start = lines[0]?.record as Extract<SessionRecord, { kind: 'race-start' }>;
    const state = lines.filter((line) => line.record.kind === 'race-event').reduce((made, line) => applyRaceEvent(made, (line.record as Extract<SessionRecord, { kind: 'race-event' }>).event), startRace(start.race));
    // 50,000 entries whose summaries are made only when read, each from the race's state recalled (as the station's are, from the journal).
    const history = Array.from({ length: 50_000 }, (_, index) => {
      const active: ActiveRace = { id: `race-${index + 1}`, startedAt: '2026-11-29T12:00:00.000Z', firstSeq: index * 20 + 1, refusals: 0, counts: start.counts, names: start.names, place: {}, state };
      return historyEntry(active, { seq: index * 20 + 19, at: '2026-11-29T12:05:00.000Z' }, undefined, 'later', () => state);
    });
    const report: JournalReport = { path: '', records: 0, findings: [], chain: 'intact', unchained: 0, unchainedThrough: 0, readOnly: null };
    gc();
    const before = process.memoryUsage().heapUsed;
    let bytes = 0;
    let largest = 0;
    for (const piece of historyCsvChunks(history, report)) {
      bytes += piece.length;
      largest = Math.max(largest, piece.length);
    }
    gc();
    const grew = process.memoryUsage().heapUsed - before;
    expect(bytes).toBeGreaterThan(5 * 1024 * 1024);
    expect(largest).toBeLessThan(2048);
    expect(grew).toBeLessThan(bytes / 10);
    expect(history.every(notMadeYet)).toBe(true);
  });
});

/** Three races that each deal cards, race 2's value not 0 (so leaving it out of the total shows). */
const SEED = 1;
describe('a race a damaged journal line belongs to, in the exports (issue 44)', () => {
  /**
   * Three races dealt and confirmed, then the journal's lines damaged as a failing disk does: race 2's
   * confirmation lost (the race cut short when race 3 started), a card of race 3 lost (its
   * confirmation kept). The station replays every line (gaps): a seq skipped is a damaged line.
   */
  function damagedHistory() {
    const races = fc.sample(race, { numRuns: 3, seed: SEED }).map((one) => ({ ...one, voids: 0, rules: 'classic' as const }));
    const lines = journalOf(races, SEED);
    const confirmOf = (raceId: string) => lines.find((line) => line.record.kind === 'race-confirm' && line.record.raceId === raceId)?.seq as number;
    const lostConfirm = confirmOf('race-2');
    const lostCard = lines.find((line) => line.record.kind === 'race-event' && line.record.raceId === 'race-3')?.seq as number;
    const replay = new SessionReplay(undefined, [], undefined, { gaps: true });
    for (const line of lines) if (line.seq !== lostConfirm && line.seq !== lostCard) replay.add(line);
    const { session } = replay.finish();
    const whole = histories(lines).made;
    const report: JournalReport = {
      path: '', records: lines.length, chain: 'damaged', unchained: 0, unchainedThrough: 0, readOnly: null,
      findings: [{ code: 'damaged', seq: lostConfirm, line: lostConfirm + 1 }, { code: 'damaged', seq: lostCard, line: lostCard + 1 }],
    };
    return { history: session.history, whole, report, lostConfirm, lostCard };
  }

  it('CSV: the race cut short says "not confirmed" where its confirmation would be and adds no value; the confirmed one names its damaged record; the others are the bytes they always were', () => {
    const { history, whole, report, lostConfirm, lostCard } = damagedHistory();
    expect(history.map((entry) => [entry.id, entry.damaged])).toEqual([['race-1', undefined], ['race-2', { seq: lostConfirm, confirmed: false }], ['race-3', { seq: lostCard, confirmed: true }]]);
    const [intact, cut, confirmed] = history as [HistoryEntry, HistoryEntry, HistoryEntry];
    // A race without damage: its row as it always was.
    expect(historyCsvRow(intact, report, PINNED)).toBe(oldCsv([intact], report).split('\r\n')[1]);
    const cell = (entry: HistoryEntry, column: string) => historyCsvCells(entry, report, PINNED)[HISTORY_CSV_COLUMNS.indexOf(column)];
    expect(cell(cut, 'confirmed')).toBe(`not confirmed: damaged at record ${lostConfirm}`);
    expect(cell(cut, 'confirmed local')).toBe('');
    expect(cell(cut, 'confirmed by')).toBe('');
    // Its readable lines made a complete race: a value, which the history does not count.
    expect(cut.summary.valueDelta).toBe(whole[1]?.summary.valueDelta);
    expect(cell(cut, 'value delta')).toBe('');
    expect(cell(cut, 'chain')).toBe(`damaged at record ${lostConfirm}`);
    expect(cell(confirmed, 'confirmed')).toBe(confirmed.confirmedAt);
    expect(cell(confirmed, 'chain')).toBe(`damaged at record ${lostCard}`);
    // Still one row a race, the same columns.
    expect(parseCsv(historyCsv(history, report, PINNED).slice(CSV_BOM.length), ',').map((row) => row.length)).toEqual([25, 25, 25, 25]);
  });

  it('JSON: carries each race’s `damaged`, and its total leaves out the race cut short', () => {
    const { history, report, lostConfirm, lostCard } = damagedHistory();
    const json = JSON.parse(historyJson(history, report)) as { races: Array<{ id: string; damaged?: unknown }>; totalValueDelta: number };
    expect(json.races.map((one) => one.damaged ?? null)).toEqual([null, { seq: lostConfirm, confirmed: false }, { seq: lostCard, confirmed: true }]);
    const value = (index: number) => history[index]?.summary.valueDelta ?? 0;
    expect(value(1)).not.toBe(0);
    expect(json.totalValueDelta).toBe(value(0) + value(2));
    // A history with no damage: the document it always was (the property test above holds every byte).
    expect(historyJson(history.slice(0, 1), report)).toBe(oldJson(history.slice(0, 1), report));
  });
});
