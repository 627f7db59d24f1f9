import { describe, expect, it } from 'vitest';
import { parseArguments } from './cli';

// `floor serve` on the cardroom's network, as the README sets it up: its command line.

const DATABASE = 'postgres://a:b@127.0.0.1:5432/x';

describe('floor serve: its options for the cardroom network', () => {
  it('takes --name more than once, each a host name, and for serve only', () => {
    expect(parseArguments(['serve', '--database', DATABASE, '--name', 'floor.local', '--name=floor-2.cardroom.lan'], {}).names).toEqual(['floor.local', 'floor-2.cardroom.lan']);
    expect(() => parseArguments(['serve', '--database', DATABASE, '--name', 'floor.local:8790'], {})).toThrow(/not a host name/);
    expect(() => parseArguments(['status', '--database', DATABASE, '--name', 'floor.local'], {})).toThrow(/--name is for serve only/);
  });
});
