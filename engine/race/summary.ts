import { englishText } from '../messages';
import { explainRace } from './explain';
import { nextStep } from './next';
import type { RaceState } from './race';
import { raceTieBreaks } from './tiebreaks';

/** The race as one JSON document: the command line's output contract, and what the journal's readers see. */
export function raceSummary(state: RaceState) {
  const { setup, plan, progress } = state;
  const [fewest, most] = plan.raceChipsRange;
  const result = progress.result;
  const tiebreaks = raceTieBreaks(state);
  const step = nextStep(state);
  const explanation = explainRace(state, tiebreaks);
  return {
    status: progress.status,
    rules: setup.rules,
    settings: setup.settings,
    removed: setup.removed,
    next: setup.next,
    exchange: plan.exchange.map(({ seat, up, odd }) => ({ seat, up, odd })),
    pool: { chips: plan.poolChips, value: plan.poolChips * setup.removed },
    oddChips: plan.oddChips,
    raceChips: result ? result.raceChips : fewest === most ? fewest : null,
    raceChipsRange: { min: fewest, max: most },
    deal: plan.deal.map(({ seat, cards }) => ({ seat, cards })),
    cardsNeeded: plan.cardsNeeded,
    shoeCapacity: plan.shoeCapacity,
    cards: state.cards.map(({ card, seat, round }) => ({ card, seat, round })),
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
    /** The next step and the explanation in English, as the command line prints them (seats unnamed in the explanation). */
    nextStep: englishText(step, { cards: 'pips' }),
    explanation: explanation.map((line) => englishText(line, { cards: 'pips', names: false })),
    /** The same, as keys and parameters: the screens say them in the dealer's language. */
    said: { nextStep: step, explanation },
  };
}

export type RaceSummary = ReturnType<typeof raceSummary>;
