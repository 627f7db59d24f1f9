import { describe, expect, it } from 'vitest';
import type { ConsoleState, StateMessage } from '../../protocol/contract';
import { statePatch } from '../../protocol/stateMerge';
import { StateFeed } from './stateFeed';

const first = { settings: { language: 'en' }, race: null, history: { total: 0, valueDelta: 0, latest: null }, lastInput: null } as unknown as ConsoleState;

describe('state feed', () => {
  it('a patch names exactly the parts that are other objects', () => {
    const race = { id: 'race-1' } as unknown as ConsoleState['race'];
    expect(statePatch(first, { ...first })).toEqual({});
    expect(statePatch(first, { ...first, race })).toEqual({ race });
    // An equal but new object is a change: the service makes a new one only when something changed.
    const history: ConsoleState['history'] = { total: 0, valueDelta: 0, latest: null };
    expect(statePatch(first, { ...first, history })).toEqual({ history });
  });

  it('sends the whole state first, then patches against what it sent last, nothing when nothing changed', () => {
    const sent: StateMessage[] = [];
    const feed = new StateFeed((message) => sent.push(message));
    const second = { ...first, lastInput: { type: 'unknown', raw: '?', reason: 'x' } } as ConsoleState;
    feed.push(first);
    feed.push(second);
    feed.push(second);
    feed.restart(second);
    expect(sent).toEqual([
      { type: 'state', state: first },
      { type: 'patch', patch: { lastInput: second.lastInput } },
      { type: 'state', state: second },
    ]);
  });
});
