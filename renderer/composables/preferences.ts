import { ref, watch } from 'vue';

/** Screen-only preferences of this station (not the service's settings): kept in localStorage. */
const FOUR_COLOR_KEY = 'chip-race-console:four-colour';
const SOUND_KEY = 'chip-race-console:sound';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode, file:// in some browsers): the choice lasts this session.
  }
}

/** Four-colour deck: diamonds blue and clubs green, so no suit relies on red/black alone. */
const fourColor = ref(read(FOUR_COLOR_KEY) === 'true');
watch(fourColor, (value) => write(FOUR_COLOR_KEY, String(value)));

/** A short tone for every card read (one for a card taken, another for one refused): on unless turned off. */
const sound = ref(read(SOUND_KEY) !== 'false');
watch(sound, (value) => write(SOUND_KEY, String(value)));

export function usePreferences() {
  return { fourColor, sound };
}
