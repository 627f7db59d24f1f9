import type { Route } from './route';
import { exportFile } from './exports';
import { postClock, postDecision, postRunnerTick, postSeating, postTournament } from './forms';
import { overview, postOnly, race, runner, seating, signInPage, styles, table, tournament } from './pages';
import { postSeat } from './tables';

/**
 * The floor server's routes: every one it answers, its query parameters and who may use it
 * (floor/http/route.ts). floor/http/dispatch.ts matches a request to one and makes the checks
 * (Host, Origin, query, sign-in) the same way for all of them.
 *
 * No route writes station data: the pages and the exports only read what the background fold
 * wrote (floor/daemon.ts; the fold writes only the floor's own summary tables); the clock's
 * buttons and the tournament's upload write only the floor's clock, the seating's forms only the
 * floor's seating (floor/seating.ts), the decision form only floor_decisions, the runner's ticks
 * only floor_runner_ticks.
 */
export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/floor.css', parameters: {}, who: 'anyone', handler: styles },
  { method: 'GET', path: '/login', parameters: { lang: 'optional' }, who: 'signed-in', handler: signInPage },
  // The sign-in form: its own check of the token (floor/http/signIn.ts), paced as every other.
  { method: 'POST', path: '/login', parameters: { lang: 'optional' }, who: 'anyone', handler: (exchange, floor) => floor.signIn.signInForm(exchange) },

  { method: 'GET', path: '/', parameters: { lang: 'optional' }, who: 'signed-in', handler: overview },
  { method: 'GET', path: '/table', parameters: { lang: 'optional', table: 'required' }, who: 'signed-in', handler: table },
  { method: 'GET', path: '/race', parameters: { lang: 'optional', table: 'required', race: 'required' }, who: 'signed-in', handler: race },
  { method: 'GET', path: '/tournament', parameters: { lang: 'optional', loaded: 'optional' }, who: 'signed-in', handler: tournament },
  { method: 'GET', path: '/seating', parameters: { lang: 'optional', loaded: 'optional' }, who: 'signed-in', handler: seating },
  { method: 'GET', path: '/runner', parameters: { lang: 'optional', level: 'optional' }, who: 'signed-in', handler: runner },

  { method: 'GET', path: '/export.csv', parameters: { lang: 'optional', sep: 'optional' }, who: 'signed-in', handler: exportFile(true, false) },
  { method: 'GET', path: '/export.json', parameters: {}, who: 'signed-in', handler: exportFile(false, false) },
  { method: 'GET', path: '/export/summary.csv', parameters: { lang: 'optional', sep: 'optional' }, who: 'signed-in', handler: exportFile(true, true) },
  { method: 'GET', path: '/export/summary.json', parameters: {}, who: 'signed-in', handler: exportFile(false, true) },

  // The page's forms: the clock's buttons and the held break's option, the tournament's upload,
  // the seat list's, a seat's form, the runner's ticks, the director's decisions.
  { method: 'POST', path: '/clock', parameters: {}, who: 'signed-in', handler: postClock },
  { method: 'GET', path: '/clock', parameters: {}, who: 'signed-in', handler: postOnly('floor.http.clockMethod') },
  { method: 'POST', path: '/tournament', parameters: { lang: 'optional' }, who: 'signed-in', handler: postTournament },
  { method: 'POST', path: '/seating', parameters: { lang: 'optional' }, who: 'signed-in', handler: postSeating },
  { method: 'POST', path: '/seat', parameters: {}, who: 'signed-in', handler: postSeat },
  { method: 'GET', path: '/seat', parameters: {}, who: 'signed-in', handler: postOnly('floor.http.seatMethod') },
  { method: 'POST', path: '/runner', parameters: { lang: 'optional' }, who: 'signed-in', handler: postRunnerTick },
  { method: 'POST', path: '/decision', parameters: {}, who: 'signed-in', handler: postDecision },
  { method: 'GET', path: '/decision', parameters: {}, who: 'signed-in', handler: postOnly('floor.http.decisionMethod') },
];
