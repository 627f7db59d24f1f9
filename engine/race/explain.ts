import type { ListParam, Message, MessageKey, MessageParam } from '../messages';
import { seatOf } from './next';
import type { RaceState } from './race';
import { PROTECTION_RULES, ROUNDING_RULES } from './roundings';
import { RULE_NAMES, takesAll } from './rules';
import { raceTieBreaks, type TieBreak, type TieBreakRound } from './tiebreaks';

type SeatsOf = (seats: readonly number[]) => ListParam;

/**
 * What the tie's order decided: the last chip(s), and under next-player-half the next player's
 * chance; under high-card-takes-all every chip (a tie for the best card), or whether one more is raced.
 */
function stakeOf(tie: TieBreak, next: number, ratio: number, all: boolean): Message {
  const params = { next, chips: tie.chips, n: tie.chips, half: ratio / 2 };
  if (all) return tie.all ? { key: 'race.explain.tie.stakeAll', params: { next } } : { key: 'race.explain.tie.stakeOneMore', params: { next, half: ratio / 2 } };
  if (!tie.halfChip) return { key: 'race.explain.tie.stakeLast', params };
  return tie.chips === 0 ? { key: 'race.explain.tie.stakeHalf', params } : { key: 'race.explain.tie.stakeLastHalf', params };
}

function roundOf(state: RaceState, round: TieBreakRound, earlierWinners: boolean, seatsOf: SeatsOf): Message {
  const draws: Message[] = round.cards.map(({ seat, card }) => ({ key: 'race.explain.tie.draws', params: { seat: seatOf(state, seat), card: { card } } }));
  if (round.outcome === null) {
    const waiting = round.seats.filter((seat) => !round.cards.some((draw) => draw.seat === seat));
    if (waiting.length > 0) draws.push({ key: 'race.explain.tie.toDraw', params: { seats: seatsOf(waiting) } });
    return { key: 'race.explain.tie.roundOpen', params: { round: round.round, draws: { items: draws, join: ',' } } };
  }
  const { won, tied } = round.outcome;
  const parts: Message[] = [];
  if (won.length > 0) parts.push({ key: 'race.explain.tie.wins', params: { seats: seatsOf(won), n: won.length } });
  if (tied.length > 0) parts.push(tied.length === round.seats.length ? { key: 'race.explain.tie.allStillTied' } : { key: 'race.explain.tie.stillTied', params: { seats: seatsOf(tied) } });
  if (parts.length === 0) parts.push({ key: earlierWinners ? 'race.explain.tie.nobodyElseWins' : 'race.explain.tie.nobodyWins' });
  return { key: 'race.explain.tie.round', params: { round: round.round, draws: { items: draws, join: ',' }, outcome: { items: parts, join: ';' } } };
}

/**
 * `Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 draws 9♥,
 * seat 7 draws 4♣ → seat 3 wins`: one line per tie, every round in it.
 */
function tieBreakLine(state: RaceState, tie: TieBreak, seatsOf: SeatsOf): Message {
  const { next } = state.setup;
  const parts: Message[] = [
    {
      key: tie.seats.length === 2 ? 'race.explain.tie.two' : 'race.explain.tie.many',
      params: { seats: seatsOf(tie.seats), card: { card: tie.card }, stake: { message: stakeOf(tie, next, state.plan.ratio, takesAll(state.setup.settings)) } },
    },
  ];
  let winnersSoFar = 0;
  for (const round of tie.rounds) {
    parts.push(roundOf(state, round, winnersSoFar > 0, seatsOf));
    winnersSoFar += round.outcome?.won.length ?? 0;
  }
  return { key: 'race.explain.tie.line', params: { parts: { items: parts, join: ';' } } };
}

/**
 * The race's reasoning, one message per decision, so a floor supervisor can follow how the outcome
 * came about: the screens say it in the dealer's language, the command line in English. Each
 * rounding and protection says its own part (roundings.ts).
 */
