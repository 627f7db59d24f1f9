import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import { useConsoleStore } from '../stores/console';
import { useTimeText } from './timeText';

/**
 * The dealer's call of the floor not yet answered, as the station says it ("Floor called at 21:02
 * (note): waiting for the director's decision"), in the screen's language; null when there is none.
 * The counts screen's notice shows it, and the "Floor called" button gives it as its title.
 */
export function useFloorCalledLine(): ComputedRef<string | null> {
  const store = useConsoleStore();
  const { t } = useI18n();
  const { clockTime } = useTimeText();
  return computed(() => {
    const called = store.state?.floorCalls.called ?? null;
    if (called === null) return null;
    return called.note === '' ? t('floorCall.called', { time: clockTime(called.at) }) : t('floorCall.calledNote', { time: clockTime(called.at), note: called.note });
  });
}
