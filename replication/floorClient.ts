import pg from 'pg';
import { acceptsWrites, FLOOR_READ_ONLY, hostUrls, parseFloorAddress, WritableHosts } from './floorAddress';

/**
 * The floor console's connections to the floor's addresses (replication/floorAddress.ts): one
 * client on the first host of the list that accepts writes, and a pool whose every connection
 * goes there. The station's link makes its own (main/floorLink/link.ts: its socket, timeouts and
 * cleartext refusal) with the same `WritableHosts`.
 */

/** A URL for each host of a floor URL (itself when it names one host or is none: the driver then says what is wrong with it). */
function urlsOf(url: string): readonly string[] {
  const reading = parseFloorAddress(url);
  return reading.ok ? hostUrls(reading.address) : [url];
}

/** A client connected to the first host of the floor's list that accepts writes; its own error reports taken by `onError`. */
export async function connectFloorClient(url: string, config: Omit<pg.ClientConfig, 'connectionString'>, onError: (error: Error) => void, hosts: WritableHosts = new WritableHosts(urlsOf(url))): Promise<pg.Client> {
  return hosts.connect(async (hostUrl) => {
    const client = new pg.Client({ ...config, connectionString: hostUrl });
    client.on('error', onError);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  });
}

/**
 * A pool's configuration for a floor URL: for a list of hosts, each connection the pool makes goes
 * to the first host that accepts writes then (a standby once it is promoted), found by a short
 * connection of its own and checked again on the pool's (the host that last did tried first: a
 * dead floor's address waits out a connection timeout, the pool's own as long); a URL of one host
 * is given to the pool as it is.
 */
export function floorPoolConfig(url: string, config: Omit<pg.PoolConfig, 'connectionString' | 'Client'>): pg.PoolConfig {
  const urls = urlsOf(url);
  if (urls.length === 1) return { ...config, connectionString: url };
  // Shared by the pool's connections: once one found the promoted standby, the next go there first.
  const hosts = new WritableHosts(urls);
  class FloorListClient extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      super(options);
      // A connection lost while the floor uses it (its server stopped mid-query): the query rejects
      // by itself; the report is taken here so it ends no process (the pool takes an idle one's).
      this.on('error', () => undefined);
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (error: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
      const connected = this.connectWritable();
      if (callback === undefined) return connected;
      connected.then((client) => callback(null, client), (error: Error) => callback(error));
    }

    private async connectWritable(): Promise<pg.Client> {
      const found = await connectFloorClient(url, config, () => undefined, hosts);
      const { host, port } = found;
      await found.end().catch(() => undefined);
      this.host = host;
      this.port = port;
      // The driver's own copy of the parameters (its password lookup reads the host there).
      Object.assign((this as unknown as { connectionParameters: object }).connectionParameters, { host, port });
      await super.connect();
      if (!(await acceptsWrites(this))) throw Object.assign(new Error("the floor's database accepts no writes (a standby not promoted)"), { code: FLOOR_READ_ONLY });
      return this;
    }
  }
  return { ...config, connectionString: urls[0] as string, Client: FloorListClient };
}
