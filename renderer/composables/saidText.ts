import { useI18n } from 'vue-i18n';
import { ENGINE_CATALOGS, formatMessage, type Message } from '../../engine/messages';
import { isLocale } from '../i18n';

/**
 * What the engine (or the service) said, as a key and its parameters, in the dealer's language:
 * cards as cards (A♥), seats, lists and numbers (2 500) as the language has them. The same catalogs render the
 * command line's English, so a refusal reads the same everywhere.
 */
export function useSaidText() {
  const { locale } = useI18n();
  return function saidText(message: Message): string {
    const language = isLocale(locale.value) ? locale.value : 'en';
    return formatMessage(message, language, ENGINE_CATALOGS[language], { numbers: 'grouped' });
  };
}
