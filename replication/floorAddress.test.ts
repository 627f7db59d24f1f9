import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_CATALOGS, formatMessage } from '../engine/messages';
import { connectWritable, FLOOR_HOSTS_MAX, FLOOR_READ_ONLY, floorUrlOf, hostUrls, parseFloorAddress, shownHosts, WritableHosts, type FloorHost, type WritableCandidate } from './floorAddress';

// The floor's addresses in libpq's syntax (a list of hosts, the primary first), read without the
// driver: every list of hosts and ports comes back as written, each host gets a URL of its own,
// and a list that is not one is refused with the screens' words.

const hostName = fc.oneof(
  fc.domain().filter((name) => name.length <= 200),
  fc.ipV4(),
  fc.ipV6().map((address) => address.toLowerCase()),
);
const host: fc.Arbitrary<FloorHost> = fc.record({ host: hostName, port: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: null }) });
const hosts = fc.array(host, { minLength: 1, maxLength: FLOOR_HOSTS_MAX });
const login = fc.stringMatching(/^[A-Za-z0-9_%-]{0,20}$/).filter((text) => { try { decodeURIComponent(text); return true; } catch { return false; } });

describe('the floor address list (libpq syntax)', () => {
  it('reads back any list of hosts and ports as written, with the login, database and parameters; one URL per host, in order', () => {
    fc.assert(
      fc.property(hosts, login, login, fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/), fc.boolean(), (list, user, password, database, readWrite) => {
        const written = list.map(({ host: name, port }) => `${name.includes(':') ? `[${name}]` : name}${port === null ? '' : `:${port}`}`).join(',');
        const userInfo = user === '' ? '' : `${user}${password === '' ? '' : `:${password}`}@`;
        const url = `postgres://${userInfo}${written}/${database}?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.crt${readWrite ? '&target_session_attrs=read-write' : ''}`;
        const reading = parseFloorAddress(url);
        if (!reading.ok) throw new Error(`refused ${url}: ${reading.problem.key}`);
        expect(reading.address.hosts).toEqual(list);
        expect(reading.address.database).toBe(database);
        expect(shownHosts(reading.address)).toBe(written);
        expect(floorUrlOf(reading.address)).toBe(url.replace('&target_session_attrs=read-write', ''));
        const urls = hostUrls(reading.address);
        expect(urls).toHaveLength(list.length);
        urls.forEach((one, index) => {
          const single = parseFloorAddress(one);
          expect(single.ok && single.address.hosts).toEqual([list[index]]);
          expect(single.ok && [single.address.user, single.address.password, single.address.database, single.address.params]).toEqual([user, user === '' ? '' : password, database, ['sslmode=verify-full', 'sslrootcert=%2Fetc%2Fca.crt']]);
          // One host is a URL node-postgres (WHATWG's URL) reads, to the same host and port.
          const parsed = new URL(one);
          const expected = (list[index] as FloorHost).host;
          expect(parsed.hostname).toBe(expected.includes(':') ? new URL(`http://[${expected}]/`).hostname : expected);
          expect(parsed.port).toBe(String((list[index] as FloorHost).port ?? ''));
        });
      }),
    );
  });

  it('refuses a list that is not one, saying which host and why in every language', () => {
    const cases: [string, string][] = [
      ['postgres://t:pw@floor.local,,standby.local/chip_race', 'settings.floorUrlHost'],
      ['postgres://t:pw@,standby.local/chip_race', 'settings.floorUrlHost'],
      ['postgres://t:pw@floor.local,standby local/chip_race', 'settings.floorUrlHost'],
      ['postgres://t:pw@floor.local,[zz::1]/chip_race', 'settings.floorUrlHost'],
      ['postgres://t:pw@floor.local:5432,standby.local:0/chip_race', 'settings.floorUrlPort'],
      ['postgres://t:pw@floor.local:5432,standby.local:65536/chip_race', 'settings.floorUrlPort'],
      ['postgres://t:pw@floor.local:54x2,standby.local/chip_race', 'settings.floorUrlPort'],
      [`postgres://t:pw@${Array.from({ length: FLOOR_HOSTS_MAX + 1 }, (_, i) => `h${i}`).join(',')}/chip_race`, 'settings.floorUrlHosts'],
      ['postgres://t:pw@floor.local,standby.local/chip_race?target_session_attrs=any', 'settings.floorUrlSession'],
      ['postgres://t:pw@floor.local,standby.local/chip_race?target_session_attrs=standby', 'settings.floorUrlSession'],
      ['postgres://t:pw@floor.local,standby.local/', 'settings.floorUrl'],
      ['postgres://t:pw@floor.local,standby.local', 'settings.floorUrl'],
      ['postgres://t:pw@floor.local,standby.local/chip_race?host=/var/run/postgresql', 'settings.floorUrl'],
      ['http://floor.local,standby.local/chip_race', 'settings.floorUrl'],
      ['floor.local,standby.local', 'settings.floorUrl'],
      ['postgres://t:p%zz@floor.local,standby.local/chip_race', 'settings.floorUrl'],
    ];
    for (const [url, key] of cases) {
      const reading = parseFloorAddress(url);
      expect(reading.ok ? null : reading.problem.key, url).toBe(key);
      if (reading.ok) continue;
      for (const [language, catalog] of Object.entries(ENGINE_CATALOGS)) {
        const text = formatMessage(reading.problem, language as 'en', catalog);
        expect(text, `${url} in ${language}`).not.toMatch(/\{|\}|pw/);
      }
    }
  });

  it('reads one host as the station always did', () => {
    const reading = parseFloorAddress('postgres://chip_race_table_0123456789abcdef:secret@127.0.0.1:5433/chip_race');
    expect(reading.ok && [shownHosts(reading.address), reading.address.database, hostUrls(reading.address)]).toEqual(['127.0.0.1:5433', 'chip_race', ['postgres://chip_race_table_0123456789abcdef:secret@127.0.0.1:5433/chip_race']]);
  });
});

