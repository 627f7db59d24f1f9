import type { IncomingMessage, ServerResponse } from 'node:http';
import { languageOf, say, type FloorKey, type FloorLanguage, type FloorMessage, type FloorParam } from '../page/words';

/**
 * How the floor server answers (its security headers on every answer) and reads what it is sent:
 * the request's language, its form, its body.
 */

/** The longest request target the floor reads: its own links are far shorter. */
export const MAX_TARGET_LENGTH = 2048;
const MAX_FORM_BYTES = 4096;

/** Only same-origin styles, no script, no frames, forms only to the floor itself. */
export const FLOOR_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
export const HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': FLOOR_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` with the page's own forms (the
  // sign-in, the clock's buttons), which the Origin check must refuse. same-origin sends the
  // floor's origin to itself and nothing to anyone else.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export const HTML = 'text/html; charset=utf-8';
export const TEXT = 'text/plain; charset=utf-8';

/** A request the floor will not read, and why (in keys: the answer is said in the asker's language). */
export class BadRequest extends Error {
  readonly said: FloorMessage;
  constructor(said: FloorMessage) {
    super(said.key);
    this.said = said;
  }
}

export function send(response: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}, head = false): void {
  response.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
  response.end(head ? undefined : body);
}

/**
 * The language of a request the floor answers in plain text: its `lang` when it names one (read
 * leniently: the request may be one the floor refuses), else its Accept-Language, else English.
 */
export function requestLanguage(request: IncomingMessage): FloorLanguage {
  const lang = /[?&]lang=([a-z]{2})(?:&|$)/.exec((request.url ?? '').slice(0, MAX_TARGET_LENGTH))?.[1] ?? null;
  const accept = request.headers['accept-language'];
  return languageOf(lang, typeof accept === 'string' ? accept : undefined);
}

/** A plain-text answer in the asker's language (floor.http.*). */
export function plain(request: IncomingMessage, response: ServerResponse, status: number, key: FloorKey, params?: Readonly<Record<string, FloorParam>>, extra: Record<string, string> = {}, head = false): void {
  send(response, status, TEXT, `${say(requestLanguage(request), key, params)}\n`, extra, head);
}

/** 400 in plain text: the form could not be read. */
export function badForm(request: IncomingMessage, response: ServerResponse): void {
  plain(request, response, 400, 'floor.http.badRequest', { why: { message: { key: 'floor.http.why.form' } } });
}

/** A 303 to `location`. */
export function seeOther(response: ServerResponse, location: string, extra: Record<string, string> = {}): void {
  send(response, 303, TEXT, '', { Location: location, ...extra });
}

/** The sign-in form's fields, or null when it is too large or not a form. */
export async function readForm(request: IncomingMessage): Promise<Map<string, string> | null> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/x-www-form-urlencoded')) return null;
  const body = await readBody(request, MAX_FORM_BYTES);
  if (body === null) return null;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (fields.has(name)) return null;
    fields.set(name, value);
  }
  return fields;
}

/** A request's body, or null when it is larger than `maxBytes`. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
