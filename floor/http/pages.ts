import { readFloorClock } from '../clock';
import { floorRaceRecord, readFloorStatus } from '../fold';
import { brokenMidColourUp, clockSection, FLOOR_CSS, renderLogin, renderMessage, renderOverview, renderRaceRecord, renderSeating, renderTournament } from '../page/render';
import { renderRunner, RUNNER_PRINT_CSS } from '../page/runnerPage';
import { reconcile, readTicks, runnerBreak } from '../runner';
import { readSeating } from '../seating';
import { HTML, plain, send } from './answer';
import type { Exchange, FloorHttp, Handler } from './route';
import { tableHtml, tablePage } from './tables';
import type { FloorKey } from '../page/words';

/** The floor's GET pages: each read in one connection of the pool, rendered by floor/page/render.ts. */

export const styles: Handler = ({ response, head }) => send(response, 200, 'text/css; charset=utf-8', FLOOR_CSS + RUNNER_PRINT_CSS, {}, head);

/** The sign-in page: reached by whoever has signed in already (whoever has not is shown it 401, as for every page). */
export const signInPage: Handler = ({ response, language, head }) => send(response, 200, HTML, renderLogin(language, false), {}, head);

/** A form's address asked with GET: 405, only POST. */
export const postOnly = (key: FloorKey): Handler => ({ request, response, head }) => plain(request, response, 405, key, undefined, { Allow: 'POST' }, head);

/** Every table of the tournament, the clock, the tables broken mid-colour-up. */
export async function overview({ response, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const { status, clock, seating } = await floor.withClient(async (client) => ({ status: await readFloorStatus(client), clock: await readFloorClock(client), seating: await readSeating(client) }));
  floor.saw({ status, clock, at: floor.now() });
  send(response, 200, HTML, renderOverview(status, language, floor.now(), clockSection(clock, language, floor.now()), '', brokenMidColourUp(status, seating, language)), {}, head);
}

export async function tournament({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const page = await floor.withClient(async (client) => renderTournament(await readFloorClock(client), language, null, query.get('loaded') === '1'));
  send(response, 200, HTML, page, {}, head);
}

export async function seating({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const page = await floor.withClient(async (client) => renderSeating(await readFloorStatus(client), await readSeating(client), language, null, query.get('loaded') === '1'));
  send(response, 200, HTML, page, {}, head);
}

/** The chip runner's sheet: the break asked (?level=, digits), else the one the floor is at. */
export async function runner({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const asked = query.get('level');
  const page = await floor.withClient(async (client) => {
    const status = await readFloorStatus(client);
    const level = asked !== undefined && /^\d{1,4}$/.test(asked) ? Number(asked) : runnerBreak(status);
    return renderRunner(reconcile(status, level === null ? [] : await readTicks(client, level), level), language);
  });
  send(response, 200, HTML, page, {}, head);
}

export async function table({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const name = query.get('table') as string;
  const found = await floor.withClient((client) => tablePage(client, name));
  if (found === null) send(response, 404, HTML, renderMessage(language, 'floor.page.notFound'), {}, head);
  else send(response, 200, HTML, tableHtml(found, name, language, floor.now()), {}, head);
}

export async function race({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> {
  const name = query.get('table') as string;
  const record = await floor.withClient(async (client) => floorRaceRecord(client, name, query.get('race') as string));
  if (record === null) send(response, 404, HTML, renderMessage(language, 'floor.page.notFound'), {}, head);
  else send(response, 200, HTML, renderRaceRecord(name, record, language), {}, head);
}
