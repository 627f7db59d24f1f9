import type pg from 'pg';
import type { ServerResponse } from 'node:http';
import { isTableName } from '../../protocol/tableName';
import { tableCalls } from '../calls';
import { tableDecisions } from '../decisions';
import { readFloorStatus, tableRaces } from '../fold';
import { seatingChangeText, seatsText, tableSeatsSection, renderMessage, renderTable, type SeatConfirmation } from '../page/render';
import { languageOf, say, sayMessage, type FloorLanguage } from '../page/words';
import { breakTable, checkPlace, checkStations, moveSeat, readSeating, readSeatingChanges, typedTableName, undoableChange, undoSeatingChange, unseat } from '../seating';
import { FloorRefusal, isFloorRefusal } from '../refusal';
import { badForm, HTML, readForm, seeOther, send } from './answer';
import type { Exchange, FloorHttp } from './route';

/** What a table's page shows, read in one connection: its status row, races, seating, the director's decisions and its calls of the floor; null for no such table. */
export async function tablePage(client: pg.ClientBase, table: string) {
  const row = (await readFloorStatus(client)).tables.find((entry) => entry.table === table);
  if (row === undefined) return null;
  return {
    row,
    races: await tableRaces(client, table),
    seating: (await readSeating(client)).find((entry) => entry.table === table),
    changes: await readSeatingChanges(client, table),
    decisions: await tableDecisions(client, table),
    calls: await tableCalls(client, table),
  };
}

type TablePage = NonNullable<Awaited<ReturnType<typeof tablePage>>>;

/** What a form came back with: the decision form's refusal, the seats' refusal, or the question a seat form waits on. */
export interface TableShown {
  readonly decisionProblem?: string;
  readonly seatsProblem?: string;
  readonly confirmation?: SeatConfirmation;
}

/** A table's page as HTML, with what a form came back with. */
export function tableHtml(found: TablePage, table: string, language: FloorLanguage, now: number, shown: TableShown = {}): string {
  const seats = tableSeatsSection(table, found.seating, language, shown.seatsProblem ?? null, found.changes, shown.confirmation ?? null);
  return renderTable(found.row, found.races, language, now, seats, found.decisions, shown.decisionProblem ?? null, found.calls);
}

/** The table's page again after a form, with what the form came back with (a refusal, a question); 404 for no such table. */
export async function sendTablePage(floor: FloorHttp, response: ServerResponse, table: string, language: FloorLanguage, status: number, shown: TableShown): Promise<void> {
  const page = await floor.withClient(async (client) => {
    const found = await tablePage(client, table);
    return found === null ? null : tableHtml(found, table, language, floor.now(), shown);
  });
  if (page === null) send(response, 404, HTML, renderMessage(language, 'floor.page.notFound'));
  else send(response, status, HTML, page);
}

/** A seat number as a form gives it (1 or 2 digits, spaces around allowed), else NaN: refused where it is checked (checkPlace). */
const seatOf = (value: string | undefined): number => (value !== undefined && /^\s*\d{1,2}\s*$/.test(value) ? Number(value) : NaN);
/** A change's id as the undo form gives it, else NaN (no change has it). */
const changeIdOf = (value: string | undefined): number => (value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : NaN);

/**
 * The question a seat form asks before it acts (issue 43: "Out", "moved" and "table broken" were
 * one tap from harm): the action in words, with the player it is about as the floor holds them now.
 * Refused as the action itself would be when there is nothing to act on.
 */
