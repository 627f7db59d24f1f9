import { useI18n } from 'vue-i18n';
import type { ChipExchange, ChipExchangeResult } from '../../engine/race/exchange';
import { useNumberText } from './numberText';

/**
 * Chips exchanged outside a race in the dealer's language: what an exchange gives, as the form
 * shows it before it is recorded and the record slip after (`1 × 100 given, 1 × 25 taken off (−25)`).
 */
export function useExchangeText() {
  const { t } = useI18n();
  const { deltaText, localParams } = useNumberText();

  function givesText(exchange: Pick<ChipExchange, 'removed' | 'next'>, result: ChipExchangeResult): string {
    const params = { ...localParams({ given: result.given, next: exchange.next, lost: result.lost, removed: exchange.removed }), delta: deltaText(result.valueDelta) };
    return result.lost === 0 ? t('exchange.gives', params) : t('exchange.givesTakesOff', params);
  }

  return { givesText };
}