/** A host for connectWritable: it connects or fails, and answers whether it is in recovery. */
function fakeHost(how: 'primary' | 'standby' | Error, ended: string[], url: string): Promise<WritableCandidate> {
  if (how instanceof Error) return Promise.reject(how);
  return Promise.resolve({
    query: async () => ({ rows: [{ recovery: how === 'standby', read_only: how === 'standby' ? 'on' : 'off' }] }),
    end: async () => {
      ended.push(url);
    },
  });
}

describe('connectWritable: the first host that accepts writes', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const password = Object.assign(new Error('password authentication failed'), { code: '28P01' });

  it('passes over a host that cannot be reached or is read-only, ending what it opened', async () => {
    const ended: string[] = [];
    const plan: Record<string, 'primary' | 'standby' | Error> = { a: refused, b: 'standby', c: 'primary', d: 'primary' };
    const client = await connectWritable(['a', 'b', 'c', 'd'], (url) => fakeHost(plan[url] as 'primary', ended, url));
    await client.end();
    expect(ended).toEqual(['b', 'c']);
  });

  it('says the most telling failure when none does: a refusal, else read-only, else the first host unreachable', async () => {
    const ended: string[] = [];
    await expect(connectWritable(['a', 'b', 'c'], (url) => fakeHost(({ a: refused, b: 'standby', c: password } as const)[url as 'a'], ended, url))).rejects.toBe(password);
    await expect(connectWritable(['a', 'b'], (url) => fakeHost(({ a: refused, b: 'standby' } as const)[url as 'a'], ended, url))).rejects.toMatchObject({ code: FLOOR_READ_ONLY });
    await expect(connectWritable(['a', 'b'], (url) => fakeHost(({ a: refused, b: new Error('timeout') } as const)[url as 'a'], ended, url))).rejects.toBe(refused);
  });
});

describe('WritableHosts: the host that last accepted writes is tried first', () => {
  it('goes to the promoted standby first once it was found there, and back to the list order only through it', async () => {
    const hosts = new WritableHosts(['floor', 'standby']);
    const tried: string[] = [];
    const plan: Record<string, 'primary' | 'standby' | Error> = { floor: 'primary', standby: 'standby' };
    const open = (url: string) => {
      tried.push(url);
      return fakeHost(plan[url] as 'primary', [], url);
    };
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['floor']);
    // The floor's computer dies, the standby is promoted: found after the floor, then tried first.
    plan.floor = Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' });
    plan.standby = 'primary';
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['floor', 'standby']);
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['standby']);
    expect(hosts.order).toEqual(['standby', 'floor']);
    // The old floor rebuilt as its standby: still passed over for the promoted one.
    plan.floor = 'standby';
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['standby']);
  });
});

describe('WritableHosts: a host whose connection stopped answering is tried last', () => {
  it('goes to the other hosts first after a silent drop, and back to the silent one only once a connection to it is made', async () => {
    const hosts = new WritableHosts(['floor', 'standby', 'third']);
    const tried: string[] = [];
    const plan: Record<string, 'primary' | 'standby' | Error> = { floor: 'primary', standby: 'primary', third: 'standby' };
    const open = (url: string) => {
      tried.push(url);
      return fakeHost(plan[url] as 'primary', [], url);
    };
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['floor']);
    // The floor's statement went unanswered (its computer gone without a word): not waited on again first.
    hosts.stoppedAnswering('floor');
    expect(hosts.isSilent('floor')).toBe(true);
    expect(hosts.order).toEqual(['standby', 'third', 'floor']);
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['standby']);
    expect(hosts.order).toEqual(['standby', 'third', 'floor']);
    // Every other host gone or read-only: the silent one is still tried, and first again once it answers.
    hosts.stoppedAnswering('standby');
    expect(hosts.order).toEqual(['third', 'floor', 'standby']);
    await hosts.connect(open);
    expect(tried.splice(0)).toEqual(['third', 'floor']);
    expect(hosts.isSilent('floor')).toBe(false);
    expect(hosts.order).toEqual(['floor', 'third', 'standby']);
  });
});
