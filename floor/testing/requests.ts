import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkServerIdentity } from 'node:tls';

/** What a server answered a raw request. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the Host and Origin headers as a test sets them, not as a client library would. With `ca`, over HTTPS trusting that authority (PEM), the certificate checked for the address connected to (127.0.0.1) whatever Host says. */
export function ask(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string; ca?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = options.ca === undefined ? httpRequest : httpsRequest;
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers }, setHost: false, ...(options.ca === undefined ? {} : { ca: options.ca, checkServerIdentity: (_name: string, cert: Parameters<typeof checkServerIdentity>[1]) => checkServerIdentity('127.0.0.1', cert) }) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Waits until `probe` gives something truthy (the link, the clock, the floor catching up), and returns it. */
export async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
