import { isIP } from 'node:net';
import { isLoopbackHost } from './loopback';

/**
 * The `Host` names a server on this machine answers to: the loopback names, the address it is
 * bound to, and the names it was given. Any other `Host` is a DNS name someone pointed at it
 * (rebinding), refused. Browser mode and the floor's page both check with this.
 */
export interface HostOptions {
  readonly port: number;
  /** The address the server is bound to, as an IP literal (`[...]` for IPv6). */
  readonly boundHost: string;
  /** The configured listen host, added to the names only when listening beyond loopback was allowed. */
  readonly listenHost: string;
  readonly allowNonLoopback: boolean;
  /** More names the server answers to (the floor's interface addresses and its `--name`s), added as given. */
  readonly names?: readonly string[];
}

function withBrackets(host: string): string {
  return isIP(host) === 6 && !host.startsWith('[') ? `[${host}]` : host;
}

/** The `Host` values the console answers to, lower case: its names with the port (and without it on port 80, as browsers send it). */
export function allowedHosts(options: HostOptions): ReadonlySet<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // The bound address is an IP literal, which no DNS answer can rebind (and it is the printed one:
  // 127.0.0.2 when told to listen there).
  if (isLoopbackHost(options.boundHost.replace(/^\[|\]$/g, ''))) names.push(withBrackets(options.boundHost));
  if (options.allowNonLoopback && !isLoopbackHost(options.listenHost)) names.push(withBrackets(options.listenHost), withBrackets(options.boundHost));
  for (const name of options.names ?? []) names.push(withBrackets(name));
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name.toLowerCase()}:${options.port}`);
    if (options.port === 80) hosts.add(name.toLowerCase());
  }
  return hosts;
}
