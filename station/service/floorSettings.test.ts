import { describe, expect, it } from 'vitest';
import { floorOf, shownFloor, urlWithoutPassword, withKeptPassword } from './floorSettings';

// The station's floor URL as a list of hosts (the floor, then its standby): taken, shown without
// its password, and the password held kept across a save only for exactly the list it was given with.

const LIST = 'postgres://chip_race_table_0123456789abcdef:s3cret@floor.local:5432,standby.local/chip_race?sslmode=verify-full&sslrootcert=%2Fetc%2Fcardroom-ca.crt';
const SHOWN = 'postgres://chip_race_table_0123456789abcdef@floor.local:5432,standby.local/chip_race?sslmode=verify-full&sslrootcert=%2Fetc%2Fcardroom-ca.crt';

describe("the station's floor URL as a list of hosts", () => {
  it('is taken and shown without its password', () => {
    expect(floorOf({ on: true, url: LIST }, '7')).toEqual({ on: true, url: LIST });
    expect(urlWithoutPassword(LIST)).toBe(SHOWN);
    expect(shownFloor({ on: true, url: LIST })).toEqual({ on: true, url: SHOWN, passwordSet: true });
  });

  it('keeps the password held for the same list saved without it, never for another list', () => {
    const held = { on: true, url: LIST };
    expect(withKeptPassword({ on: true, url: SHOWN }, held)).toEqual({ on: true, url: LIST });
    // A host added, the order changed, a port changed: another server could get the password.
    for (const other of [SHOWN.replace('standby.local', 'standby.local,elsewhere.example'), SHOWN.replace('floor.local:5432,standby.local', 'standby.local,floor.local:5432'), SHOWN.replace(':5432', ':5433')]) {
      expect(withKeptPassword({ on: true, url: other }, held)).toEqual({ on: true, url: other });
    }
  });

  it('refuses a malformed list with the screens’ words, never the URL', () => {
    expect(() => floorOf({ on: true, url: 'postgres://t:s3cret@floor.local,standby.local:99999/chip_race' }, '7')).toThrow(/^floor\.url: the port of host 2 of the floor's list must be a number from 1 to 65535 \(got 99999\)$/);
  });
});
