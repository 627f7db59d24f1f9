import { COLOUR_UP_STATUSES, isWaitedFor, type FloorStatus, type TableStatus } from '../fold';
import { COLOUR_UP_STATUS, damagedList, failuresList, foldBehindNote, foldProblemsList, href, languageLinks, linkState, page, RACE_STATUS, raceDamagedText, readerHealthText, sheetBreak, sheetCell, wordsOf } from './common';
import { html, joinHtml, NOTHING, trusted, type Html } from './html';
import { formatNumber, formatTime, say, type FloorLanguage } from './words';

/** The floor's overview: every table's row, the break's progress board, the totals and the alerts. It refreshes itself every 5 s. */

/** The races damaged lines cost a table, for the overview's amber list: `; race-2: its confirmation was lost …`. */
function damagedRacesList(language: FloorLanguage, table: TableStatus): Html[] {
  return (table.damagedRaces ?? []).map((race) => html`; <span data-testid="overview-race-damaged">${race.raceId}: ${raceDamagedText(language, race)}</span>`);
}

/** A table's row: red where its chain failed or a record could not be counted, amber where only a line was damaged at the station. */
function rowClass(table: TableStatus): string {
  if (table.failures.length > 0 || table.foldProblems.length > 0) return 'failed';
  // An abandoned race or a call of the floor, for the director to settle: flagged until a decision is recorded.
  if (table.colourUp === 'disputed' || table.colourUp === 'floor-called') return 'flagged';
  return table.damaged.length > 0 ? 'damaged' : '';
}

/** The most tables the board names as still to finish (the table below lists every one). */
const PROGRESS_NAMED = 40;

/** The current break's progress board: each status with its tables' count, how many are left and which. */
function progressBoard(status: FloorStatus, language: FloorLanguage): Html {
  if (status.tables.length === 0) return NOTHING;
  const w = wordsOf(language);
  const n = (value: number) => formatNumber(language, value, false);
  const { progress } = status;
  const counts = COLOUR_UP_STATUSES.map((kind) => html`<li class="colour colour--${kind}" data-status="${kind}"><span class="board-count">${n(progress[kind])}</span> ${w(COLOUR_UP_STATUS[kind])}</li>`);
  const left = status.tables.filter(isWaitedFor);
  const named = joinHtml(left.slice(0, PROGRESS_NAMED).map((table) => html`<a class="colour colour--${table.colourUp}" href="${href('/table', { table: table.table }, language)}">${table.table}</a>`), ' ');
  const summary = progress.left === 0 ? html`<p class="board-done" data-testid="progress-left">${w('floor.page.progress.allDone')}</p>` : html`<p data-testid="progress-left"><strong>${w('floor.page.progress.left', { n: progress.left, total: status.tables.length })}</strong> ${w('floor.page.progress.leftList')} ${named}${left.length > PROGRESS_NAMED ? ' …' : ''}</p>`;
  return html`<section class="board" data-testid="progress" aria-labelledby="progress-title"><h2 id="progress-title">${w('floor.page.progress.title')}</h2><ul class="board-counts">${counts}</ul>${summary}</section>`;
}

