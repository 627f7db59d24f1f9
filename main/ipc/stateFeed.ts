import type { ConsoleState, StateMessage } from '../../protocol/contract';

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
 * The states pushed to one page: the whole state first, then only what changed since the last
 * message to that page. `restart` starts over with a whole state (a page that has just loaded
 * has nothing to apply a patch to).
 */
export class StateFeed {
  private last: ConsoleState | null = null;

  constructor(private readonly send: (message: StateMessage) => void) {}

  push(state: ConsoleState): void {
    const last = this.last;
    this.last = state;
    if (last === null) {
      this.send({ type: 'state', state });
      return;
    }
    const patch = statePatch(last, state);
    if (Object.keys(patch).length > 0) this.send({ type: 'patch', patch });
  }

  restart(state: ConsoleState): void {
    this.last = null;
    this.push(state);
  }
}
