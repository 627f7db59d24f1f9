import { describe, expect, it } from 'vitest';
import { STATE_CHANNEL } from '../ipc/channels';
import type { ConsoleState, StateMessage } from '../../protocol/contract';
import { createWindowFeeds, type StateReceiver } from './stateFeeds';

/** A window's webContents as far as the feed uses it: what it was sent, and its events to fire. */
function fakeContents(id: number) {
  const sent: Array<[string, StateMessage]> = [];
  const handlers = new Map<string, () => void>();
  const contents: StateReceiver = {
    id,
    send: (channel, message) => sent.push([channel, message]),
    on: (event, listener) => handlers.set(event, listener),
  };
  return { contents, sent, fire: (event: string) => handlers.get(event)?.() };
}

describe('state feeds to the windows', () => {
  it('each page gets the whole state when it has loaded, then only what changed; a closed window gets nothing', () => {
    let current = { settings: {}, race: null, history: [] } as unknown as ConsoleState;
    const feeds = createWindowFeeds(() => current);
    const dealer = fakeContents(1);
    const display = fakeContents(2);
    feeds.attach(dealer.contents);
    feeds.attach(display.contents);
    dealer.fire('did-finish-load');
    const race = { id: 'race-1' } as unknown as ConsoleState['race'];
    current = { ...current, race };
    feeds.push(current);
    expect(dealer.sent).toEqual([
      [STATE_CHANNEL, { type: 'state', state: { ...current, race: null } }],
      [STATE_CHANNEL, { type: 'patch', patch: { race } }],
    ]);
    // The display was still loading: whatever it was sent may be lost, so its load ends with the whole state.
    display.fire('did-finish-load');
    expect(display.sent.at(-1)).toEqual([STATE_CHANNEL, { type: 'state', state: current }]);
    display.fire('destroyed');
    const before = display.sent.length;
    feeds.push({ ...current, race: null });
    expect(display.sent).toHaveLength(before);
    expect(dealer.sent.at(-1)).toEqual([STATE_CHANNEL, { type: 'patch', patch: { race: null } }]);
  });
});
