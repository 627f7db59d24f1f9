import { raceFromInput } from '../../engine/race/input';
import { raceSummary } from '../../engine/race/summary';
import type { FloorClock } from '../../protocol/clock';
import type { RaceRecord } from '../../protocol/races';
import type { FloorCall } from '../calls';
import type { FloorDecision } from '../decisions';
import type { FloorStatus, FoldedRace, TableStatus } from '../fold';
import type { Reconciliation } from '../runner';
import type { SeatingChange, TableSeating } from '../seating';
import { brokenMidColourUp, clockSection, outageBanner, renderLogin, renderMessage, renderOutage, renderOverview, renderRaceRecord, renderSeating, renderTable, renderTournament, tableSeatsSection } from './render';
import { renderRunner } from './runnerPage';
import type { FloorLanguage } from './words';

/**
 * Every page the floor serves, made from one text put wherever the floor shows a table's name, a
 * note or a player's name (and a refusal, where a page says one): what the pages' tests feed a
 * hostile text through, and the same pages with an ordinary one.
 */
export function everyPage(text: string, language: FloorLanguage = 'en'): Readonly<Record<string, string>> {
  const at = '2026-12-05T12:00:00.000Z';
  const now = Date.parse('2026-12-05T12:00:30.000Z');
  const exchange = { seq: 9, at, afterLevel: 2, reason: 'discretionary', raceId: null, seat: 1, removed: 25, next: 100, count: 3, given: 1, lost: 0, valueDelta: 25, note: text } as const;
  const table: TableStatus = {
    table: text, races: 2, valueDelta: 25, lastSeen: at, colourUp: 'floor-called', behind: 0, openRace: { raceId: text, status: 'racing' }, openRaceClosed: { by: text, note: text },
    corrections: 1, refusals: 1, abandoned: 0, chips: [], failures: [{ seq: 4, reason: text }], foldBehind: 2, foldProblems: [{ seq: 5, reason: 'bad-time', detail: text }], damaged: [6], damagedRaces: [{ raceId: text, seq: 6, confirmed: false }],
    bring: { 100: 3 }, collect: { 25: 12 }, sheetAfterLevel: 2, exchanges: [exchange as never], readerHealth: { verdict: 'warn', frames: 40, unknown: 4, checksum: 4, repeats: 0, held: 0 } as never,
  };
  const status: FloorStatus = { tables: [table], progress: { 'not-started': 0, racing: 0, 'waiting-to-confirm': 0, done: 0, closed: 0, disputed: 0, 'floor-called': 1, left: 1 } as never, foldBehind: 1, totals: { races: 2, valueDelta: 25, corrections: 1, refusals: 1, chips: [], bring: { 100: 3 }, collect: { 25: 12 } } };
  const race = { raceId: text, status: 'racing', level: 2, removed: 25, next: 100, valueDelta: null, winners: [1], startedAt: at, endedAt: null, corrections: 0, refusals: 0, collect: 0, bring: 0, damaged: { seq: 7, confirmed: false } } as unknown as FoldedRace;
  const decision: FloorDecision = { id: 1, table: text, at, by: text, decision: 'race-closed', note: text, raceId: text, settlesSeq: 3 };
  const call: FloorCall = { seq: 8, at, note: text, raceId: text };
  const seating: TableSeating = { table: text, version: 1, brokenAt: at, seats: [{ seat: 1, player: text }, { seat: 2, player: 'Matti' }] };
  const open: TableSeating = { ...seating, brokenAt: null };
  const change: SeatingChange = { id: 3, at, by: text, kind: 'move', table: text, seat: 1, toTable: text, toSeat: 2, player: text, seats: null, undoes: null, undoneBy: null, undoable: true };
  const breakChange: SeatingChange = { ...change, id: 4, kind: 'break', seats: [{ seat: 1, player: text }] };
  const input = { rules: 'classic', removed: 25, next: 100, button: 3, seats: [{ seat: 1, name: text, chips: 7, other: 5000 }, { seat: 2, name: 'Teppo', chips: 2, other: 3000 }, { seat: 3, name: 'Johanna', chips: 2, other: 4000 }], cards: ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'] };
  const events = [
    { seq: 2, at, type: 'start' },
    { seq: 3, at, type: 'card', card: 'Ah', seat: 1, round: 0, source: 'manual', held: false },
    { seq: 4, at, type: 'void', voided: [{ card: 'Kc', seat: 1, reason: text }] },
    { seq: 5, at, type: 'refused', input: text, reason: text, source: 'scanner', count: 2, again: [6] },
    { seq: 7, at, type: 'floor-called', note: text },
    { seq: 8, at, type: 'floor-decision', decision: 'race-closed', by: text, note: text, decidedAt: at },
    { seq: 9, at, type: 'confirm', by: text },
    { seq: 10, at, type: 'abandon', reason: text },
  ];
  const record = { id: 'race-1', table: text, station: text, level: 2, status: 'confirmed', startedAt: at, counts: [{ seat: 1, chips: 7, hasOther: true }], names: { 1: text }, summary: raceSummary(raceFromInput(input)), events, seqs: { first: 2, last: 10 }, lastSeal: text, chain: 'intact', findings: [] } as unknown as RaceRecord;
  const tick = { table: text, afterLevel: 2, kind: 'collected', by: text, at, chips: { 25: 12 } } as const;
  const reconciliation: Reconciliation = {
    afterLevel: 2,
    tables: [{ table: text, colourUp: 'done', collect: { 25: 12 }, bring: { 100: 3 }, exchanges: [exchange as never], removedValue: 300, addedValue: 300, valueCreated: 0, delivered: null, collected: tick, earlier: { delivered: [], collected: [tick] }, flagged: true, differences: [{ kind: 'collected', chip: 25, more: 1 }] } as never],
    totals: { collect: { 25: 12 }, bring: { 100: 3 }, removedValue: 300, addedValue: 300, valueCreated: 0, flagged: 1 },
  };
  const clock = { structure: { chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 20 }, { break: 10 }, { sb: 50, bb: 100, minutes: 20 }] }, events: [], house: { rules: 'tda' }, held: { afterLevel: 1, tables: 1 } } as unknown as FloorClock;
  const seats = tableSeatsSection(text, open, language, text, [change, breakChange], { question: text, fields: { action: 'out', seat: '1', note: text } });
  return {
    overview: renderOverview(status, language, now, clockSection(clock, language, now, text), outageBanner(language, now, now), brokenMidColourUp(status, [seating], language)),
    table: renderTable(table, [race], language, now, seats, [decision], text, [call]),
    brokenTable: renderTable(table, [race], language, now, tableSeatsSection(text, seating, language, text), [decision], text, [call]),
    race: renderRaceRecord(text, record, language),
    seating: renderSeating(status, [seating, open], language, text, true),
    tournament: renderTournament(clock, language, text, true),
    runner: renderRunner(reconciliation, language, text),
    outage: renderOutage(language, outageBanner(language, now, null)),
    login: renderLogin(language, true),
    message: renderMessage(language, 'floor.page.notFound'),
  };
}
