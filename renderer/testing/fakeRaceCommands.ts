/**
 * The fake service's race commands (fakeApi.ts) that the tests of states given still send, on the
 * real engine: the preview, the counts kept, the deal (typed, scanned, held), confirming, and the
 * history read back. The rest (voids, abandoning, a held card discarded, the export) are the real
 * kernel's (kernelApi.ts).
 */
import type { CommandResult, SeatCount, SeatCountDraft } from '../../protocol/contract';
import { colorUpStepOf } from '../../protocol/colorUp';
import { parseCard, type Card } from '../../engine/cards';
import { applyRaceEvent, startRace } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import { exchangeAtEqualValue, readChipExchange } from '../../engine/race/exchange';
import { applyGame } from './fakeGameCommands';
import { colorUpOf, engineInput, push, pushRace, racedOff, refused, stale, type FakeHandlers, type FakeStation } from './fakeStation';
import { makeHistory } from './fixtures';

type RaceCommand =
  | 'previewRace'
  | 'saveCountDrafts'
  | 'startRace'
  | 'dealCard'
  | 'dealScan'
  | 'readScan'
  | 'confirmRace'
  | 'recordChipExchange'
  | 'callFloor'
  | 'takeHeldCard'
  | 'historyPage'
  | 'raceRecord';

/**
 * A scan as the service reads it with the scanner's default (text) profile: the AIM symbology
 * prefix off, then a card code (the real decoding is hardware/scan.ts's, which the screens may not import).
 */
function fakeScanCard(raw: string): Card | null {
  return parseCard(raw.trim().replace(/^\][A-Za-z][0-9A-Za-z]/, '').trim());
}

const NOT_FIRST_HELD: CommandResult<never> = { ok: false, error: { field: 'held', message: 'that card is not the first one waiting any more' } };

