import type { Message } from '../engine/messages';

/**
 * The floor's addresses as a director writes them: libpq's URL with a list of hosts, the primary
 * first (`postgres://ROLE:PASSWORD@floor.local:5432,standby.local:5432/chip_race?target_session_attrs=read-write`),
 * read here because node-postgres takes one host only. Each host becomes a URL of its own (the
 * login, database and parameters the same), and `connectWritable` connects to the first one that
 * accepts writes, as libpq's `target_session_attrs=read-write` does: the station and the floor
 * console follow a standby once it is promoted. No `pg` here: the station checks its URL without
 * loading the driver.
 */

/** One host of the list: a name or an IP address (an IPv6 one without its brackets), and its port when given. */
export interface FloorHost {
  readonly host: string;
  readonly port: number | null;
}

export interface FloorAddress {
  readonly scheme: 'postgres' | 'postgresql';
  /** The login and password as written (still %-encoded); '' when none. */
  readonly user: string;
  readonly password: string;
  /** Whether the URL has a login part (`…@`). */
  readonly hasUser: boolean;
  readonly hosts: readonly FloorHost[];
  /** The database's name, decoded. */
  readonly database: string;
  /** The path as written (`/chip_race`). */
  readonly path: string;
  /** The query's parameters as written (`name=value`, still %-encoded), in order, without `target_session_attrs`. */
  readonly params: readonly string[];
}

/** The most hosts a list may name (a floor, its standby, and a few more). */
export const FLOOR_HOSTS_MAX = 8;

/** The parameter libpq reads the wanted session from: only `read-write` means anything to the floor (it is written to). */
const TARGET_SESSION_ATTRS = 'target_session_attrs';

/** A host name or an IPv4 address as a URL holds it (no %-escape, nothing a URL would read otherwise). */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,252})$/;
/** An IPv6 address between brackets. */
const IPV6 = /^\[([0-9A-Fa-f:.]{2,45})\]$/;

export type FloorAddressReading = { readonly ok: true; readonly address: FloorAddress } | { readonly ok: false; readonly problem: Message };

const refused = (problem: Message): FloorAddressReading => ({ ok: false, problem });
const NOT_URL: Message = { key: 'settings.floorUrl' };

/** A host as the list writes it (`floor.local:5432`, `[::1]:5433`, `standby.local`). */
export function hostText({ host, port }: FloorHost): string {
  const name = host.includes(':') ? `[${host}]` : host;
  return port === null ? name : `${name}:${port}`;
}

function readHost(text: string, n: number): FloorHost | Message {
  let name = text;
  let port: string | null = null;
  const close = text.lastIndexOf(']');
  const colon = text.lastIndexOf(':');
  if (colon > close) {
    name = text.slice(0, colon);
    port = text.slice(colon + 1);
  }
  const v6 = IPV6.exec(name);
  if (name === '' || (v6 === null && !HOST_NAME.test(name))) return { key: 'settings.floorUrlHost', params: { index: n, got: text.slice(0, 80) } };
  if (port !== null && port !== '' && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535)) return { key: 'settings.floorUrlPort', params: { index: n, got: port.slice(0, 20) } };
  return { host: v6 === null ? name : (v6[1] as string), port: port === null || port === '' ? null : Number(port) };
}

/**
 * Reads a floor URL: one host or a list of them. Refused (with the screens' words) when it is not
 * a postgres:// URL with at least one host and a database, a host or port of the list is not one,
 * or it asks for a session the floor cannot be written in.
 */
