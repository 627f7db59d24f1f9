import type { ConsoleState, StateMessage } from '../../protocol/contract';
import { statePatch } from '../../protocol/stateMerge';

/**
 * The states pushed to one page: the whole state first, then only what changed since the last
 * message to that page (statePatch; the preload and the page merge it back with mergeState).
 * `restart` starts over with a whole state (a page that has just loaded has nothing to apply a
 * patch to).
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
