import { formatCard } from '../cards';
import type { RaceState } from './race';

/**
 * What the dealer does next, as data the screen translates (`key` + `params`) and as plain English
 * `text` for the command line and logs.
 */
export type NextStep =
  | { readonly key: 'race.next.deal' | 'race.next.tiebreak'; readonly params: { seat: number; name: string; cards: number }; readonly text: string }
  | {
      readonly key: 'race.next.award' | 'race.next.noChips';
      readonly params: { awards: readonly number[]; protected: readonly number[]; chip: number; removed: number };
      readonly text: string;
    };

function seatLabel(state: RaceState, seat: number): string {
  const name = state.setup.seats.find((entry) => entry.seat === seat)?.name ?? '';
  return name === '' ? `seat ${seat}` : `seat ${seat} — ${name}`;
}

function seatList(state: RaceState, seats: readonly number[]): string {
  return seats.map((seat) => seatLabel(state, seat)).join(', ');
}

export function nextStep(state: RaceState): NextStep {
  const { progress, setup } = state;
  if (progress.status !== 'complete') {
    const { seat, cards } = progress.awaiting;
    const name = setup.seats.find((entry) => entry.seat === seat)?.name ?? '';
    const plural = cards === 1 ? 'card' : 'cards';
    const tiebreak = progress.status === 'tiebreak';
    return {
      key: tiebreak ? 'race.next.tiebreak' : 'race.next.deal',
      params: { seat, name, cards },
      text: `${tiebreak ? 'Tie-break: deal' : 'Deal'} ${cards} ${plural} to ${seatLabel(state, seat)}`,
    };
  }
  const { awards, winningCards } = progress.result;
  const given = [...awards, ...progress.result.protected];
  const params = { awards, protected: progress.result.protected, chip: setup.next, removed: setup.removed };
  if (given.length === 0) {
    return { key: 'race.next.noChips', params, text: `No ${setup.next} chips to give; remove all odd ${setup.removed} chips` };
  }
  const won = awards.map((seat) => {
    const card = winningCards.find((entry) => entry.seat === seat)?.card;
    return card === undefined ? seatLabel(state, seat) : `${seatLabel(state, seat)} (${formatCard(card, 'pips')})`;
  });
  const parts = [
    won.length > 0 ? `race: ${won.join(', ')}` : '',
    progress.result.protected.length > 0 ? `protected: ${seatList(state, progress.result.protected)}` : '',
  ].filter((part) => part !== '');
  return {
    key: 'race.next.award',
    params,
    text: `Give one ${setup.next} chip each — ${parts.join('; ')}; remove all odd ${setup.removed} chips`,
  };
}