export function parseFloorAddress(url: string): FloorAddressReading {
  const match = /^(postgres|postgresql):\/\/([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/i.exec(url);
  if (match === null) return refused(NOT_URL);
  const scheme = (match[1] as string).toLowerCase() as FloorAddress['scheme'];
  const authority = match[2] as string;
  const path = match[3] ?? '';
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const hostList = authority.slice(at + 1);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  const password = colon < 0 ? '' : userInfo.slice(colon + 1);
  if (/[\s]/.test(userInfo) || !decodes(user) || !decodes(password)) return refused(NOT_URL);
  let database: string;
  try {
    database = decodeURIComponent(path.replace(/^\//, ''));
  } catch {
    return refused(NOT_URL);
  }
  if (database === '' || database.includes('/')) return refused(NOT_URL);
  if (hostList === '') return refused(NOT_URL);
  const texts = hostList.split(',');
  if (texts.length > FLOOR_HOSTS_MAX) return refused({ key: 'settings.floorUrlHosts', params: { max: FLOOR_HOSTS_MAX, got: texts.length } });
  const hosts: FloorHost[] = [];
  for (const [index, text] of texts.entries()) {
    const host = readHost(text, index + 1);
    if ('key' in host) return refused(host);
    hosts.push(host);
  }
  const params: string[] = [];
  const names: string[] = [];
  for (const piece of (match[4] ?? '').split('&')) {
    if (piece === '') continue;
    const [[name, value] = ['', '']] = new URLSearchParams(piece);
    if (name !== TARGET_SESSION_ATTRS) {
      params.push(piece);
      names.push(name);
    } else if (value !== 'read-write') return refused({ key: 'settings.floorUrlSession', params: { got: value.slice(0, 40) } });
  }
  // A list needs the hosts where libpq would look: no `host` or `port` parameter to take their place.
  if (hosts.length > 1 && names.some((name) => name === 'host' || name === 'port' || name === 'hostaddr')) return refused(NOT_URL);
  return { ok: true, address: { scheme, user, password, hasUser: at >= 0, hosts, database, path, params } };
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The URL of the address with `hosts` (the list's, by default), and its login and password or others (%-encoded; '' for none). */
export function floorUrlOf(address: FloorAddress, { hosts = address.hosts, user = address.user, password = address.password }: { readonly hosts?: readonly FloorHost[]; readonly user?: string; readonly password?: string } = {}): string {
  const login = address.hasUser || user !== '' ? `${user}${password === '' ? '' : `:${password}`}@` : '';
  const query = address.params.length === 0 ? '' : `?${address.params.join('&')}`;
  return `${address.scheme}://${login}${hosts.map(hostText).join(',')}${address.path}${query}`;
}

/** One URL for each host of the list, in its order: what node-postgres is given, one at a time. */
export function hostUrls(address: FloorAddress): string[] {
  return address.hosts.map((host) => floorUrlOf(address, { hosts: [host] }));
}

/** The floor's hosts as the screens show them: the list as written (`floor.local:5432,standby.local`). */
export function shownHosts(address: FloorAddress): string {
  return address.hosts.map(hostText).join(',');
}

/** The code of the failure when every host answered and none accepts writes (a standby not yet promoted). */
export const FLOOR_READ_ONLY = 'FLOOR-READ-ONLY';

/** What a connection must do for `connectWritable`: answer a query, and end. */
export interface WritableCandidate {
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

/**
 * Whether a connection's server accepts writes: not a standby in recovery, and its sessions not
 * read-only (`default_transaction_read_only`), which is what libpq's `read-write` asks of it.
 */
export async function acceptsWrites(client: WritableCandidate): Promise<boolean> {
  const result = await client.query("SELECT pg_catalog.pg_is_in_recovery() AS recovery, pg_catalog.current_setting('transaction_read_only') AS read_only");
  const row = result.rows[0];
  return row !== undefined && row.recovery === false && row.read_only === 'off';
}

/** A failure's SQLSTATE when it is one of the server's refusals (login, database, full…), not the connection's trouble. */
const isServerRefusal = (error: unknown): boolean => {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57P');
};

/**
 * Connects to the first host of `urls` that answers and accepts writes, trying them in order
 * (`open` makes and connects one client; a client that does not accept writes is ended and the
 * next host tried). When none does, the failure said is the most telling one: a server's refusal
 * (a password, a database, a full floor) before "only a standby answers" (`FLOOR_READ_ONLY`), before
 * the first host's unreachability. `stop` ends the trying early (the caller is closing).
 */
export async function connectWritable<C extends WritableCandidate>(urls: readonly string[], open: (url: string) => Promise<C>, stop: () => boolean = () => false): Promise<C> {
  const failures: unknown[] = [];
  let readOnly = false;
  for (const url of urls) {
    if (stop() && failures.length > 0) break;
    let client: C;
    try {
      client = await open(url);
    } catch (error) {
      failures.push(error);
      continue;
    }
    try {
      if (await acceptsWrites(client)) return client;
      readOnly = true;
    } catch (error) {
      failures.push(error);
    }
    await client.end().catch(() => undefined);
  }
  const refusal = failures.find(isServerRefusal);
  if (refusal !== undefined) throw refusal;
  if (readOnly) throw Object.assign(new Error(urls.length === 1 ? "the floor's database accepts no writes (a standby not promoted)" : "none of the floor's databases accepts writes (a standby not promoted, the primary unreachable)"), { code: FLOOR_READ_ONLY });
  throw failures[0] ?? new Error('no floor host to connect to');
}

/**
 * The hosts of a floor's list as one connection after another tries them: the one that last
 * accepted writes first, then the others in the list's order. After a promotion every reconnection
 * goes straight to the promoted standby, not first to a dead floor's address (a computer gone
 * answers nothing: each try of it waits out the connection timeout); and a station already on the
 * promoted floor stays there should the old one come back.
 */
export class WritableHosts {
  private last: string | null = null;
  /** Hosts a connection to which stopped answering (stoppedAnswering), until one to them is made again. */
  private readonly silent = new Set<string>();

  constructor(private readonly urls: readonly string[]) {}

  /** The order the next connection tries them in (the silent ones last). */
  get order(): readonly string[] {
    const last = this.last;
    const order = last === null ? this.urls : [last, ...this.urls.filter((url) => url !== last)];
    return [...order.filter((url) => !this.silent.has(url)), ...order.filter((url) => this.silent.has(url))];
  }

  /**
   * A connection to `url` stopped answering mid-statement (its computer or the network gone without
   * a word): the next connections try the other hosts first, not wait out a dead one's connection
   * timeout before reaching the promoted standby. Each is still checked for writes; the host is
   * tried last, and first again once a connection to it is made.
   */
  stoppedAnswering(url: string): void {
    this.silent.add(url);
    if (this.last === url) this.last = null;
  }

  /** Whether a connection to `url` stopped answering, and none has been made to it since. */
  isSilent(url: string): boolean {
    return this.silent.has(url);
  }

  /** connectWritable over `order`, remembering the host it connected to. */
  async connect<C extends WritableCandidate>(open: (url: string) => Promise<C>, stop?: () => boolean): Promise<C> {
    let opened: string | null = null;
    const client = await connectWritable(
      this.order,
      async (url) => {
        const candidate = await open(url);
        opened = url;
        return candidate;
      },
      stop,
    );
    this.last = opened;
    if (opened !== null) this.silent.delete(opened);
    return client;
  }
}
