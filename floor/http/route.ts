import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTableName } from '../../protocol/tableName';
import { parseSeparator } from '../../replay/csv';
import type { FloorClock } from '../../protocol/clock';
import type { FloorStatus } from '../fold';
import type { WithClient } from '../pool';
import { isFloorLanguage, type FloorLanguage, type FloorKey } from '../page/words';

/**
 * A route of the floor server: one row of the table floor/http/routes.ts holds, matched and
 * checked by floor/http/dispatch.ts before its handler is called.
 *
 * - `who`: 'anyone' (the stylesheet, the sign-in form), or 'signed-in': whoever shows the token
 *   (floor/http/signIn.ts; on loopback, without a token, everybody). There is no other role: the
 *   director, a floor person and the chip runner all sign in with the one token.
 * - `parameters`: the query parameters the route takes, each checked as QUERY_CHECKS says; a
 *   'required' one missing is a bad request (400, the page's own). A path's query is read before
 *   its method is looked at: any parameter no route of the path takes is refused on every method.
 * - GET answers HEAD too (the headers, no body); a POST must come from the floor's own page (its
 *   Origin).
 */
export type Who = 'anyone' | 'signed-in';

export type QueryName = 'lang' | 'table' | 'race' | 'sep' | 'level' | 'loaded';

export type Parameters = Readonly<Partial<Record<QueryName, 'optional' | 'required'>>>;

const RACE_ID = /^race-[1-9][0-9]{0,8}$/;

/** Each query parameter's check (null: the handler reads it leniently), in the order they are checked, and the refusal's reason. */
export const QUERY_CHECKS: Readonly<Record<QueryName, { readonly ok: (value: string) => boolean; readonly why: FloorKey } | null>> = {
  lang: { ok: isFloorLanguage, why: 'floor.http.why.lang' },
  table: { ok: isTableName, why: 'floor.http.why.table' },
  race: { ok: (value) => RACE_ID.test(value), why: 'floor.http.why.race' },
  sep: { ok: (value) => parseSeparator(value) !== null, why: 'floor.http.why.sep' },
  // The runner's level: digits, else the break the floor is at (floor/http/pages.ts).
  level: null,
  // The upload's answer (loaded=1): the page says it was loaded.
  loaded: null,
};

/** One request as a handler is given it: its query checked, its language read. */
export interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly query: ReadonlyMap<string, string>;
  /** The query's `lang`, else the browser's Accept-Language, else English. */
  readonly language: FloorLanguage;
  /** A HEAD: the headers only. */
  readonly head: boolean;
}

/** The overview's data as last read: shown, with the outage banner, while the database is gone. */
export interface LastView {
  readonly status: FloorStatus;
  readonly clock: FloorClock | null;
  readonly at: number;
}

/** What the handlers reach of the server. */
export interface FloorHttp {
  readonly now: () => number;
  readonly log: (line: string) => void;
  readonly withClient: WithClient;
  readonly signIn: SignIn;
  /** An export written as its pieces come (floor/http/exports.ts). */
  readonly streamExport: (response: ServerResponse, type: string, extra: Record<string, string>, head: boolean, pieces: AsyncGenerator<string, void, undefined>) => Promise<void>;
  /** The overview as it was just read. */
  saw(view: LastView): void;
}

export type Handler = (exchange: Exchange, floor: FloorHttp) => Promise<void> | void;

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: `/${string}`;
  readonly parameters: Parameters;
  readonly who: Who;
  readonly handler: Handler;
}

/** What a request shows of the floor's token (floor/http/signIn.ts decides it). */
export type Shown = 'right' | 'wrong' | 'busy' | 'none';

export interface SignIn {
  /** Whether the request shows the token (Bearer, or the sign-in cookie); 'none' when it shows nothing, 'busy' when its address has too many guesses waiting. */
  authorised(request: IncomingMessage): Promise<Shown>;
  /** The sign-in form (POST /login): the cookie set, or the form again. */
  signInForm(exchange: Exchange): Promise<void>;
  /** Where the floor listens: the cookie's name (cookies ignore ports) and whether it is Secure. */
  listening(port: number, scheme: 'http' | 'https'): void;
}
