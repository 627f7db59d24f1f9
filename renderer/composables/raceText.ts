import { useI18n } from 'vue-i18n';
import { formatCard, type Card } from '../../engine/cards';
import { isPooledRounding, type RuleSetName } from '../../engine/race/rules';
import type { RaceSummary } from '../../engine/race/summary';

export type Names = Readonly<Record<number, string>>;
type Exchange = RaceSummary['exchange'][number];
type TieBreak = RaceSummary['tiebreaks'][number];

/** `+25`, `-25`, `0`: the value a race created or removed. */
export function formatDelta(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** `A♠`, `10♦`: how every screen shows a card. */
export function cardText(card: Card): string {
  return formatCard(card, 'pips');
}

/** Removed chips per new chip (k = next / removed). */
export function ratioOf(summary: Pick<RaceSummary, 'removed' | 'next'>): number {
  return summary.removed > 0 ? Math.round(summary.next / summary.removed) : 0;
}

/** Cards of the main deal dealt so far (tie-break cards are counted apart). */
export function mainDealCount(summary: RaceSummary): number {
  return summary.cards.filter((card) => card.round === 0).length;
}

/**
 * The tie-break round being dealt while the race waits for tie-break cards (the seat awaited gets
 * one card per round, so it is one past that seat's last round); otherwise the highest round
 * reached, 0 when none.
 */
export function tiebreakRound(summary: RaceSummary): number {
  const highest = (cards: RaceSummary['cards']) => cards.reduce((round, card) => Math.max(round, card.round), 0);
  const awaiting = summary.awaiting;
  if (summary.status !== 'tiebreak' || awaiting === null) return highest(summary.cards);
  return highest(summary.cards.filter((card) => card.seat === awaiting.seat)) + 1;
}

/**
 * The race in the dealer's language, built from the summary's data (the summary's own `nextStep`
 * and `explanation` are the English audit text).
 */
export function useRaceText() {
  const { t } = useI18n();

  /** "Seat 1 — Matti" on its own; "seat 1 — Matti" inside a sentence (`inText`). */
  function seatLabel(seat: number, names: Names, inText = false): string {
    const name = names[seat] ?? '';
    if (inText) return name === '' ? t('common.seatInText', { seat }) : t('common.seatNamedInText', { seat, name });
    return name === '' ? t('common.seat', { seat }) : t('common.seatNamed', { seat, name });
  }

  function seatList(seats: readonly number[], names: Names): string {
    return seats.map((seat) => seatLabel(seat, names)).join(', ');
  }

  function ruleName(rules: RuleSetName | string): string {
    return t(`rules.${rules}.name`);
  }

  /** "Deal 3 cards to seat 1 — Matti", the tie-break variant, or what to do with the result. */
  function nextStep(summary: RaceSummary, names: Names): string {
    const { awaiting } = summary;
    if (summary.status !== 'complete' && awaiting !== null) {
      const key = summary.status === 'tiebreak' ? 'dealing.next.tiebreak' : 'dealing.next.deal';
      return t(key, { cards: awaiting.cards, seat: seatLabel(awaiting.seat, names, true) }, awaiting.cards);
    }
    const given = summary.awards.length + summary.protected.length;
    return given === 0
      ? t('result.next.noChips', { next: summary.next, removed: summary.removed })
      : t('result.next.award', { next: summary.next, removed: summary.removed });
  }

  /** Counts-screen guidance for one seat: "Trade 4 × 25 for 1 × 100, keep 3 odd". */
  function guidance(row: Exchange, summary: RaceSummary): string {
    const params = { removed: summary.removed, next: summary.next, up: row.up, odd: row.odd, traded: row.up * ratioOf(summary) };
    if (row.up > 0 && row.odd > 0) return t('counts.guide.tradeKeep', params);
    if (row.up > 0) return t('counts.guide.tradeOnly', params);
    if (row.odd > 0) return t('counts.guide.keepOnly', params);
    return t('counts.guide.nothing', params);
  }

  /** Why a seat is protected, as the rule set handles it. */
  function protectionText(summary: RaceSummary): string {
    switch (summary.settings.protection) {
      case 'exempt':
        return t('counts.guide.exempt', { next: summary.next });
      case 'first-from-pool':
        return t('counts.guide.servedFirst', { next: summary.next });
      default:
        return t('counts.guide.afterRace', { next: summary.next });
    }
  }

  /** `seat 1 — Matti`, `seat 1 and seat 3`, `seat 1, seat 2 and seat 3` (inside a sentence). */
  function seatsInText(seats: readonly number[], names: Names): string {
    const labels = seats.map((seat) => seatLabel(seat, names, true));
    if (labels.length <= 1) return labels.join('');
    return t('explain.tiebreak.and', { list: labels.slice(0, -1).join(', '), last: labels[labels.length - 1] });
  }

  /** What the tie's order decided: the last chip(s), and under next-player-half the next player's chance. */
  function stakeText(tie: TieBreak, summary: RaceSummary): string {
    const params = { next: summary.next, chips: tie.chips, half: ratioOf(summary) / 2 };
    if (!tie.halfChip) return t('explain.tiebreak.stakeLast', params, tie.chips);
    if (tie.chips === 0) return t('explain.tiebreak.stakeHalf', params);
    return t('explain.tiebreak.stakeLastHalf', params, tie.chips);
  }

  /** One round: the card each tied seat drew and what it settled (or who is still to draw). */
  function tieBreakRound(round: TieBreak['rounds'][number], names: Names, earlierWinners: boolean): string {
    const draws = round.cards.map(({ seat, card }) => t('explain.tiebreak.draws', { seat: seatLabel(seat, names, true), card: cardText(card) }));
    const { outcome } = round;
    if (outcome === null) {
      const waiting = round.seats.filter((seat) => !round.cards.some((draw) => draw.seat === seat));
      if (waiting.length > 0) draws.push(t('explain.tiebreak.toDraw', { seats: seatsInText(waiting, names) }));
      return t('explain.tiebreak.roundOpen', { round: round.round, draws: draws.join(', ') });
    }
    const parts: string[] = [];
    if (outcome.won.length > 0) parts.push(t('explain.tiebreak.wins', { seats: seatsInText(outcome.won, names) }, outcome.won.length));
    if (outcome.tied.length === round.seats.length) parts.push(t('explain.tiebreak.allStillTied'));
    else if (outcome.tied.length > 0) parts.push(t('explain.tiebreak.stillTied', { seats: seatsInText(outcome.tied, names) }));
    if (parts.length === 0) parts.push(earlierWinners ? t('explain.tiebreak.nobodyElseWins') : t('explain.tiebreak.nobodyWins'));
    return t('explain.tiebreak.round', { round: round.round, draws: draws.join(', '), outcome: parts.join('; ') });
  }

  /** "Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: …": one line per tie. */
  function tieBreakLine(tie: TieBreak, summary: RaceSummary, names: Names): string {
    const params = { seats: seatsInText(tie.seats, names), card: cardText(tie.card), stake: stakeText(tie, summary) };
    const parts = [tie.seats.length === 2 ? t('explain.tiebreak.tieTwo', params) : t('explain.tiebreak.tieMany', params)];
    let winners = 0;
    for (const round of tie.rounds) {
      parts.push(tieBreakRound(round, names, winners > 0));
      winners += round.outcome?.won.length ?? 0;
    }
    return parts.join('; ');
  }

  /** The tie-breaks of the race (several decks), one line per tie, as the explanation shows them. */
  function tieBreakLines(summary: RaceSummary, names: Names): string[] {
    return summary.tiebreaks.map((tie) => tieBreakLine(tie, summary, names));
  }

  /** One line per decision, in the dealer's language. */
  function explanation(summary: RaceSummary, names: Names, corrections: number): string[] {
    const k = ratioOf(summary);
    const { removed, next } = summary;
    const lines = [t('explain.rules', { rules: ruleName(summary.rules), k, removed, next })];
    for (const row of summary.exchange) {
      if (row.up === 0 && row.odd === 0) continue;
      const seat = seatLabel(row.seat, names);
      lines.push(
        row.up > 0
          ? t('explain.trade', { seat, traded: row.up * k, removed, up: row.up, next, odd: row.odd })
          : t('explain.keep', { seat, next, odd: row.odd, removed }),
      );
    }
    const protection = summary.settings.protection;
    if (protection !== 'after-race') {
      for (const seat of summary.protected) {
        lines.push(t(protection === 'exempt' ? 'explain.exempt' : 'explain.servedFirst', { seat: seatLabel(seat, names), next, k }));
      }
    }
    const rounding = summary.settings.rounding;
    if (isPooledRounding(rounding)) {
      const chips = summary.raceChipsRange.min;
      lines.push(t('explain.pool', { chips: summary.pool.chips, removed, value: summary.pool.value, n: chips }, chips));
    } else if (rounding === 'next-player-half') {
      lines.push(t('explain.poolHalf', { chips: summary.pool.chips, k, half: k / 2 }));
    } else {
      lines.push(t('explain.perPlayer', { half: next / 2, next }));
    }
    if (summary.deal.length === 0) {
      lines.push(t('explain.noCards'));
    } else {
      const runs = summary.deal.map((run) => t('explain.run', { seat: seatLabel(run.seat, names, true), cards: run.cards })).join(', ');
      lines.push(t('explain.deal', { n: summary.cardsNeeded, runs }, summary.cardsNeeded));
    }
    lines.push(...tieBreakLines(summary, names));
    if (summary.status === 'complete') {
      for (const { seat, card } of summary.winningCards) lines.push(t('explain.wins', { seat: seatLabel(seat, names), next, card: cardText(card) }));
      if (summary.winningCards.length === 0) for (const seat of summary.awards) lines.push(t('explain.gets', { seat: seatLabel(seat, names), next }));
      if (protection === 'after-race') for (const seat of summary.protected) lines.push(t('explain.racedOut', { seat: seatLabel(seat, names), next }));
      if (summary.valueDelta !== null) {
        const given = ((summary.raceChips ?? summary.awards.length) + summary.protected.length) * next;
        lines.push(t('explain.value', { given, removed: summary.oddChips * removed, delta: formatDelta(summary.valueDelta) }));
      }
    }
    if (corrections > 0) lines.push(t('explain.corrections', { n: corrections }, corrections));
    return lines;
  }

  return { t, seatLabel, seatList, ruleName, nextStep, guidance, protectionText, explanation, tieBreakLines };
}
