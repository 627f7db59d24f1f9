import type { FloorStatus } from '../fold';
import { BY_MAX, type SeatingChange, type TableSeating } from '../seating';
import { href, languageLinks, loadedOf, page, problemOf, wordsOf } from './common';
import { html, joinHtml, NOTHING, type Html } from './html';
import { formatTime, say, type FloorLanguage } from './words';

/**
 * The tables broken while a race of theirs is still open (a colour-up race started and neither
 * confirmed nor abandoned): the overview flags them, so the floor settles that race.
 */
export function brokenMidColourUp(status: FloorStatus, seating: readonly TableSeating[], language: FloorLanguage): string {
  return brokenMidColourUpHtml(status, seating, language).toString();
}

function brokenMidColourUpHtml(status: FloorStatus, seating: readonly TableSeating[], language: FloorLanguage): Html {
  const w = wordsOf(language);
  const brokenOpen = status.tables.filter((table) => table.openRace !== null && seating.some((entry) => entry.table === table.table && entry.brokenAt !== null));
  if (brokenOpen.length === 0) return NOTHING;
  return html`<section class="alert" role="alert" data-testid="broken-mid-colour-up"><h2>${w('floor.page.seats.brokenHeading')}</h2><ul>${brokenOpen.map(
    (table) => html`<li><a href="${href('/race', { table: table.table, race: table.openRace?.raceId ?? '' }, language)}">${w('floor.page.seats.brokenMidColourUp', { table: table.table, race: table.openRace?.raceId ?? '' })}</a></li>`,
  )}</ul></section>`;
}

/**
 * The seating page: the seat list's upload (multipart, the file as the tournament clock exported
 * it) with a refusal naming the line, and each table's players. No refresh: a file being chosen
 * is not thrown away.
 */
export function renderSeating(status: FloorStatus, seating: readonly TableSeating[], language: FloorLanguage, problem: string | null = null, loaded = false): string {
  const w = wordsOf(language);
  const players = seating.reduce((sum, table) => sum + table.seats.length, 0);
  const rows = seating.map((table) => html`<tr data-table="${table.table}"><th scope="row"><a href="${href('/table', { table: table.table }, language)}">${table.table}</a></th><td>${table.brokenAt === null ? w('floor.page.seats.players', { n: table.seats.length }) : w('floor.page.seats.broken')}</td><td>${joinHtml(table.seats.map((seat) => html`${String(seat.seat)}: ${seat.player}`), ' · ')}</td></tr>`);
  const title = say(language, 'floor.page.seats.heading');
  const body = html`<header class="top">
<h1>${title} <small data-testid="seating-players">${seating.length === 0 ? NOTHING : w('floor.page.seats.players', { n: players })}</small></h1>
<nav><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/seating', {})}
</header>
${brokenMidColourUpHtml(status, seating, language)}
<section class="seating" data-testid="seating">
<form method="post" action="/seating" enctype="multipart/form-data"><input type="hidden" name="lang" value="${language}"><label>${w('floor.page.seats.upload')} <input type="file" name="file" accept=".csv,.txt,text/csv" required data-testid="seating-file"></label> <button type="submit" data-testid="seating-load">${w('floor.page.seats.load')}</button></form>
<p class="hint">${w('floor.page.seats.loadHint')}</p>${problemOf(problem, 'seating-problem')}${loadedOf(loaded ? w('floor.page.seats.loaded', { players, tables: seating.length }) : null, 'seating-loaded')}
</section>
<main>
${rows.length === 0 ? NOTHING : html`<table class="races" data-testid="seating-tables"><thead><tr><th scope="col">${w('floor.page.table')}</th><th scope="col">${w('floor.page.seats.heading')}</th><th scope="col">${w('floor.page.seats.player')}</th></tr></thead><tbody>${joinHtml(rows, '\n')}</tbody></table>`}
</main>`;
  return page(language, title, body, false);
}