/** The overview (`clock`, `notice`, `seating`: HTML of this module's own sections — clockSection, outageBanner, brokenMidColourUp — that server.ts hands in). */
export function renderOverview(status: FloorStatus, language: FloorLanguage, now: number, clock: string = '', notice: string = '', seating: string = ''): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => formatNumber(language, value, signed);
  const failed = status.tables.filter((table) => table.failures.length > 0);
  const unfolded = status.tables.filter((table) => table.foldProblems.length > 0);
  const damagedTables = status.tables.filter((table) => table.damaged.length > 0);
  const tableName = (table: TableStatus) => html`<strong>${w('floor.page.tableNamed', { table: table.table })}</strong>`;
  const alerts = html`${failed.length === 0 ? NOTHING : html`<section class="alert" role="alert" data-testid="chain-failures"><h2>${w('floor.page.chainFailed')}</h2><ul>${failed.map((table) => html`<li>${tableName(table)}: ${failuresList(language, table.failures.slice(0, 5))}${table.failures.length > 5 ? ' …' : ''}</li>`)}</ul></section>`}${
    unfolded.length === 0 ? NOTHING : html`<section class="alert" role="alert" data-testid="fold-problems"><h2>${w('floor.page.foldFailed')}</h2><ul>${unfolded.map((table) => html`<li>${tableName(table)}: ${foldProblemsList(language, table.foldProblems.slice(0, 5))}${table.foldProblems.length > 5 ? ' …' : ''}</li>`)}</ul></section>`
  }${damagedTables.length === 0 ? NOTHING : html`<section class="alert alert--damaged" role="status" data-testid="damaged-records"><h2>${w('floor.page.damagedHeading')}</h2><ul>${damagedTables.map((table) => html`<li>${tableName(table)}: ${damagedList(language, table.damaged.slice(0, 5))}${table.damaged.length > 5 ? ' …' : ''}${damagedRacesList(language, table)}</li>`)}</ul></section>`
  }${foldBehindNote(language, status.foldBehind)}`;
  const rows = status.tables.map((table) => {
    const link = linkState(language, table, now);
    const reader = readerHealthText(language, table);
    const closed = table.openRaceClosed == null ? NOTHING : html` <strong class="closed" data-testid="open-race-closed">${w('floor.decision.closedOnFloor')}</strong>`;
    const open = table.openRace === null ? '—' : html`<a href="${href('/race', { table: table.table, race: table.openRace.raceId }, language)}">${table.openRace.raceId}</a> (${w(RACE_STATUS[table.openRace.status])})${closed}`;
    return html`<tr class="${rowClass(table)}" data-table="${table.table}">
<th scope="row"><a href="${href('/table', { table: table.table }, language)}">${table.table}</a></th>
<td class="link link--${link.kind}">${link.text}<br><small>${table.lastSeen === null ? '—' : formatTime(language, table.lastSeen)}</small>${reader.toString() === '' ? NOTHING : html`<br>${reader}`}</td>
<td class="colour colour--${table.colourUp}">${w(COLOUR_UP_STATUS[table.colourUp])}</td>
<td class="num">${n(table.races)}</td>
<td class="num">${n(table.valueDelta, true)}</td>
<td>${sheetCell(language, table.collect, 'collect')}${sheetBreak(language, table)}</td>
<td>${sheetCell(language, table.bring, 'bring')}${sheetBreak(language, table)}</td>
<td class="num">${n(table.corrections)} / ${n(table.refusals)}</td>
<td>${open}</td>
</tr>`;
  });
  const totals = html`${progressBoard(status, language)}<dl class="totals" data-testid="totals">
<div><dt>${w('floor.page.tables')}</dt><dd>${n(status.tables.length)}</dd></div>
<div><dt>${w('floor.page.races')}</dt><dd data-testid="total-races">${n(status.totals.races)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd data-testid="total-value">${n(status.totals.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.corrections')} / ${w('floor.page.refusals')}</dt><dd>${n(status.totals.corrections)} / ${n(status.totals.refusals)}</dd></div>
<div><dt>${w('floor.page.toCollect')}</dt><dd>${sheetCell(language, status.totals.collect, 'total-collect')}</dd></div>
<div><dt>${w('floor.page.toBring')}</dt><dd>${sheetCell(language, status.totals.bring, 'total-bring')}</dd></div>
</dl>
<p class="hint">${w('floor.page.sheetHint')}</p>`;
  // trusted: clock, notice and seating are HTML this module's own sections made (clockSection, outageBanner, brokenMidColourUp), escaped there; server.ts hands them in as strings.
  const body = html`<header class="top">
<h1>${w('floor.page.title')} <small>${w('floor.page.lead')}</small></h1>
<nav class="exports"><a href="${href('/seating', {}, language)}" data-testid="seating-link">${w('floor.page.seats.heading')}</a> <a href="${href('/runner', {}, language)}" data-testid="runner-link">${w('floor.page.runner.link')}</a> <a href="/export.csv?lang=${language}">${w('floor.page.exportCsv')}</a> <a href="/export.json">${w('floor.page.exportJson')}</a> <a href="/export/summary.csv?lang=${language}" data-testid="export-summary">${w('floor.page.exportSummaryCsv')}</a> <a href="/export/summary.json">${w('floor.page.exportSummaryJson')}</a></nav>
${languageLinks(language, '/', {})}
</header>
${trusted(notice)}${trusted(clock)}
${totals}
${alerts}
${trusted(seating)}
<main>
${status.tables.length === 0 ? html`<p>${w('floor.page.noTables')}</p>` : html`<table class="tables" data-testid="tables">
<colgroup><col class="c-table"><col class="c-link"><col class="c-colour"><col class="c-num"><col class="c-num"><col class="c-chips"><col class="c-chips"><col class="c-wide"><col class="c-open"></colgroup>
<thead><tr><th scope="col">${w('floor.page.table')}</th><th scope="col">${w('floor.page.link')} / ${w('floor.page.lastContact')}</th><th scope="col">${w('floor.page.colourUp')}</th><th scope="col">${w('floor.page.races')}</th><th scope="col">${w('floor.page.valueChange')}</th><th scope="col">${w('floor.page.toCollect')}</th><th scope="col">${w('floor.page.toBring')}</th><th scope="col">${w('floor.page.corrections')} / ${w('floor.page.refusals')}</th><th scope="col">${w('floor.page.openRace')}</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>`}
</main>`;
  return page(language, say(language, 'floor.page.title'), body, true);
}
