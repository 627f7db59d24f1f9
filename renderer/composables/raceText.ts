import { useI18n, type NamedValue } from 'vue-i18n';
import { formatCard, type Card } from '../../engine/cards';
import { PROTECTION_RULES } from '../../engine/race/roundings';
import type { RuleSetName } from '../../engine/race/rules';
import type { RaceSummary } from '../../engine/race/summary';
import { useNumberText } from './numberText';
import { useSaidText } from './saidText';

export type Names = Readonly<Record<number, string>>;
type Exchange = RaceSummary['exchange'][number];

/** `A♠`, `10♦`: how every screen shows a card. */
export function cardText(card: Card): string {
  return formatCard(card, 'pips');
}

/**
 * The race's words in the dealer's language. The next step and the explanation are the engine's
 * own messages (`summary.said`), said with `useSaidText`; this adds the screens' seat labels and
 * the counts screen's guidance.
 */
export function useRaceText() {
  const { t: translate } = useI18n();
  const saidText = useSaidText();
  const { localParams } = useNumberText();

  /** The screens' words with their numbers written the language's way (`2 500` in Finnish). */
  function t(key: string, named?: NamedValue, plural?: number): string {
    if (named === undefined) return translate(key);
    return plural === undefined ? translate(key, localParams(named)) : translate(key, localParams(named), plural);
  }

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

  /** "Deal 3 cards to seat 1 — Matti", the tie-break variant, or what to do with the result: the engine's next step. */
  function nextStep(summary: RaceSummary): string {
    return saidText(summary.said.nextStep);
  }

  /** One line per decision, tie-breaks included: the engine's explanation in the dealer's language. */
  function explanation(summary: RaceSummary): string[] {
    return summary.said.explanation.map(saidText);
  }

  /** Counts-screen guidance for one seat: "Trade 4 × 25 for 1 × 100, keep 3 odd". */
  function guidance(row: Exchange, summary: RaceSummary): string {
    const params = { removed: summary.removed, next: summary.next, up: row.up, odd: row.odd, traded: row.up * summary.ratio };
    if (row.up > 0 && row.odd > 0) return t('counts.guide.tradeKeep', params);
    if (row.up > 0) return t('counts.guide.tradeOnly', params);
    if (row.odd > 0) return t('counts.guide.keepOnly', params);
    return t('counts.guide.nothing', params);
  }

  /** Why a seat is protected, as the rule set's protection says it. */
  function protectionText(summary: RaceSummary): string {
    return saidText({ key: PROTECTION_RULES[summary.settings.protection].guidance, params: { next: summary.next } });
  }

  /**
   * Whether the house protects after the race (TDA: anyone raced out gets one chip afterwards)
   * rather than before it: the screens then say what the rule did, never "cannot be raced out" of
   * a player who was dealt in and raced out (issue 24).
   */
  function protectsAfterRace(summary: RaceSummary): boolean {
    return !PROTECTION_RULES[summary.settings.protection].before;
  }

  return { t, seatLabel, seatList, ruleName, nextStep, guidance, protectionText, protectsAfterRace, explanation };
}
