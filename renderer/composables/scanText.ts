import { useI18n } from 'vue-i18n';
import { parseCard } from '../../engine/cards';
import type { ScanAway, ScanPlace, ScanRefusal } from '../stores/scans';
import { cardText } from './raceText';
import { useSaidText } from './saidText';

/** The headline's words for a refused read, by where it came from: a card with the reason, a card, text that is no card. */
const REFUSED_KEYS = {
  shoe: { why: 'scan.refused.shoeCardWhy', card: 'scan.refused.shoeCard', text: 'scan.refused.shoeText' },
  scan: { why: 'scan.refused.cardWhy', card: 'scan.refused.card', text: 'scan.refused.text' },
  typed: { why: 'scan.refused.typedCardWhy', card: 'scan.refused.typedCard', text: 'scan.refused.typedText' },
} as const;

/** What the dealer is told about a scan: a refused one in the next-step headline, one not dealt in a banner. */
export function useScanText() {
  const { t } = useI18n();
  const saidText = useSaidText();

  /** `K♣` for the card the service read a scan away from the deal as; the scanned text in quotes for anything else. */
  function awayLabel(away: ScanAway): string {
    return away.card !== null ? cardText(away.card) : t('scan.quoted', { text: away.raw.trim() });
  }

  /**
   * "Scanned A♥ not accepted: A♥ was already dealt (to seat 1) …" — the headline's first line after a
   * refused scan (or card from the shoe), with the engine's reason in the dealer's language when it gave one.
   */
  function refusedText(refusal: ScanRefusal): string {
    // The card the service decoded (a shoe's card is already one; a scan's, by the scanner's profile), never a reading of its own.
    // A typed card is read as the entry reads it; a scan's by the scanner's profile (the service's reading).
    const card = parseCard(refusal.from === 'scan' ? (refusal.error.card ?? '') : refusal.raw);
    const said = refusal.error.said;
    const keys = REFUSED_KEYS[refusal.from];
    if (card !== null && said !== undefined) return t(keys.why, { card: cardText(card), reason: saidText(said) });
    if (card !== null) return t(keys.card, { card: cardText(card) });
    // No card: the text as read, quoted (a notation the profile refused is no card, however it reads elsewhere).
    return t(keys.text, { text: t('scan.quoted', { text: refusal.raw.trim() }) });
  }

  /** Why a scan was not dealt (where it came), then what to do now (where the dealer is now). */
  function awayText(away: ScanAway, now: ScanPlace): string {
    const card = awayLabel(away);
    const what =
      away.place === 'counts'
        ? t('scan.away.counts', { card })
        : away.place === 'elsewhere'
          ? t('scan.away.elsewhere', { card })
          : t('scan.away.closed', { card });
    const next =
      now === 'deal'
        ? t('scan.again.now')
        : now === 'counts'
          ? t('scan.again.counts')
          : now === 'elsewhere'
            ? t('scan.again.elsewhere')
            : t('scan.again.closed');
    return `${what} ${next}`;
  }

  return { refusedText, awayText };
}
