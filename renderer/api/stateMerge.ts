import type { ConsoleState, StateMessage } from '../../protocol/contract';

/** The parts a state has; a patch naming anything else is not from the console service. */
const STATE_KEYS: ReadonlySet<string> = new Set<keyof ConsoleState>(['settings', 'race', 'source', 'lastInput', 'shoeRefusal', 'history', 'held', 'profiles', 'registration', 'game', 'games', 'plan', 'colorUp', 'journal']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is a pushed state message (main/ipc/stateFeed) the page can take. */
export function isStateMessage(value: unknown): value is StateMessage {
  if (!isObject(value)) return false;
  if (value.type === 'state') return isObject(value.state) && Object.keys(value.state).every((key) => STATE_KEYS.has(key));
  if (value.type === 'patch') return isObject(value.patch) && Object.keys(value.patch).every((key) => STATE_KEYS.has(key));
  return false;
}

/**
 * Rebuilds whole states from pushed messages: a whole state replaces what the page had, a patch
 * replaces only the parts it names (the others stay the very same objects, so screens that show
 * them have nothing to redo). A patch before any whole state has nothing to apply to and is dropped.
 */
export function createStateMerge(): (message: StateMessage) => ConsoleState | null {
  let current: ConsoleState | null = null;
  return (message) => {
    if (message.type === 'state') current = message.state;
    else if (current !== null) current = { ...current, ...message.patch };
    else return null;
    return current;
  };
}
