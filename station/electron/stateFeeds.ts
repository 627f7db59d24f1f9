import type { ConsoleState, StateMessage } from '../../protocol/contract';
import { STATE_CHANNEL } from '../ipc/channels';
import { StateFeed } from '../ipc/stateFeed';

/** The part of a window's webContents this needs, so it is tested with a stand-in instead of Electron. */
export interface StateReceiver {
  readonly id: number;
  send(channel: string, message: StateMessage): void;
  on(event: 'did-finish-load' | 'destroyed', listener: () => void): unknown;
}

export interface WindowFeeds {
  /** Starts feeding a window's page: the whole state each time a page has loaded, then patches. */
  attach(contents: StateReceiver): void;
  push(state: ConsoleState): void;
}

/**
 * The service's states to every window. A page that is still loading may miss what is sent, so
 * each page load ends with the whole state (the preload keeps it), and patches follow it.
 */
export function createWindowFeeds(getState: () => ConsoleState): WindowFeeds {
  const feeds = new Map<number, StateFeed>();
  return {
    attach(contents) {
      const feed = new StateFeed((message) => contents.send(STATE_CHANNEL, message));
      feeds.set(contents.id, feed);
      contents.on('did-finish-load', () => feed.restart(getState()));
      contents.on('destroyed', () => feeds.delete(contents.id));
    },
    push(state) {
      for (const feed of feeds.values()) feed.push(state);
    },
  };
}
