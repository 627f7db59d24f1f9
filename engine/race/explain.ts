import { formatCard } from '../cards';
import { pooledRaceChips } from './plan';
import type { RaceState } from './race';
import { isPooledRounding } from './rules';
import { raceTieBreaks, type TieBreak, type TieBreakRound } from './tiebreaks';

/** `seat 3`, `seat 3 and seat 7`, `seat 1, seat 3 and seat 7`. */
function seatsText(seats: readonly number[]): string {
  const names = seats.map((seat) => `seat ${seat}`);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
}

/** What the tie's order decided: `for the last 100`, `for the last 2 × 100`, the next player's half chip. */
function stakeText(tie: TieBreak, next: number, ratio: number): string {
  const last = tie.chips === 1 ? `the last ${next}` : `the last ${tie.chips} × ${next}`;
  const half = `won only with at least ${ratio / 2} odd chips of their own`;
  if (!tie.halfChip) return `for ${last}`;
  return tie.chips === 0 ? `for the next ${next}, ${half}` : `for ${last} and the next one, ${half}`;
}

function roundText(round: TieBreakRound, earlierWinners: boolean): string {
  const drawn = round.cards.map(({ seat, card }) => `seat ${seat} draws ${formatCard(card, 'pips')}`);
  const waiting = round.seats.filter((seat) => !round.cards.some((draw) => draw.seat === seat));
  if (round.outcome === null) return `tie-break round ${round.round}: ${[...drawn, ...(waiting.length > 0 ? [`${seatsText(waiting)} to draw`] : [])].join(', ')}`;
  const { won, tied } = round.outcome;
  const parts: string[] = [];
  if (won.length > 0) parts.push(`${seatsText(won)} ${won.length === 1 ? 'wins' : 'win'}`);
  if (tied.length > 0) parts.push(tied.length === round.seats.length ? 'still tied' : `${seatsText(tied)} still tied`);
  if (parts.length === 0) parts.push(earlierWinners ? 'nobody else wins' : 'nobody wins');
  return `tie-break round ${round.round}: ${drawn.join(', ')} → ${parts.join('; ')}`;
}

/**
 * `Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 draws 9♥,
 * seat 7 draws 4♣ → seat 3 wins`: one line per tie, every round in it.
 */
function tieBreakText(tie: TieBreak, next: number, ratio: number): string {
  const rounds: string[] = [];
  let winnersSoFar = 0;
  for (const round of tie.rounds) {
    rounds.push(roundText(round, winnersSoFar > 0));
    winnersSoFar += round.outcome?.won.length ?? 0;
  }
  const hold = tie.seats.length === 2 ? 'both hold' : 'all hold';
  return [`Tie: ${seatsText(tie.seats)} ${hold} ${formatCard(tie.card, 'pips')} ${stakeText(tie, next, ratio)}`, ...rounds].join('; ');
}

/**
 * The race's reasoning in plain English, one line per decision, so a floor supervisor can follow
 * how the outcome came about. The screens build their own translated guidance from the same data.
 */
export function explainRace(state: RaceState, tiebreaks: readonly TieBreak[] = raceTieBreaks(state)): string[] {
  const { setup, plan, progress } = state;
  const { removed, next } = setup;
  const { rounding, protection } = setup.settings;
  const lines: string[] = [`Rules: ${setup.rules} (rounding ${rounding}, deal from ${setup.settings.dealStart}, protection ${protection}); ${plan.ratio} × ${removed} = 1 × ${next}`];
  for (const seat of plan.exchange) {
    if (seat.up === 0 && seat.odd === 0) continue;
    const trade = seat.up > 0 ? `trades ${seat.up * plan.ratio} × ${removed} for ${seat.up} × ${next}` : `has no full ${next}`;
    lines.push(`Seat ${seat.seat}: ${trade}, keeps ${seat.odd} odd${seat.broke ? ' — nothing else left, cannot be raced out' : ''}`);
  }
  for (const seat of plan.protectedBefore) {
    lines.push(
      protection === 'exempt'
        ? `Seat ${seat} gets one ${next} without racing; its odd chips leave play`
        : `Seat ${seat} is served first: one ${next} for ${plan.ratio} odd chips from the pool`,
    );
  }
  const poolValue = plan.poolChips * removed;
  if (isPooledRounding(rounding)) {
    const chips = pooledRaceChips(rounding, plan.poolChips, plan.ratio);
    const whole = Math.max(0, Math.floor(poolValue / next));
    const over = Math.max(0, poolValue - whole * next);
    const rule = over === 0 ? '' : rounding === 'pooled-half-up' ? `, ${over} over ${over * 2 >= next ? '≥' : '<'} half of ${next}` : `, ${over} over (${rounding})`;
    lines.push(`Pool: ${plan.poolChips} odd × ${removed} = ${poolValue} → ${whole} whole ${next}${rule} → ${chips} chip${chips === 1 ? '' : 's'} to race`);
  } else if (rounding === 'next-player-half') {
    lines.push(`Pool: ${plan.poolChips} odd chips; a chip per full ${plan.ratio}, then the next player wins only with at least ${plan.ratio / 2} odd chips of their own`);
  } else {
    lines.push(`No race: each player with at least ${next / 2} in odd chips gets one ${next}`);
  }
  if (plan.deal.length === 0) lines.push('No card can change the outcome: no cards are dealt');
  else lines.push(`Deal ${plan.cardsNeeded} cards: ${plan.deal.map((run) => `seat ${run.seat} × ${run.cards}`).join(', ')}`);
  for (const tie of tiebreaks) lines.push(tieBreakText(tie, next, plan.ratio));
  if (progress.status === 'complete') {
    const { result } = progress;
    for (const { seat, card } of result.winningCards) lines.push(`Seat ${seat} wins a ${next} with ${formatCard(card, 'pips')}`);
    if (result.winningCards.length === 0) for (const seat of result.awards) lines.push(`Seat ${seat} gets a ${next}`);
    if (protection === 'after-race') for (const seat of result.protected) lines.push(`Seat ${seat} was raced out and gets one ${next}`);
    lines.push(`Value: ${(result.raceChips + result.protected.length) * next} given for ${plan.oddChips * removed} removed (${result.valueDelta >= 0 ? '+' : ''}${result.valueDelta})`);
  }
  for (const correction of state.corrections) {
    lines.push(`Voided ${correction.voided.card} (seat ${correction.voided.seat})${correction.reason === '' ? '' : `: ${correction.reason}`}`);
  }
  return lines;
}
