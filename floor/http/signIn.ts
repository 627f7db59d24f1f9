import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readCookie } from '../../net/cookies';
import { keyMatches } from '../../net/keys';
import { renderLogin } from '../page/render';
import { languageOf } from '../page/words';
import { createGuessPacer, guessSource } from '../guesses';
import { badForm, HTML, plain, readForm, seeOther, send } from './answer';
import type { SignIn } from './route';
import type { ServerResponse } from 'node:http';

/**
 * Who may use the floor: on loopback anyone; else whoever shows the token, as `Authorization:
 * Bearer` or as the cookie the sign-in form (POST /login) sets. The cookie holds a value derived
 * from the token, not the token: any printable token (`openssl rand -base64`'s `+ / =`, a space,
 * `%`) signs in, and no cookie encoding stands between the two. Both are compared in constant time
 * (net/keys.ts keyMatches). Wrong tokens are answered slowly, one after another per client address
 * (floor/guesses.ts), and each is logged with its time and address (never the guess).
 */

/** The shortest token the floor takes for the LAN: a password guessed in minutes would guard nothing. */
export const TOKEN_MIN_LENGTH = 12;
const TOKEN_MAX_LENGTH = 512;
/** How far apart one client address's wrong tokens are answered: at most 4 guesses a second. */
export const GUESS_SPACING_MS = 250;
/** Guesses one address may have waiting for their answer; more are refused unchecked (429). */
const MAX_WAITING_GUESSES = 32;
/** Whether a token holds a control character: a form, a header or a file would not carry it as typed. */
const hasControlCharacter = (value: string): boolean => [...value].some((character) => {
  const code = character.codePointAt(0) as number;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
});

/** The token as the floor takes it, or why not (thrown). */
export function checkToken(token: string | undefined): void {
  if (token !== undefined && (token.length < TOKEN_MIN_LENGTH || token.length > TOKEN_MAX_LENGTH)) throw new Error(`the floor's token must be ${TOKEN_MIN_LENGTH} to ${TOKEN_MAX_LENGTH} characters`);
  if (token !== undefined && (hasControlCharacter(token) || token.trim() !== token)) throw new Error("the floor's token must be printable characters, with no space at its start or end");
}

/** 429: the address's guesses wait already. */
export function tooManyGuesses(request: IncomingMessage, response: ServerResponse): void {
  plain(request, response, 429, 'floor.http.tooManyGuesses', undefined, { 'Retry-After': '10' });
}

export function createSignIn(token: string | undefined, log: (line: string) => void): SignIn {
  // What the sign-in cookie holds: the token's own proof, base64url (a cookie carries it unencoded).
  const session = token === undefined ? undefined : createHmac('sha256', token).update('chip-race-floor session').digest('base64url');
  const pacer = createGuessPacer({ spacingMs: GUESS_SPACING_MS, maxWaiting: MAX_WAITING_GUESSES });
  let cookie = 'chip-race-floor';
  let secure = false;

  /**
   * A shown token paced: answered once its address's wrong guesses are paid for ('busy': too many
   * waiting). A wrong one is logged (time and address, never the guess).
   */
  const checkGuess = async (request: IncomingMessage, matches: boolean): Promise<'right' | 'wrong' | 'busy'> => {
    const address = request.socket.remoteAddress ?? 'unknown';
    if (!matches) log(`${new Date().toISOString()} wrong token from ${address}`);
    if (!(await pacer.pace(guessSource(address), matches))) return 'busy';
    return matches ? 'right' : 'wrong';
  };

  return {
    async authorised(request) {
      if (token === undefined || session === undefined) return 'right';
      const header = request.headers.authorization;
      // A header's bytes arrive as Latin-1: read back as the UTF-8 the client sent.
      if (typeof header === 'string' && header.startsWith('Bearer ')) return checkGuess(request, keyMatches(token, Buffer.from(header.slice(7), 'latin1').toString('utf8')));
      const cookieHeader = request.headers.cookie;
      const shown = readCookie(typeof cookieHeader === 'string' ? cookieHeader : undefined, cookie);
      if (shown === null) return 'none';
      return checkGuess(request, keyMatches(session, shown));
    },
    async signInForm({ request, response }) {
      const form = await readForm(request);
      if (form === null) {
        badForm(request, response);
        return;
      }
      const formLanguage = languageOf(form.get('lang') ?? null, undefined);
      if (token === undefined || session === undefined) {
        send(response, 401, HTML, renderLogin(formLanguage, true));
        return;
      }
      const guess = await checkGuess(request, keyMatches(token, form.get('token') ?? null));
      if (guess === 'busy') {
        tooManyGuesses(request, response);
        return;
      }
      if (guess === 'wrong') {
        send(response, 401, HTML, renderLogin(formLanguage, true));
        return;
      }
      seeOther(response, `/?lang=${formLanguage}`, { 'Set-Cookie': `${cookie}=${session}; HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}` });
    },
    listening(port, scheme) {
      // Cookies ignore ports: two floors on one machine each need a name of their own.
      cookie = `chip-race-floor-${port}`;
      secure = scheme === 'https';
    },
  };
}
