import type { Card } from '../cards';
import { tieMatters, traceTieBreaks, winsRanked, type RaceState, type TieBreakStep } from './race';
import { takesAll } from './rules';

/** One card a tied seat drew in a tie-break round. */
export interface TieBreakDraw {
  readonly seat: number;
  readonly card: Card;
}

/** What one tie-break round settled, once all its cards are dealt. */
export interface TieBreakOutcome {
  /** Seats this round made sure of a chip, best card first. */
  readonly won: readonly number[];
  /** Seats still tied, their order still deciding a chip: they draw again in a later round (deal order). */
  readonly tied: readonly number[];
}

export interface TieBreakRound {
  /** The round number the cards carry (DealtCard.round): 1, 2, … counted over the whole race, not per tie. */
  readonly round: number;
  /** Seats drawing one card each in this round, in deal order. */
  readonly seats: readonly number[];
  /** The cards drawn, in deal order; while the round is being dealt, the ones so far. */
  readonly cards: readonly TieBreakDraw[];
  /** Null while the round is still being dealt. */
  readonly outcome: TieBreakOutcome | null;
}

/** One tie of identical best cards (several decks) that decided a chip, and how it was broken. */
export interface TieBreak {
  /** The tied seats, in deal order. */
  readonly seats: readonly number[];
  /** The best card every one of them holds. */
  readonly card: Card;
  /**
   * Chips the order among these seats decides for sure: the last `chips` chips of the race. Under
   * high-card-takes-all, the chips sure to be raced when the tie is for the best card (all of them
   * go to it), else 0.
   */
  readonly chips: number;
  /** The order also decides the next player's chance (next-player-half): a chip only with half a chip of odd chips of their own. */
  readonly halfChip: boolean;
  /** High card takes all, and the tie is for the best card: its order decides who takes every race chip. */
  readonly all: boolean;
  readonly rounds: readonly TieBreakRound[];
  /** Seats of the tie who win a chip, best first, once the tie is broken; null until then. */
  readonly winners: readonly number[] | null;
}

function sameKey(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

interface OpenTie {
  readonly racers: readonly number[];
  readonly record: { -readonly [K in keyof TieBreak]: TieBreak[K] } & { rounds: TieBreakRound[] };
}

/**
 * Where the tie's racers stand in `step`'s ranking (they fill consecutive places, their best card
 * being the same), and the racers among them still tied in a group whose order decides a chip.
 */
function standing(state: RaceState, tie: readonly number[], step: TieBreakStep): { start: number; end: number; stillTied: Set<number> } {
  const { plan } = state;
  const members = new Set(tie);
  const start = step.ranking.findIndex((racer) => members.has(racer));
  const end = start + tie.length;
  const stillTied = new Set<number>();
  let from = start;
  while (from < end) {
    const key = step.keys[step.ranking[from] as number] as readonly number[];
    let to = from + 1;
    while (to < end && sameKey(step.keys[step.ranking[to] as number] as readonly number[], key)) to += 1;
    if (tieMatters(state.setup, plan, step.ranking, from, to)) for (const racer of step.ranking.slice(from, to)) stillTied.add(racer);
    from = to;
  }
  return { start, end, stillTied };
}

function openTie(state: RaceState, step: TieBreakStep, tied: readonly number[]): OpenTie {
  const { plan } = state;
  const { start, end } = standing(state, tied, step);
  const positions = plan.positions.slice(start, end);
  // High card takes all: a tie for the best card is for every chip; any other tie decides only whether the next player's chip is raced.
  const all = takesAll(state.setup.settings) && start === 0;
  const sure = (all ? plan.positions : takesAll(state.setup.settings) ? [] : positions).filter((position) => position === 'win').length;
  return {
    racers: tied,
    record: {
      seats: tied.map((racer) => plan.racers[racer] as number),
      card: step.best[tied[0] as number] as Card,
      chips: sure,
      halfChip: positions.includes('half'),
      all,
      rounds: [],
      winners: null,
    },
  };
}

/** The outcome of the round `drawing` just drew in `tie`, from the ranking after it; the tie's winners once it is broken. */
function settleRound(state: RaceState, tie: OpenTie, drawing: readonly number[], step: TieBreakStep): TieBreakOutcome {
  const { plan, setup } = state;
  const { start, end, stillTied } = standing(state, tie.racers, step);
  const seat = (racer: number) => plan.racers[racer] as number;
  const drew = new Set(drawing);
  const won: number[] = [];
  const winners: number[] = [];
  for (let index = start; index < end; index += 1) {
    const racer = step.ranking[index] as number;
    if (stillTied.has(racer) || !winsRanked(setup, plan, step.ranking, index)) continue;
    winners.push(seat(racer));
    if (drew.has(racer)) won.push(seat(racer));
  }
  if (stillTied.size === 0) tie.record.winners = winners;
  return { won, tied: drawing.filter((racer) => stillTied.has(racer)).map(seat) };
}

/**
 * Every tie-break of the race, in the order the ties were broken: which seats were tied on which
 * card, what their order decided, the card each drew per round and what each round settled. Read
 * from the cards exactly as the race decides them; a tie of identical cards that decides nothing
 * is not a tie-break and is not listed. Empty while the race deal is under way.
 */
export function raceTieBreaks(state: RaceState): TieBreak[] {
  const { progress, cards } = state;
  if (progress.status === 'dealing') return [];
  if (progress.status === 'complete' && !cards.some((card) => card.round > 0)) return [];
  const ties: OpenTie[] = [];
  let open: { tie: OpenTie; round: TieBreakRound; drawing: readonly number[] } | null = null;
  traceTieBreaks(state, (step) => {
    if (open !== null) {
      const { tie, round, drawing } = open;
      tie.record.rounds[tie.record.rounds.length - 1] = { ...round, outcome: settleRound(state, tie, drawing, step) };
      open = null;
    }
    const tied = step.tied;
    if (tied === null) return;
    let tie = ties.find((entry) => entry.record.winners === null && entry.racers.includes(tied[0] as number));
    if (tie === undefined) {
      tie = openTie(state, step, tied);
      ties.push(tie);
    }
    const drawn: TieBreakDraw[] = [];
    tied.forEach((racer, index) => {
      const dealt = cards[step.first + index];
      if (dealt !== undefined) drawn.push({ seat: state.plan.racers[racer] as number, card: dealt.card });
    });
    const round: TieBreakRound = { round: step.round, seats: tied.map((racer) => state.plan.racers[racer] as number), cards: drawn, outcome: null };
    tie.record.rounds.push(round);
    open = { tie, round, drawing: tied };
  });
  return ties.map((tie) => tie.record);
}
