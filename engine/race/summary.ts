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
