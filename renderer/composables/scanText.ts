import { useI18n } from 'vue-i18n';
import { parseCard, type Card } from '../../engine/cards';
import type { ScanAway, ScanPlace, ScanRefusal } from '../stores/scans';
import { cardText } from './raceText';
import { useSaidText } from './saidText';

/** AIM symbology identifiers (`]E0`, `]C1` …) a barcode reader may put before the data, as the service strips them. */
const SYMBOLOGY_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;

/**
 * The card a scan names in the plain notations (`KC`, `Kc`, `10h`, `]E0KC`), or null: how a scan
 * the service never decoded (one made away from the deal, see ScanAway) is labelled.
 */
export function scannedCard(raw: string): Card | null {
  return parseCard(raw.trim().replace(SYMBOLOGY_PREFIX, '').trim());
}

/** What the dealer is told about a scan: a refused one in the next-step headline, one not dealt in a banner. */
export function useScanText() {
  const { t } = useI18n();
  const saidText = useSaidText();

  /** `K♣` for a card; the scanned text in quotes for anything else (a scan away from the deal: see scannedCard). */
  function scannedLabel(raw: string): string {
    const card = scannedCard(raw);
    return card !== null ? cardText(card) : t('scan.quoted', { text: raw.trim() });
  }

  /**
   * "Scanned A♥ not accepted: A♥ was already dealt (to seat 1) …" — the headline's first line after a
   * refused scan (or card from the shoe), with the engine's reason in the dealer's language when it gave one.
   */
  function refusedText(refusal: ScanRefusal): string {
    // The card the service decoded (a shoe's card is already one; a scan's, by the scanner's profile), never a reading of its own.
    const card = parseCard(refusal.from === 'shoe' ? refusal.raw : (refusal.error.card ?? ''));
    const shoe = refusal.from === 'shoe';
    const said = refusal.error.said;
    if (card !== null && said !== undefined) return t(shoe ? 'scan.refused.shoeCardWhy' : 'scan.refused.cardWhy', { card: cardText(card), reason: saidText(said) });
    if (card !== null) return t(shoe ? 'scan.refused.shoeCard' : 'scan.refused.card', { card: cardText(card) });
    // No card: the text as read, quoted (a notation the profile refused is no card, however it reads elsewhere).
    return t(shoe ? 'scan.refused.shoeText' : 'scan.refused.text', { text: t('scan.quoted', { text: refusal.raw.trim() }) });
  }

  /** Why a scan was not dealt (where it came), then what to do now (where the dealer is now). */
  function awayText(away: ScanAway, now: ScanPlace): string {
    const card = scannedLabel(away.raw);
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

  return { scannedLabel, refusedText, awayText };
}
