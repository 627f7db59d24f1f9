import { describe, expect, it } from 'vitest';
import { floorPoolConfig } from './floorClient';

// The floor console's pool (floor/pool.ts): each connection with TCP keepalive on and a deadline
// on its statements (system/floorSilentDrop.test.ts shows the deadline on a real PostgreSQL behind
// a silent link), for a URL of one host as for a list.

describe("floorPoolConfig: the floor console's connections notice a silent drop", () => {
  it('turns TCP keepalive on and times statements, for one host and for a list', () => {
    for (const url of ['postgres://floor@127.0.0.1:5432/chip_race', 'postgres://floor@floor.local:5432,standby.local:5432/chip_race?target_session_attrs=read-write']) {
      const config = floorPoolConfig(url, { max: 4, connectionTimeoutMillis: 5_000 }, 10_000);
      expect(config).toMatchObject({ max: 4, connectionTimeoutMillis: 5_000, keepAlive: true });
      expect(config.keepAliveInitialDelayMillis).toBeGreaterThan(0);
      expect(config.Client).toBeDefined();
    }
  });

  it('refuses a deadline that is not a whole number of milliseconds above 0', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => floorPoolConfig('postgres://floor@127.0.0.1/chip_race', {}, bad)).toThrow(/whole number of milliseconds/);
  });
});
