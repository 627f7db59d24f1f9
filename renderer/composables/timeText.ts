import { computed } from 'vue';
import { useI18n } from 'vue-i18n';

/** When a race or a game was recorded, and when an input was read, as the screens show them: in the screen's language. */
export function useTimeText() {
  const { locale } = useI18n();
  const format = computed(() => new Intl.DateTimeFormat(locale.value, { dateStyle: 'short', timeStyle: 'short' }));
  const clock = computed(() => new Intl.DateTimeFormat(locale.value, { timeStyle: 'medium' }));
  const hours = computed(() => new Intl.DateTimeFormat(locale.value, { timeStyle: 'short' }));

  /** A moment in one of the formats; text that is no time is shown as it is. */
  function said(at: string | number, formatter: Intl.DateTimeFormat): string {
    const date = new Date(at);
    return Number.isNaN(date.getTime()) ? String(at) : formatter.format(date);
  }

  /** A journal time (ISO 8601) for reading; text that is no time is shown as it is. */
  function recordedAt(iso: string): string {
    return said(iso, format.value);
  }

  /** The time of day to the second (an input read: ISO 8601, or milliseconds since 1970); text that is no time as it is. */
  function readAt(at: string | number): string {
    return said(at, clock.value);
  }

  /** The time of day to the minute (a call, a decision, a result kept on the display); text that is no time as it is. */
  function clockTime(iso: string): string {
    return said(iso, hours.value);
  }

  return { recordedAt, readAt, clockTime };
}
