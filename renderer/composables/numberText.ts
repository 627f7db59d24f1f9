import { useI18n } from 'vue-i18n';
import { groupedDelta, groupedNumber } from '../../engine/messages';

/**
 * Numbers as the station's language writes them (`2,500` in English, `2 500` in Finnish and
 * Russian): the screens' own words pass their number parameters through here, the engine's words
 * through the same rule (engine/messages `groupedNumber`).
 */
export function useNumberText() {
  const { locale } = useI18n();

  function numberText(value: number): string {
    return groupedNumber(value, locale.value);
  }

  /** `+25`, `−2 500`, `0`: the value a race created or removed, signed. */
  function deltaText(value: number): string {
    return groupedDelta(value, locale.value);
  }

  /** The parameters of a screen's message with every number written the language's way (plural choice stays with the count). */
  function localParams<Params extends Record<string, unknown>>(params: Params): Params {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(params)) out[name] = typeof value === 'number' ? numberText(value) : value;
    return out as Params;
  }

  return { numberText, deltaText, localParams };
}
