import type { Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';

/** Whether a listen address keeps the console on this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.split('.')[0] === '127';
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Browser mode speaks plain HTTP: its browser key (station/web/key.ts) would cross a network
 * unencrypted, so it listens on loopback only; another address is refused unless the operator
 * asked for it explicitly. The console then answers to that address as well (station/web/access.ts).
 */
export function checkListenHost(host: string, allowNonLoopback: boolean): void {
  if (!isLoopbackHost(host) && !allowNonLoopback) {
    throw new Error(`refusing to listen on ${host}: browser mode speaks plain HTTP and listens on loopback (127.0.0.1) only; set CHIP_RACE_ALLOW_REMOTE=1 to override on a trusted network`);
  }
}

/**
 * Starts `server` listening, resolving once it does (rejecting with the listen error: a port in
 * use, an address not on this machine); afterwards an error of the listening socket itself (too
 * many open files…) is logged, not fatal. Returns the port and the address as a URL writes it.
 */
export async function listenOn(server: Server, port: number, host: string, log: (line: string) => void): Promise<{ readonly port: number; readonly shownHost: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error: Error) => log(`server: ${error.message}`));
  const address = server.address() as AddressInfo;
  return { port: address.port, shownHost: address.family === 'IPv6' ? `[${address.address}]` : address.address };
}
