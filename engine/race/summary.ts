import { explainRace } from './explain';
import { nextStep } from './next';
import type { RaceState } from './race';

/** The race as one JSON document: the command line's output contract, and what the journal's readers see. */
export function raceSummary(state: RaceState) {
  const { setup, plan, progress } = state;
  const [fewest, most] = plan.raceChipsRange;
  const result = progress.result;
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
    protected: result ? [...result.protected] : [...plan.protectedBefore],
    valueDelta: result ? result.valueDelta : null,
    nextStep: nextStep(state).text,
    explanation: explainRace(state),
  };
}

export type RaceSummary = ReturnType<typeof raceSummary>;