export function explainRace(state: RaceState, tiebreaks: readonly TieBreak[] = raceTieBreaks(state)): Message[] {
  const { setup, plan, progress } = state;
  const { removed, next } = setup;
  const rounding = ROUNDING_RULES[setup.settings.rounding];
  const protection = PROTECTION_RULES[setup.settings.protection];
  const seat = (number: number) => seatOf(state, number, true);
  const seatsOf: SeatsOf = (seats) => ({ items: seats.map((number) => ({ key: 'race.next.seat', params: { seat: seatOf(state, number) } })), join: 'and' });
  const name = (key: MessageKey): { message: Message } => ({ message: { key } });
  const lines: Message[] = [
    {
      key: 'race.explain.rules',
      params: {
        rules: name(RULE_NAMES.rules[setup.rules]),
        rounding: name(RULE_NAMES.rounding[setup.settings.rounding]),
        dealStart: name(RULE_NAMES.dealStart[setup.settings.dealStart]),
        protection: name(RULE_NAMES.protection[setup.settings.protection]),
        k: plan.ratio,
        removed,
        next,
      },
    },
  ];
  for (const row of plan.exchange) {
    if (row.up === 0 && row.odd === 0) continue;
    const params = { seat: seat(row.seat), traded: row.up * plan.ratio, removed, up: row.up, next, odd: row.odd };
    const key = row.up > 0 ? 'race.explain.trade' : 'race.explain.keep';
    lines.push({ key: row.broke ? `${key}Broke` : key, params });
  }
  // The award after the rules (the rules line is every race's, in every record: it stays as it was).
  const all = takesAll(setup.settings);
  if (all) lines.push({ key: 'race.explain.highCardTakesAll' });
  else if (setup.settings.award === 'high-card-takes-all') lines.push({ key: 'race.explain.highCardTakesAllNotRaced' });
  if (protection.before) for (const number of plan.protectedBefore) lines.push(protection.explain(seat(number), next, plan.ratio));
  lines.push(rounding.explainPool({ poolChips: plan.poolChips, ratio: plan.ratio, removed, next }));
  if (plan.deal.length === 0) lines.push({ key: 'race.explain.noCards' });
  else {
    const runs: Message[] = plan.deal.map((run) => ({ key: 'race.explain.run', params: { seat: seatOf(state, run.seat), cards: run.cards } }));
    lines.push({ key: 'race.explain.deal', params: { n: plan.cardsNeeded, runs: { items: runs, join: ',' } } });
  }
  for (const tie of tiebreaks) lines.push(tieBreakLine(state, tie, seatsOf));
  if (progress.status === 'complete') {
    const { result } = progress;
    if (all && result.awards.length > 0) {
      const [first] = result.winningCards;
      const params = { seat: seat(result.awards[0] as number), next, n: result.awards.length };
      lines.push(first === undefined ? { key: 'race.explain.getsAll', params } : { key: 'race.explain.takesAll', params: { ...params, card: { card: first.card } } });
    } else {
      for (const win of result.winningCards) lines.push({ key: 'race.explain.wins', params: { seat: seat(win.seat), next, card: { card: win.card } } });
      if (result.winningCards.length === 0) for (const number of result.awards) lines.push({ key: 'race.explain.gets', params: { seat: seat(number), next } });
    }
    if (!protection.before) for (const number of result.protected) lines.push(protection.explain(seat(number), next, plan.ratio));
    const delta = `${result.valueDelta >= 0 ? '+' : ''}${result.valueDelta}`;
    lines.push({ key: 'race.explain.value', params: { given: (result.raceChips + result.protected.length) * next, removed: plan.oddChips * removed, delta } });
  }
  for (const correction of state.corrections) {
    const params = { card: { card: correction.voided.card }, seat: seatOf(state, correction.voided.seat), reason: voidReasonParam(correction.reason) };
    lines.push({ key: correction.reason === '' ? 'race.explain.voided' : 'race.explain.voidedWhy', params });
  }
  return lines;
}

/** What the Backspace key and the console's void buttons give as a void's reason (the journal's words: English, as written). */
export const MANUAL_VOID_REASON = 'manual correction';

/** A void's reason as a message says it: the console's own in the reader's language, the dealer's as typed. */
export function voidReasonParam(reason: string): MessageParam {
  return reason === MANUAL_VOID_REASON ? { message: { key: 'race.explain.manualCorrection' } } : reason;
}
