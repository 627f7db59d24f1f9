import type { ConsoleState, StateMessage } from './contract';

/**
 * The state's parts and their patches, on both sides of every transport: main makes a patch of the
 * parts that changed (main/ipc/stateFeed), the preload and the page merge it back (here, once).
 */

/** Every part a state has (the type makes this list whole); a patch naming anything else is not from the console service. */
const STATE_PARTS: { readonly [Part in keyof ConsoleState]-?: true } = {
  settings: true,
  race: true,
  source: true,
  lastInput: true,
  inputs: true,
  shoeRefusal: true,
  history: true,
  held: true,
  profiles: true,
  registration: true,
  game: true,
  games: true,
  plan: true,
  colorUp: true,
  journal: true,
  countDrafts: true,
  clock: true,
  floorLink: true,
};
const STATE_KEYS: ReadonlySet<string> = new Set(Object.keys(STATE_PARTS));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is a pushed state message a page (or a preload) can take. */
export function isStateMessage(value: unknown): value is StateMessage {
  if (!isObject(value)) return false;
  if (value.type === 'state') return isObject(value.state) && Object.keys(value.state).every((key) => STATE_KEYS.has(key));
  if (value.type === 'patch') return isObject(value.patch) && Object.keys(value.patch).every((key) => STATE_KEYS.has(key));
  return false;
}

/**
 * The parts of `next` that are not the very same objects as in `previous`. The service hands out
 * an unchanged part as the same object (ConsoleService.getState), so a card changes the race and
 * the last input, and the history, settings and plan stay behind.
 */
export function statePatch(previous: ConsoleState, next: ConsoleState): Partial<ConsoleState> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof ConsoleState)[]) {
    if (next[key] !== previous[key]) patch[key] = next[key];
  }
  return patch as Partial<ConsoleState>;
}

/**
 * The state after a pushed message: a whole state replaces what was there, a patch replaces only
 * the parts it names (the others stay the very same objects, so screens that show them have
 * nothing to redo). A patch before any whole state has nothing to apply to: null.
 */
export function mergeState(current: ConsoleState | null, message: StateMessage): ConsoleState | null {
  if (message.type === 'state') return message.state;
  return current === null ? null : { ...current, ...message.patch };
}

/** Keeps the merged state of a stream of messages: each message in, the whole state after it out (null until a whole state came). */
export function createStateMerge(): (message: StateMessage) => ConsoleState | null {
  let current: ConsoleState | null = null;
  return (message) => {
    const merged = mergeState(current, message);
    // A patch that came too early changes nothing (there is nothing yet to apply it to).
    if (merged !== null) current = merged;
    return merged;
  };
}
