import type { IncomingMessage, ServerResponse } from 'node:http';
import { adjustForMinutesLeft } from '../../engine/clock/clock';
import { NAME_MAX } from '../../protocol/constants';
import { isTableName } from '../../protocol/tableName';
import { actOnFloorClock, loadFloorTournament, readFloorClock, TOURNAMENT_MAX_BYTES, type ClockAction } from '../clock';
import { recordDecision } from '../decisions';
import { readFloorStatus } from '../fold';
import { setHoldBreaks } from '../hold';
import { multipartBoundary, readMultipart } from '../multipart';
import { clockSection, renderMessage, renderOverview, renderSeating, renderTournament } from '../page/render';
import { renderRunner } from '../page/runnerPage';
import { languageOf, say, sayMessage, type FloorLanguage } from '../page/words';
import { reconcile, readTicks, recordTick, runnerName } from '../runner';
import { isFloorRefusal } from '../refusal';
import { readSeating, SEATING_MAX_BYTES, seatingFromCsv, setSeating } from '../seating';
import { badForm, HTML, readBody, readForm, seeOther, send } from './answer';
import type { Exchange, FloorHttp } from './route';
import { sendTablePage } from './tables';

/**
 * The page's forms but the seats' (floor/http/tables.ts) and the sign-in (floor/http/signIn.ts):
 * each acts, then 303 to its page; a refusal (an InputError, the floor's or the engine's) is its
 * page again with the refusal in the form's language. The dispatcher has checked the Origin and the sign-in.
 */

/** The clock's buttons: what each posts, and what it does. */
const CLOCK_ACTIONS: Readonly<Record<string, ClockAction>> = {
  start: { type: 'start' },
  pause: { type: 'pause' },
  resume: { type: 'resume' },
  // "−1 min" and "+1 min": a minute less or more left in the level.
  less: { type: 'adjust', by: adjustForMinutesLeft(-1) },
  more: { type: 'adjust', by: adjustForMinutesLeft(1) },
};

/** The held break's option (floor/hold.ts): what each button posts, on or off. */
const HOLD_ACTIONS: Readonly<Record<string, boolean>> = { 'hold-on': true, 'hold-off': false };

/** The clock's buttons and the held break's option: the clock acted on, or the overview again with the refusal (paused twice, no structure). */
export async function postClock({ request, response, language }: Exchange, floor: FloorHttp): Promise<void> {
  const form = await readForm(request);
  const named = form?.get('action') ?? '';
  const action = CLOCK_ACTIONS[named];
  const hold = HOLD_ACTIONS[named];
  if (form === null || (action === undefined && hold === undefined) || form.size > 2) {
    send(response, 400, HTML, renderMessage(language, 'floor.page.badRequest'));
    return;
  }
  const formLanguage = languageOf(form.get('lang') ?? null, undefined);
  const now = floor.now;
  try {
    await floor.withClient(async (client) => {
      if (hold !== undefined) await setHoldBreaks(client, hold, now());
      else await actOnFloorClock(client, action as ClockAction, now());
    });
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    // Refused (paused twice, no structure): the floor again, the refusal in its language.
    const said = error.said;
    const page = await floor.withClient(async (client) => {
      const clock = await readFloorClock(client);
      return renderOverview(await readFloorStatus(client), formLanguage, now(), clockSection(clock, formLanguage, now(), sayMessage(formLanguage, said)));
    });
    send(response, 409, HTML, page);
    return;
  }
  seeOther(response, `/?lang=${formLanguage}`);
}

