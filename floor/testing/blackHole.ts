import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in the test's own process, between the floor and its PostgreSQL, that
 * can go silent as a computer does when its power or its network cable goes: `blackHole` stops
 * forwarding both ways and closes nothing (no reset, no FIN reaches either side: what each side
 * sends stays in the proxy's buffers, as TCP keeps retransmitting it), a connection made meanwhile
 * is taken and answered nothing; `forward` lets everything through again (what waited, then the
 * closes that waited), as a cable plugged back in does.
 */
export interface BlackHoleProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  blackHole(): void;
  forward(): void;
  /** The proxy's own ports towards the server, one per connection open there (pg_stat_activity.client_port). */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

interface Pair {
  readonly downstream: Socket;
  upstream: Socket | null;
}

export async function startBlackHoleProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<BlackHoleProxy> {
  const pairs = new Set<Pair>();
  let silent = false;
  /** What waits for the proxy to forward again: connections to open, closes to pass on. */
  let waiting: (() => void)[] = [];
  const whenForwarding = (step: () => void) => {
    if (silent) waiting.push(step);
    else step();
  };
  const open = (pair: Pair) => {
    const upstream = connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    pair.downstream.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => pair.downstream.write(chunk));
    pair.downstream.on('close', () => whenForwarding(() => upstream.destroy()));
    upstream.on('close', () =>
      whenForwarding(() => {
        pair.downstream.destroy();
        pairs.delete(pair);
      }),
    );
    pair.downstream.resume();
  };
  const server: Server = createServer({ pauseOnConnect: true }, (downstream) => {
    const pair: Pair = { downstream, upstream: null };
    pairs.add(pair);
    downstream.on('error', () => undefined);
    whenForwarding(() => open(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    blackHole() {
      silent = true;
      for (const pair of pairs) {
        pair.downstream.pause();
        pair.upstream?.pause();
      }
    },
    forward() {
      silent = false;
      for (const pair of pairs) {
        if (pair.upstream === null) continue;
        pair.downstream.resume();
        pair.upstream.resume();
      }
      const steps = waiting;
      waiting = [];
      for (const step of steps) step();
    },
    upstreamPorts() {
      return [...pairs].flatMap((pair) => (pair.upstream?.localPort === undefined ? [] : [pair.upstream.localPort]));
    },
    async close() {
      for (const pair of pairs) {
        pair.downstream.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
