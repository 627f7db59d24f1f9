import pg from 'pg';
import { acceptsWrites, FLOOR_READ_ONLY, hostUrls, parseFloorAddress, WritableHosts } from './floorAddress';

/**
 * The floor console's connections to the floor's addresses (replication/floorAddress.ts): one
 * client on the first host of the list that accepts writes, and a pool whose every connection
 * goes there. The station's link makes its own (station/floorLink/link.ts: its socket, timeouts and
 * cleartext refusal) with the same `WritableHosts`.
 */

/** A URL for each host of a floor URL (itself when it names one host or is none: the driver then says what is wrong with it). */
function urlsOf(url: string): readonly string[] {
  const reading = parseFloorAddress(url);
  return reading.ok ? hostUrls(reading.address) : [url];
}

/** A client connected to the first host of the floor's list that accepts writes; its own error reports taken by `onError`, the URL of each host it connected to told to `opened` (the last one told: the host it is on). */
export async function connectFloorClient(url: string, config: Omit<pg.ClientConfig, 'connectionString'>, onError: (error: Error) => void, hosts: WritableHosts = new WritableHosts(urlsOf(url)), opened: (hostUrl: string) => void = () => undefined): Promise<pg.Client> {
  return hosts.connect(async (hostUrl) => {
    const client = new pg.Client({ ...config, connectionString: hostUrl });
    client.on('error', onError);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    opened(hostUrl);
    return client;
  });
}

/**
 * The code a statement cut off by the pool's deadline rejects with (and its connection's 'error'
 * carries): Node's own for a connection timed out, which the floor's checks read as its database
 * gone (floor/pool.ts isConnectionLost: the page's requests and the fold), not as a refused statement.
 */
export const FLOOR_QUERY_TIMEOUT = 'ETIMEDOUT';

/** How long a pool's idle connection waits before its first TCP keepalive probe (the station's link waits as long). */
const KEEPALIVE_DELAY_MS = 10_000;

/** The socket under a client (the driver's; pg-pool ends a connection that will not connect the same way). */
const socketOf = (client: pg.Client): { destroy(error?: Error): void } => (client as unknown as { connection: { stream: { destroy(error?: Error): void } } }).connection.stream;

/** For each of a list's pool connections: whether its host stopped answering since it connected (WritableHosts.isSilent). */
const onSilentHosts = new WeakMap<object, () => boolean>();

/**
 * Whether a pool's connection is to a host of the floor's list that stopped answering (another
 * connection's statement to it cut): the floor drops it rather than wait out a statement's deadline
 * on it, and the pool's next connection goes to the list's other hosts. Always false for a URL of
 * one host (every connection goes there anyway).
 */
export function onSilentHost(client: object): boolean {
  return onSilentHosts.get(client)?.() ?? false;
}

/**
 * A pool's configuration for a floor URL. Each statement has `queryMs` to be answered: the floor's
 * computer gone without a word (its power, its cable: no reset, no FIN) leaves a statement waiting
 * for TCP to notice, minutes on end, with the pool's connections stuck under the page, the fold and
 * the held break. Past `queryMs` the connection is cut (its socket destroyed: no late answer is
 * ever read on it, nor the connection handed out again), the statement and any queued behind it
 * rejected with FLOOR_QUERY_TIMEOUT, and the connection's 'error' said (the pool drops it). TCP
 * keepalive is on, for the connections idle in the pool.
 *
 * For a list of hosts, each connection the pool makes goes to the first host that accepts writes
 * then (a standby once it is promoted), found by a short connection of its own and checked again on
 * the pool's (the host that last did tried first: a dead floor's address waits out a connection
 * timeout, the pool's own as long; a host whose connection was cut tried after the others:
 * WritableHosts.stoppedAnswering); a URL of one host is given to the pool as it is.
 */
export function floorPoolConfig(url: string, config: Omit<pg.PoolConfig, 'connectionString' | 'Client' | 'query_timeout'>, queryMs: number): pg.PoolConfig {
  if (!Number.isSafeInteger(queryMs) || queryMs < 1) throw new Error(`a statement's deadline must be a whole number of milliseconds, not ${queryMs}`);
  const connection = { ...config, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS };

  class FloorPoolClient extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      super(options);
      // A connection lost while the floor uses it (its server stopped mid-query, or cut below): the
      // query rejects by itself; the report is taken here so it ends no process (the pool and
      // floor/pool.ts's withClient take it too while they hold the connection).
      this.on('error', () => undefined);
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      (this as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const answer = query(...args);
        // (The driver's callback form and submittables are not timed: the floor uses neither.)
        if (!(answer instanceof Promise)) return answer;
        const deadline = setTimeout(() => this.cut(), queryMs);
        const settled = () => clearTimeout(deadline);
        answer.then(settled, settled);
        return answer;
      };
    }

    /** The connection cut: its socket destroyed, so the statement, those queued behind it and the connection fail now. */
    protected cut(): void {
      socketOf(this).destroy(Object.assign(new Error(`the floor's database did not answer within ${queryMs} ms (its computer or the network gone?)`), { code: FLOOR_QUERY_TIMEOUT }));
    }
  }

  const urls = urlsOf(url);
  if (urls.length === 1) return { ...connection, connectionString: url, Client: FloorPoolClient };
  // Shared by the pool's connections: once one found the promoted standby, the next go there first.
  const hosts = new WritableHosts(urls);
  class FloorListClient extends FloorPoolClient {
    /** The host of the list this connection went to (null until connected). */
    private hostUrl: string | null = null;

    constructor(options?: pg.ClientConfig) {
      super(options);
      onSilentHosts.set(this, () => this.hostUrl !== null && hosts.isSilent(this.hostUrl));
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (error: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
      const connected = this.connectWritable();
      if (callback === undefined) return connected;
      connected.then((client) => callback(null, client), (error: Error) => callback(error));
    }

    protected override cut(): void {
      // The next connections try the list's other hosts first (the same floor's standby, promoted).
      if (this.hostUrl !== null) hosts.stoppedAnswering(this.hostUrl);
      super.cut();
    }

    private async connectWritable(): Promise<pg.Client> {
      let hostUrl = '';
      const found = await connectFloorClient(url, { ...connection, query_timeout: queryMs }, () => undefined, hosts, (tried) => (hostUrl = tried));
      const { host, port } = found;
      await found.end().catch(() => undefined);
      this.host = host;
      this.port = port;
      // The driver's own copy of the parameters (its password lookup reads the host there).
      Object.assign((this as unknown as { connectionParameters: object }).connectionParameters, { host, port });
      await super.connect();
      this.hostUrl = hostUrl;
      if (!(await acceptsWrites(this))) throw Object.assign(new Error("the floor's database accepts no writes (a standby not promoted)"), { code: FLOOR_READ_ONLY });
      return this;
    }
  }
  return { ...connection, connectionString: urls[0] as string, Client: FloorListClient };
}
