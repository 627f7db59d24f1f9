import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../protocol/contentSecurityPolicy';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface StaticResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | string;
}

/** Headers on every response: the same strict policy the Electron window has, and no sniffing or framing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * Resolves a request path inside the built renderer folder; anything that would leave it (`..`,
 * encoded slashes) is refused. `/` is the console's index.html.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  return full === root || full.startsWith(root.endsWith(sep) ? root : root + sep) ? full : null;
}

export async function serveStatic(root: string, urlPath: string): Promise<StaticResponse> {
  const path = resolveStaticPath(root, urlPath);
  if (path === null) return { status: 400, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' }, body: 'bad path' };
  try {
    const body = await readFile(path);
    return { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }, body };
  } catch {
    return { status: 404, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' }, body: 'not found' };
  }
}
