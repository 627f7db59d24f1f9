import { describe, expect, it } from 'vitest';
import { main, parseArguments } from './cli';

// The floor console takes the floor's addresses as a list, the primary first (libpq's syntax), as
// the stations do: a malformed list is refused before anything connects (exit 2, one line).

describe("the floor console's --database as a list of hosts", () => {
  it('takes the floor and its standby, and refuses a list that is not one, saying why', async () => {
    const list = 'postgres://chip_race_floor:pw@floor.local:5432,standby.local/chip_race?sslmode=verify-full&target_session_attrs=read-write';
    expect(parseArguments(['status', '--database', list], {}).options.database).toBe(list);
    expect(parseArguments(['status'], { CHIP_RACE_DATABASE_URL: list }).options.database).toBe(list);
    expect(() => parseArguments(['status', '--database', 'postgres://f:pw@floor.local:5432,standby.local:70000/chip_race'], {})).toThrow(/^--database: the port of host 2 of the floor's list must be a number from 1 to 65535 \(got 70000\)$/);
    expect(() => parseArguments(['status', '--database', 'postgres://f:pw@floor.local,,standby.local/chip_race'], {})).toThrow(/host 2 of the floor's list is not a host name or address/);
    expect(() => parseArguments(['status', '--database', 'postgres://f:pw@floor.local,standby.local/chip_race?target_session_attrs=read-only'], {})).toThrow(/target_session_attrs must be read-write/);
    const errors: string[] = [];
    const out: string[] = [];
    expect(await main(['status', '--database', 'postgres://f:secret@floor.local,standby.local:0/chip_race'], {}, (text) => out.push(text), (text) => errors.push(text))).toBe(2);
    expect(out).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).not.toContain('secret');
  });

  it('says every host it tried could not be reached, without the password', async () => {
    const errors: string[] = [];
    // Port 1 on loopback: nothing listens there.
    expect(await main(['status', '--database', 'postgres://f:secret@127.0.0.1:1,127.0.0.2:1/chip_race'], {}, () => undefined, (text) => errors.push(text))).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^floor: cannot reach the floor's database at postgres:\/\/f@127\.0\.0\.1:1,127\.0\.0\.2:1\/chip_race: /);
    expect(errors[0]).not.toContain('secret');
  });
});
