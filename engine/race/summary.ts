import { englishText, type Message } from '../messages';
import { explainRace } from './explain';
import { nextStep } from './next';
import type { RaceState } from './race';
import { raceTieBreaks } from './tiebreaks';

export interface SummaryOptions {
  /** False: no explanation (an empty list), where nobody reads it yet. */
  readonly explain?: boolean;
}

/**
 * The race as one JSON document, what the engine says in it as keys and parameters (`said`): what
 * the screens are sent after every card (they say it in the dealer's language) and what the
 * journal's readers see. The command line's output adds the English text (raceReport).
 */
export function raceSummary(state: RaceState, options: SummaryOptions = {}) {
  const { setup, plan, progress } = state;
  const [fewest, most] = plan.raceChipsRange;
  const result = progress.result;
  const tiebreaks = raceTieBreaks(state);
  const step = nextStep(state);
  const explanation = options.explain === false ? [] : explainRace(state, tiebreaks);
  return {
    status: progress.status,
    rules: setup.rules,
    settings: setup.settings,
    removed: setup.removed,
    next: setup.next,
    /** Removed chips per new chip (next / removed): the trade the counts screen's guidance says. */
    ratio: plan.ratio,
    exchange: plan.exchange.map(({ seat, up, odd }) => ({ seat, up, odd })),
    pool: { chips: plan.poolChips, value: plan.poolChips * setup.removed },
    oddChips: plan.oddChips,
    raceChips: result ? result.raceChips : fewest === most ? fewest : null,
    raceChipsRange: { min: fewest, max: most },
    deal: plan.deal.map(({ seat, cards }) => ({ seat, cards })),
    cardsNeeded: plan.cardsNeeded,
    shoeCapacity: plan.shoeCapacity,
    cards: state.cards.map(({ card, seat, round }) => ({ card, seat, round })),
    /** Cards of the race deal dealt so far (tie-break cards counted apart): the deal's progress. */
    mainDealCards: state.cards.filter((card) => card.round === 0).length,
    /** The tie-break round being dealt (the one the awaited card belongs to); else the highest round dealt, 0 when none. */
    tiebreakRound: progress.status === 'tiebreak' ? progress.awaiting.round : state.cards.reduce((round, card) => Math.max(round, card.round), 0),
    awaiting: progress.awaiting ? { seat: progress.awaiting.seat, cards: progress.awaiting.cards } : null,
    awards: result ? [...result.awards] : [],
    winningCards: result ? result.winningCards.map(({ seat, card }) => ({ seat, card })) : [],
    tiebreaks: tiebreaks.map(({ seats, card, chips, halfChip, rounds, winners }) => ({
      seats: [...seats],
      card,
      chips,
      halfChip,
      rounds: rounds.map((round) => ({
        round: round.round,
        seats: [...round.seats],
        cards: round.cards.map((draw) => ({ seat: draw.seat, card: draw.card })),
        outcome: round.outcome ? { won: [...round.outcome.won], tied: [...round.outcome.tied] } : null,
      })),
      winners: winners ? [...winners] : null,
    })),
    protected: result ? [...result.protected] : [...plan.protectedBefore],
    valueDelta: result ? result.valueDelta : null,
    /** The next step and the explanation, as keys and parameters: the screens say them in the dealer's language. */
    said: { nextStep: step, explanation },
  };
}

export type RaceSummary = ReturnType<typeof raceSummary>;

/** Chips per denomination, the denomination written as text (`{"100": 3}`): how the chip runner's sheet and the floor's status say them. */
export type ChipsByDenomination = Readonly<Record<string, number>>;

/** What a race's table hands out (`bring`: the chips the runner brings) and takes in (`collect`: the chips the runner takes away). */
export interface RaceChipSheet {
  readonly bring: ChipsByDenomination;
  readonly collect: ChipsByDenomination;
}

/** The summary's fields the sheet is made of: a race's summary, or a history entry's. */
type SheetFigures = Pick<RaceSummary, 'status' | 'removed' | 'next' | 'ratio' | 'exchange' | 'oddChips' | 'awards' | 'protected'>;

/**
 * The chips a complete race's table hands out and takes in, as its screens tell the dealer: the
 * exchange (the counts screen: trade `up × ratio` of the leaving chips for `up` new ones), the race's
 * chips (the result screen's winners, one each), the protected seats' chips (its protected panel,
 * one each) handed out; the traded chips and the odd chips (its "remove") taken in. The value
 * delta of the result screen is `(winners + protected) × next − oddChips × removed` of the same
 * figures. Null while the race is not complete (its result, and so what it hands out, is not known).
 * The floor's chip runner's sheet is the sum of these (floor/fold.ts), never figures of its own.
 */
export function raceChipSheet(summary: SheetFigures): RaceChipSheet | null {
  if (summary.status !== 'complete') return null;
  let up = 0;
  for (const seat of summary.exchange) up += seat.up;
  const bring = up + summary.awards.length + summary.protected.length;
  const collect = up * summary.ratio + summary.oddChips;
  return {
    bring: bring === 0 ? {} : { [String(summary.next)]: bring },
    collect: collect === 0 ? {} : { [String(summary.removed)]: collect },
  };
}

/** Chips per denomination added together (a table's races, the tables of the floor), zeros left out. */
export function addChips(...all: readonly ChipsByDenomination[]): ChipsByDenomination {
  const sums = new Map<number, number>();
  for (const chips of all) for (const [denomination, count] of Object.entries(chips)) sums.set(Number(denomination), (sums.get(Number(denomination)) ?? 0) + count);
  const out: Record<string, number> = {};
  for (const [denomination, count] of [...sums.entries()].sort(([a], [b]) => a - b)) if (count !== 0) out[String(denomination)] = count;
  return out;
}

/** How the English record of a race writes its explanation: cards as cards, seats without names. */
export const ENGLISH_EXPLANATION = { cards: 'pips', names: false } as const;

/** A line of the explanation in English, as the record (the result screen's, the command line's) writes it. */
export function englishExplanationLine(line: Message): string {
  return englishText(line, ENGLISH_EXPLANATION);
}

/**
 * The race as the command line prints it: the summary with the next step and the explanation in
 * English as well. Only where English is wanted: saying them costs more than the rest of the
 * summary, and the console says them after every card in the dealer's language instead.
 */
export function raceReport(state: RaceState) {
  const { said, ...facts } = raceSummary(state);
  return {
    ...facts,
    /** The next step and the explanation in English (seats unnamed in the explanation). */
    nextStep: englishText(said.nextStep, { cards: 'pips' }),
    explanation: said.explanation.map(englishExplanationLine),
    said,
  };
}

export type RaceReport = ReturnType<typeof raceReport>;
