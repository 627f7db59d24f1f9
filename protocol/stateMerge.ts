import type { ConsoleState, StateMessage } from './contract';

/**
 * The state's parts and their patches, on both sides of every transport: main makes a patch of the
 * parts that changed (station/ipc/stateFeed), the preload and the page merge it back (here, once).
 * What a page takes is read first by the state message's schema (protocol/contract.ts,
 * `readStateMessage`).
 */

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
