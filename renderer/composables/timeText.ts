import { computed } from 'vue';
import { useI18n } from 'vue-i18n';

/** When a race or a game was recorded, as the screens show it: short date and time in the screen's language. */
export function useTimeText() {
  const { locale } = useI18n();
  const format = computed(() => new Intl.DateTimeFormat(locale.value, { dateStyle: 'short', timeStyle: 'short' }));

  /** A journal time (ISO 8601) for reading; text that is no time is shown as it is. */
  function recordedAt(iso: string): string {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.value.format(date);
  }

  return { recordedAt };
}