export function raceCommands(station: FakeStation): FakeHandlers<RaceCommand> {
  function dealCard(target: string, code: string): CommandResult {
    const refusal = stale(station, target);
    if (refusal !== null) return refusal;
    if (station.game !== null) return applyGame(station, { type: 'card', card: code });
    try {
      pushRace(station, applyRaceEvent(station.race, { type: 'card', card: code }));
      return { ok: true, value: null };
    } catch (error) {
      return refused(error);
    }
  }

  /** The first held card, if it is the one named; taken off the held list. */
  function takeFirstHeld(target: string, heldId: number): string | null {
    const first = station.current.held[0];
    if (first === undefined || first.id !== heldId || first.target !== target) return null;
    push(station, { ...station.current, held: station.current.held.slice(1) });
    return first.card;
  }

  return {
    previewRace: (counts: readonly SeatCount[]) => {
      try {
        return { ok: true, value: raceSummary(startRace(engineInput(station.current.settings, counts))) };
      } catch (error) {
        return refused(error);
      }
    },
    // As the service keeps them: for the next race, refused while one is open.
    saveCountDrafts: (counts: readonly SeatCountDraft[]) => {
      if (station.race !== null) return { ok: false, error: { field: 'race', message: `race ${station.current.race?.id ?? ''} is open: the counts typed are for the next race, and were not kept` } };
      push(station, { ...station.current, countDrafts: [...counts].sort((a, b) => a.seat - b.seat) });
      return { ok: true, value: null };
    },
    startRace: (counts: readonly SeatCount[]) => {
      if (station.race !== null) return { ok: false, error: { field: 'race', message: 'a race is already in progress' } };
      try {
        const started = startRace(engineInput(station.current.settings, counts));
        const refusal = racedOff(station, started.setup.removed);
        if (refusal !== null) return refusal;
        station.raceNumber += 1;
        const { marked } = station;
        const proposal = station.current.plan?.proposal ?? null;
        const step = proposal !== null && proposal.afterLevel === marked.afterLevel ? colorUpStepOf(proposal, marked.done.map((done) => done.removed), started.setup.removed, started.setup.next) : null;
        if (step !== null) marked.races.set(`race-${station.raceNumber}`, { raceId: `race-${station.raceNumber}`, ...step });
        station.corrections = 0;
        push(station, { ...station.current, race: null, countDrafts: [] });
        pushRace(station, started, counts);
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    dealCard,
    // Text that is no card is refused as the decoder's, a card is dealt (or refused, naming the card read) as any.
    dealScan: (target: string, raw: string) => {
      const card = fakeScanCard(raw);
      if (card !== null) {
        const result = dealCard(target, card);
        return result.ok ? result : { ok: false, error: { ...result.error, card } };
      }
      return stale(station, target) ?? { ok: false, error: { field: 'scan', message: `${JSON.stringify(raw)}: not a card code (decoder text)` } };
    },
    readScan: (raw: string) => ({ ok: true, value: { card: fakeScanCard(raw) } }),
    confirmRace: (raceId: string) => {
      const view = station.current.race;
      if (station.race === null || view === null) return { ok: false, error: { field: 'race', message: 'no race to confirm' } };
      const refusal = stale(station, raceId);
      if (refusal !== null) return refusal;
      if (station.race.progress.status !== 'complete') return { ok: false, error: { field: 'race', message: 'the race is not complete' } };
      station.race = null;
      const { history } = station;
      const first = history.length * 20 + 1;
      history.push({
        id: view.id, startedAt: view.startedAt, confirmedAt: '2024-05-04T18:34:00.000Z', names: view.names, summary: view.summary, corrections: view.corrections,
        voided: [], refusals: 0, seqs: { first, last: first + view.summary.cards.length + 1 },
      });
      const colorUpRace = station.marked.races.get(view.id);
      if (colorUpRace !== undefined) station.marked = { ...station.marked, done: [...station.marked.done, { ...colorUpRace, confirmedAt: '2024-05-04T18:34:00.000Z' }] };
      push(station, { ...station.current, race: null, history: makeHistory(history), colorUp: colorUpOf(station, station.current.settings, null) });
      return { ok: true, value: null };
    },
    // As the service, without its checks against the races: listed with what it gives, the value it took off added up.
    recordChipExchange: (value: unknown) => {
      try {
        const exchange = readChipExchange(value);
        const result = exchangeAtEqualValue(exchange);
        const { exchanges, valueDelta } = station.current.chipExchanges;
        push(station, { ...station.current, chipExchanges: { exchanges: [...exchanges, { ...exchange, ...result, seq: exchanges.length + 1, at: new Date().toISOString() }], valueDelta: valueDelta + result.valueDelta } });
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    // As the service: the call kept with its note (trimmed) and the race open now, until the floor decides.
    callFloor: (note: string) => {
      push(station, { ...station.current, floorCalls: { ...station.current.floorCalls, called: { at: new Date().toISOString(), note: note.trim(), raceId: station.current.race?.id ?? null } } });
      return { ok: true, value: null };
    },
    takeHeldCard: (target: string, heldId: number) => {
      const card = takeFirstHeld(target, heldId);
      return card === null ? NOT_FIRST_HELD : dealCard(target, card);
    },
    historyPage: (before: number | null, count: number) => {
      const end = before ?? station.history.length;
      const start = Math.max(0, end - count);
      return { ok: true, value: { total: station.history.length, start, entries: station.history.slice(start, end) } };
    },
    raceRecord: (raceId: string) => {
      const record = station.options.records?.[raceId];
      if (record === undefined) return { ok: false, error: { field: 'race', message: `${raceId} is not in the journal` } };
      // As the service: the race's late-found chips recorded here since, beside it.
      const found = station.current.chipExchanges.exchanges.filter((exchange) => exchange.reason === 'late-found' && exchange.raceId === raceId);
      return { ok: true, value: found.length === 0 ? record : { ...record, chipExchanges: [...(record.chipExchanges ?? []), ...found] } };
    },
  };
}