/** A seat form's action waiting for the director's yes (issue 43: nothing on the page is one tap from harm): the question in words, the form's fields to send again with `confirm=yes`. */
export interface SeatConfirmation {
  readonly question: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** Seats and their players as a break's question and its change say them (text, not HTML): `1 Pekka, 3 Matti`, or `—` for none. */
export function seatsText(seats: readonly { readonly seat: number; readonly player: string }[]): string {
  return seats.map(({ seat, player }) => `${seat} ${player}`).join(', ') || '—';
}

/** A change of the seating in the page's words (text, not HTML: the changes' list, an undo's question). */
export function seatingChangeText(change: SeatingChange, language: FloorLanguage): string {
  const players = seatsText(change.seats ?? []);
  const params = { player: change.player ?? '', table: change.table ?? '', seat: change.seat ?? 0, toTable: change.toTable ?? '', toSeat: change.toSeat ?? 0, players, id: change.undoes ?? 0 };
  switch (change.kind) {
    case 'out':
      return say(language, 'floor.page.seats.change.out', params);
    case 'move':
      return say(language, 'floor.page.seats.change.move', params);
    case 'break':
      return say(language, 'floor.page.seats.change.break', params);
    case 'undo':
      return say(language, 'floor.page.seats.change.undo', params);
    case 'load':
      return say(language, 'floor.page.seats.change.load');
  }
}

/**
 * A table's seats with their forms: each player out or moved, the table broken. Each form asks once
 * (a `confirmation` shown above the seats with the director's name to give), and each change is
 * listed with who made it and when, with an Undo (asking once too) while it can be undone.
 */
export function tableSeatsSection(table: string, seating: TableSeating | undefined, language: FloorLanguage, problem: string | null = null, changes: readonly SeatingChange[] = [], confirmation: SeatConfirmation | null = null): string {
  const w = wordsOf(language);
  const hidden = (fields: Readonly<Record<string, string>>) => Object.entries({ ...fields, table, lang: language }).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const heading = html`<h2>${w('floor.page.seats.heading')}${seating?.brokenAt ? html` <small class="link--offline" data-testid="table-broken">${w('floor.page.seats.broken')}</small>` : NOTHING}</h2>`;
  const ask = confirmation === null
    ? NOTHING
    : html`<div class="confirm" role="alertdialog" data-testid="seat-confirm"><p><strong>${confirmation.question}</strong></p><form method="post" action="/seat">${hidden({ ...confirmation.fields, confirm: 'yes' })}<label>${w('floor.page.seats.by')} <input name="by" required maxlength="${BY_MAX}" autocomplete="name" data-testid="seat-confirm-by"></label> <button type="submit" data-testid="seat-confirm-yes">${w('floor.page.seats.yes')}</button> <a href="${href('/table', { table }, language)}" data-testid="seat-confirm-cancel">${w('floor.page.seats.cancel')}</a></form></div>`;
  const rows = (seating?.seats ?? []).map(({ seat, player }) => html`<tr data-seat="${seat}">
<th scope="row">${String(seat)}</th>
<td data-testid="seat-${seat}-player">${player}</td>
<td><form method="post" action="/seat">${hidden({ action: 'out', seat: String(seat) })}<button type="submit" data-testid="seat-${seat}-out">${w('floor.page.seats.out')}</button></form></td>
<td><form method="post" action="/seat" class="move">${hidden({ action: 'move', seat: String(seat) })}<label>${w('floor.page.seats.toTable')} <input name="to-table" required maxlength="32" size="8" data-testid="seat-${seat}-to-table"></label> <label>${w('floor.page.seats.toSeat')} <input name="to-seat" required inputmode="numeric" pattern="[0-9]{1,2}" size="3" data-testid="seat-${seat}-to-seat"></label> <button type="submit" data-testid="seat-${seat}-move">${w('floor.page.seats.move')}</button></form></td>
</tr>`);
  const list = seating === undefined
    ? html`<p>${w('floor.page.seats.none')}</p>`
    : rows.length === 0
      ? html`<p>${w('floor.page.seats.empty')}</p>`
      : html`<table class="races" data-testid="table-seats"><thead><tr><th scope="col">${w('floor.page.seats.seat')}</th><th scope="col">${w('floor.page.seats.player')}</th><th scope="col">${w('floor.page.seats.out')}</th><th scope="col">${w('floor.page.seats.moveTo')}</th></tr></thead><tbody>${joinHtml(rows, '\n')}</tbody></table>`;
  const breakForm = seating === undefined || seating.brokenAt !== null
    ? NOTHING
    : html`<form method="post" action="/seat" class="break">${hidden({ action: 'break' })}<button type="submit" data-testid="break-table">${w('floor.page.seats.breakTable')}</button></form>`;
  const changeItems = changes.map((change) => {
    const undone = change.undoneBy === null ? undefined : changes.find((other) => other.id === change.undoneBy);
    const line = w('floor.page.seats.changeLine', { time: formatTime(language, change.at), by: change.by, what: seatingChangeText(change, language) });
    const undoneText = undone === undefined ? NOTHING : html` — <em data-testid="seat-change-undone">${w('floor.page.seats.undone', { by: undone.by, time: formatTime(language, undone.at) })}</em>`;
    const undo = change.undoable ? html` <form method="post" action="/seat">${hidden({ action: 'undo', change: String(change.id) })}<button type="submit" data-testid="seat-change-undo">${w('floor.page.seats.undo')}</button></form>` : NOTHING;
    return html`<li data-testid="seat-change" data-id="${change.id}" data-kind="${change.kind}"${change.undoneBy === null ? NOTHING : html` data-undone="true"`}>${line}${undoneText}${undo}</li>`;
  });
  const changeList = changeItems.length === 0 ? NOTHING : html`<h3>${w('floor.page.seats.changes')}</h3><ol class="changes" data-testid="seat-changes">${changeItems}</ol>`;
  return html`<section class="seating" data-testid="seats">${heading}${problemOf(problem, 'seats-problem')}${ask}${list}${breakForm}${changeList}</section>`.toString();
}
