import { ref, watch } from 'vue';

/** Screen-only preferences of this station (not the service's settings): kept in localStorage. */
const FOUR_COLOUR_KEY = 'chip-race-console:four-colour';

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
const fourColour = ref(read(FOUR_COLOUR_KEY) === 'true');
watch(fourColour, (value) => write(FOUR_COLOUR_KEY, String(value)));

export function usePreferences() {
  return { fourColour };
}
