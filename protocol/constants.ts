/**
 * The facts station/ and renderer/ both need, once: the languages, the card sources, the limits the
 * service's validation enforces and the screens' fields announce (maxlength, max), and the serial
 * line's choices (kept by hardware/lineSettings.ts, a pure file of hardware/ that protocol/ may
 * import values from: see SHARED_HARDWARE in scripts/eslint-layers.js). contract.ts re-exports
 * them with the types they make.
 */

export { DATA_BITS, PARITIES, STOP_BITS } from '../hardware/lineSettings';

export const API_KEY = 'chipRace';

export const APP_NAME = 'Chip Race Console';

export const SOURCE_KINDS = ['manual', 'serial', 'simulator'] as const;

export const LANGUAGES = ['en', 'fi', 'ru'] as const;

/** Seats 1 … MAX_SEATS. */
export const MAX_SEATS = 10;

/** The most races one history page holds. */
export const HISTORY_PAGE_MAX = 100;

/** The most decks a shoe holds (the table's `decks`): the engine's. */
export { MAX_DECKS } from '../engine/shoe';

/** The longest name: a seat's, the dealer's, a player's, a device profile's. */
export const NAME_MAX = 40;

/** The longest table name or number (`Table 7`, `F3`): printed on the records, read by the floor. */
export const TABLE_NAME_MAX = 32;

/** The longest reason given for a void, an abandoned race or a closed game. */
export const REASON_MAX = 200;

/** The longest card code a screen may send (the service reads what it means). */
export const CARD_CODE_MAX = 32;

/**
 * The device profile a keyboard-wedge scanner's text is decoded with when the settings choose none
 * for it (a settings file from before they could): card codes as text, whatever the shoe's profile.
 */
export const DEFAULT_SCANNER_PROFILE = 'text';

/** The longest burst a keyboard-wedge scanner may type into one scan. */
export const SCAN_MAX = 256;

/** The most chips one seat may count into a race. */
export const SEAT_CHIPS_MAX = 100_000;

/** The most cards one void takes back. */
export const VOID_MAX = 1000;

/** A points game's players: from PLAYERS_MIN to PLAYERS_MAX. */
export const PLAYERS_MIN = 2;
export const PLAYERS_MAX = 6;

/** The most cards one discard of a points game names. */
export const DISCARD_MAX = 5;

/** The largest device profile file the console imports (its JSON, in characters). */
export const PROFILE_MAX_CHARS = 64 * 1024;