async function seatQuestion(client: pg.ClientBase, form: ReadonlyMap<string, string>, table: string, language: FloorLanguage): Promise<SeatConfirmation> {
  const action = form.get('action');
  const seat = seatOf(form.get('seat'));
  const all = await readSeating(client);
  const seating = all.find((entry) => entry.table === table);
  const playerAt = (at: number) => {
    checkPlace(table, at);
    const player = seating?.seats.find((entry) => entry.seat === at)?.player;
    if (player === undefined) throw new FloorRefusal('seat', { key: 'floor.seating.noSeat', params: { table, seat: at } });
    return player;
  };
  if (action === 'out') return { question: say(language, 'floor.page.seats.confirmOut', { player: playerAt(seat), seat, table }), fields: { action, seat: String(seat) } };
  if (action === 'move') {
    const player = playerAt(seat);
    const toTable = typedTableName(form.get('to-table') ?? '');
    const toSeat = seatOf(form.get('to-seat'));
    checkPlace(toTable, toSeat);
    // A table the floor has no station for is refused before the question (issue 44: a typo made a table).
    if (toTable !== table) await checkStations(client, [toTable]);
    // Asked only about a move that can be made now (the seat free, the table not broken).
    const there = all.find((entry) => entry.table === toTable);
    const taken = there?.seats.find((entry) => entry.seat === toSeat)?.player;
    if (taken !== undefined) throw new FloorRefusal('seat', { key: 'floor.seating.seatTaken', params: { table: toTable, seat: toSeat, player: taken } });
    if (there?.brokenAt) throw new FloorRefusal('seat', { key: 'floor.seating.broken', params: { table: toTable } });
    return { question: say(language, 'floor.page.seats.confirmMove', { player, table, seat, toTable, toSeat }), fields: { action, seat: String(seat), 'to-table': toTable, 'to-seat': String(toSeat) } };
  }
  if (action === 'break') {
    await checkStations(client, [table], { seated: true });
    return { question: say(language, 'floor.page.seats.confirmBreak', { table, players: seatsText(seating?.seats ?? []) }), fields: { action } };
  }
  const id = changeIdOf(form.get('change'));
  // Refused as the undo itself would be (another table's change is not this page's to undo).
  const change = await undoableChange(client, id, table);
  return { question: say(language, 'floor.page.seats.confirmUndo', { id, change: seatingChangeText(change, language) }), fields: { action: 'undo', change: String(id) } };
}

/** The fields each seat action's form carries besides table, action, lang, confirm and by. */
const SEAT_FIELDS: Readonly<Record<string, readonly string[]>> = { out: ['seat'], move: ['seat', 'to-table', 'to-seat'], break: [], undo: ['change'] };

/**
 * A seat's form on a table's page: a player out, moved, the table broken, a change undone. Asked
 * once: without `confirm=yes` the table's page comes back with the question and a field for the
 * director's name; with it (and the name) the change is made and kept with who and when. A
 * refusal is shown on the table's page, nothing changed.
 */
export async function postSeat({ request, response }: Exchange, floor: FloorHttp): Promise<void> {
  const form = await readForm(request);
  const table = form?.get('table');
  const action = form?.get('action');
  const fields = action === undefined ? undefined : SEAT_FIELDS[action];
  if (form === null || table === undefined || !isTableName(table) || fields === undefined || [...form.keys()].some((name) => !['table', 'action', 'lang', 'confirm', 'by', ...fields].includes(name))) {
    badForm(request, response);
    return;
  }
  const formLanguage = languageOf(form.get('lang') ?? null, undefined);
  const by = form.get('by') ?? '';
  let confirmation: SeatConfirmation | null = null;
  try {
    await floor.withClient(async (client) => {
      if (form.get('confirm') !== 'yes') confirmation = await seatQuestion(client, form, table, formLanguage);
      else if (action === 'out') await unseat(client, table, seatOf(form.get('seat')), by);
      else if (action === 'move') await moveSeat(client, table, seatOf(form.get('seat')), typedTableName(form.get('to-table') ?? ''), seatOf(form.get('to-seat')), by);
      else if (action === 'break') await breakTable(client, table, by);
      else await undoSeatingChange(client, changeIdOf(form.get('change')), by, table);
    });
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    await sendTablePage(floor, response, table, formLanguage, 409, { seatsProblem: sayMessage(formLanguage, error.said) });
    return;
  }
  if (confirmation !== null) {
    await sendTablePage(floor, response, table, formLanguage, 200, { confirmation });
    return;
  }
  seeOther(response, `/table?${new URLSearchParams({ table, lang: formLanguage }).toString()}`);
}