/** The chip runner's tick (a form of the runner's sheet): the chips the sheet says now, who ticked them; refused without a name or for a table without this break. */
export async function postRunnerTick({ request, response, language }: Exchange, floor: FloorHttp): Promise<void> {
  const form = await readForm(request);
  const formLanguage = languageOf(form?.get('lang') ?? null, undefined);
  const kind = form?.get('kind');
  const level = Number(form?.get('level'));
  const tableName = form?.get('table') ?? '';
  if (form === null || form.size > 5 || (kind !== 'delivered' && kind !== 'collected') || !Number.isSafeInteger(level) || level < 0 || !isTableName(tableName)) {
    send(response, 400, HTML, renderMessage(language, 'floor.page.badRequest'));
    return;
  }
  const by = runnerName(form.get('by'));
  const refused = await floor.withClient(async (client) => {
    const status = await readFloorStatus(client);
    const row = status.tables.find((entry) => entry.table === tableName && entry.sheetAfterLevel === level);
    if (by === null || row === undefined) return renderRunner(reconcile(status, await readTicks(client, level), level), formLanguage, say(formLanguage, 'floor.page.runner.badTick', { n: NAME_MAX }));
    // The chips the sheet says now: what the runner took or brought.
    await recordTick(client, { table: tableName, afterLevel: level, kind, by, chips: kind === 'delivered' ? row.bring : row.collect });
    return null;
  });
  if (refused !== null) send(response, 422, HTML, refused);
  else seeOther(response, `/runner?lang=${formLanguage}&level=${level}`);
}

/** The director's decision on a table (its page's form): refused without a note or a name, said on the table's page again. */
export async function postDecision({ request, response, language }: Exchange, floor: FloorHttp): Promise<void> {
  const form = await readForm(request);
  const decidedTable = form?.get('table');
  if (form === null || decidedTable === undefined || form.size > 6) {
    send(response, 400, HTML, renderMessage(language, 'floor.page.badRequest'));
    return;
  }
  const formLanguage = languageOf(form.get('lang') ?? null, undefined);
  try {
    await floor.withClient((client) => recordDecision(client, { table: decidedTable, decision: form.get('decision'), note: form.get('note'), by: form.get('by'), raceId: form.get('race') }));
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    // Refused (no note, nobody named): the table's page again, the refusal in its language.
    await sendTablePage(floor, response, decidedTable, formLanguage, 400, { decisionProblem: sayMessage(formLanguage, error.said) });
    return;
  }
  seeOther(response, `/table?table=${encodeURIComponent(decidedTable)}&lang=${formLanguage}`);
}

/**
 * An upload's form (multipart: the page's language and one file of at most `maxBytes`, with room
 * for the form's own lines), or null once answered: 400, too large or malformed.
 */
async function readUpload(request: IncomingMessage, response: ServerResponse, maxBytes: number): Promise<{ file: string; language: FloorLanguage } | null> {
  const boundary = multipartBoundary(request.headers['content-type']);
  const body = boundary === null ? null : await readBody(request, maxBytes + 4096);
  const form = boundary === null || body === null ? null : readMultipart(body, boundary, ['lang', 'file']);
  const file = form?.get('file');
  if (form === null || file === undefined) {
    badForm(request, response);
    return null;
  }
  return { file: file.value, language: languageOf(form.get('lang')?.value ?? null, undefined) };
}

/**
 * The tournament sheet uploaded (multipart): loaded as `floor structure --file` loads it, or the
 * tournament page again with the refusal (a line of the sheet, a break on, a race open), the
 * tournament the floor held kept.
 */
export async function postTournament({ request, response }: Exchange, floor: FloorHttp): Promise<void> {
  const upload = await readUpload(request, response, TOURNAMENT_MAX_BYTES);
  if (upload === null) return;
  const formLanguage = upload.language;
  try {
    await floor.withClient((client) => loadFloorTournament(client, upload.file, floor.now()));
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    const said = error.said;
    const page = await floor.withClient(async (client) => renderTournament(await readFloorClock(client), formLanguage, sayMessage(formLanguage, said)));
    send(response, 409, HTML, page);
    return;
  }
  seeOther(response, `/tournament?lang=${formLanguage}&loaded=1`);
}

/** The seat list uploaded (multipart): the whole seating replaced, or the seating page again with the refusal naming the line. */
export async function postSeating({ request, response }: Exchange, floor: FloorHttp): Promise<void> {
  const upload = await readUpload(request, response, SEATING_MAX_BYTES);
  if (upload === null) return;
  const { file, language: formLanguage } = upload;
  try {
    const rows = seatingFromCsv(file);
    await floor.withClient((client) => setSeating(client, rows, 'seating page'));
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    const said = error.said;
    const page = await floor.withClient(async (client) => renderSeating(await readFloorStatus(client), await readSeating(client), formLanguage, sayMessage(formLanguage, said)));
    send(response, 409, HTML, page);
    return;
  }
  seeOther(response, `/seating?lang=${formLanguage}&loaded=1`);
}
