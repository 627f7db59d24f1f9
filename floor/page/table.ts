import { DECISION_WORDS } from '../../protocol/races';
import { answerOf, type FloorCall } from '../calls';
import { DECIDED_BY_MAX, DECISION_NOTE_MAX, FLOOR_DECISIONS, type FloorDecision } from '../decisions';
import type { FoldedRace, TableStatus } from '../fold';
import { COLOUR_UP_STATUS, damagedList, exchangeLines, failuresList, foldBehindNote, foldProblemsList, href, languageLinks, linkState, page, problemOf, RACE_STATUS, raceDamagedText, readerHealthText, sheetBreak, sheetCell, wordsOf } from './common';
import { html, joinHtml, NOTHING, trusted, type Html } from './html';
import { formatNumber, formatTime, say, type FloorLanguage } from './words';

/** A table's page: its state, its races, its seats (tableSeatsSection), the director's decisions and the table's calls of the floor. */

/** The table's decisions, oldest first: when, who, what, about which race, the note. */
function decisionsList(language: FloorLanguage, decisions: readonly FloorDecision[]): Html {
  const w = wordsOf(language);
  if (decisions.length === 0) return html`<p data-testid="no-decisions">${w('floor.decision.none')}</p>`;
  return html`<ul class="decisions" data-testid="decisions">${decisions.map((decision, index) => {
    // A later decision on the same race revises the earlier one; both are kept and shown (issue 43).
    const revised = decision.raceId === null ? undefined : decisions.slice(0, index).reverse().find((earlier) => earlier.raceId === decision.raceId);
    const revises = revised === undefined ? NOTHING : html` <small data-testid="decision-revises">${w('floor.decision.revises', { time: formatTime(language, revised.at) })}</small>`;
    return html`<li data-decision="${decision.decision}"><strong>${formatTime(language, decision.at)}</strong> · ${decision.by} · ${w(DECISION_WORDS[decision.decision])}${decision.raceId === null ? '' : html` (${decision.raceId})`}: ${decision.note}${revises}</li>`;
  })}</ul>`;
}

/**
 * The table's calls of the floor (issue 43): when, about which race, the dealer's note, and the
 * decision that answered each, or that it is still waiting for one. Nothing when it never called.
 */
function callsList(language: FloorLanguage, table: string, calls: readonly FloorCall[], decisions: readonly FloorDecision[]): Html {
  if (calls.length === 0) return NOTHING;
  const w = wordsOf(language);
  const items = calls.map((call) => {
    const answer = answerOf(call, decisions);
    const when = call.at === null ? '—' : formatTime(language, call.at);
    const about = call.raceId === null ? NOTHING : html` · <a href="${href('/race', { table, race: call.raceId }, language)}">${call.raceId}</a>`;
    const note = call.note === '' ? html`<em>${w('floor.decision.callNoNote')}</em>` : html`“${call.note}”`;
    const state = answer === null
      ? html`<strong class="waiting" data-testid="floor-call-waiting">${w('floor.decision.callWaiting')}</strong>`
      : html`<span data-testid="floor-call-answer">${w('floor.decision.callAnswered', { time: formatTime(language, answer.at), by: answer.by, decision: { message: { key: DECISION_WORDS[answer.decision] } } })}</span>`;
    return html`<li data-testid="floor-call" data-seq="${call.seq}" data-answered="${answer !== null}"><strong>${when}</strong>${about} · ${note} — ${state}</li>`;
  });
  return html`<h3>${w('floor.decision.calls')}</h3><ul class="calls" data-testid="floor-calls">${items}</ul>`;
}

/**
 * The race a decision is most likely about (issue 43): the race of the latest call not yet
 * answered, else the race the table's unsettled flag is about (its abandoned race: the fold's
 * `flag`), else its open race; null: none.
 */
function raceInQuestion(table: TableStatus, calls: readonly FloorCall[], decisions: readonly FloorDecision[]): string | null {
  const waiting = [...calls].reverse().find((call) => call.raceId !== null && answerOf(call, decisions) === null);
  if (waiting !== undefined) return waiting.raceId;
  if (table.flag != null && table.colourUp === table.flag.kind && table.flag.raceId !== null) return table.flag.raceId;
  return table.openRace?.raceId ?? null;
}

/** The director's form: what was decided, about which race (the one in question first), a note and who decided, both required. Posted with the page's sign-in like the clock's buttons. */
function decisionForm(language: FloorLanguage, table: TableStatus, races: readonly FoldedRace[], problem: string | null, chosen: string | null): Html {
  const w = wordsOf(language);
  const open = table.openRace?.raceId ?? null;
  const raceIds = [...(open === null ? [] : [open]), ...races.map((race) => race.raceId).filter((id) => id !== open).reverse()];
  // Each race with its status, so an abandoned race is not taken for the one confirmed since.
  const statusOf = (id: string): Html => {
    const race = races.find((entry) => entry.raceId === id);
    return race === undefined ? w('floor.page.openRace') : w(RACE_STATUS[race.status]);
  };
  return html`<form method="post" action="/decision" class="decision" data-testid="decision-form">
<input type="hidden" name="table" value="${table.table}"><input type="hidden" name="lang" value="${language}">
${problemOf(problem, 'decision-problem', 'alert')}
<label>${w('floor.decision.what')} <select name="decision">${FLOOR_DECISIONS.map((kind) => html`<option value="${kind}">${w(DECISION_WORDS[kind])}</option>`)}</select></label>
<label>${w('floor.decision.race')} <select name="race" data-testid="decision-race"><option value="">—</option>${raceIds.map((id) => html`<option value="${id}"${id === chosen ? html` selected` : NOTHING}>${id} (${statusOf(id)})</option>`)}</select></label>
<label>${w('floor.decision.note')} <input name="note" required maxlength="${DECISION_NOTE_MAX}"></label>
<label>${w('floor.decision.by')} <input name="by" required maxlength="${DECIDED_BY_MAX}"></label>
<button type="submit">${w('floor.decision.record')}</button>
</form>`;
}

/** A table's page (`seats`: tableSeatsSection's HTML, which server.ts hands in). */
export function renderTable(table: TableStatus, races: readonly FoldedRace[], language: FloorLanguage, now: number, seats: string = '', decisions: readonly FloorDecision[] = [], problem: string | null = null, calls: readonly FloorCall[] = []): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => formatNumber(language, value, signed);
  const link = linkState(language, table, now);
  // A race the director closed on the floor (a table broken mid-colour-up): said beside its status.
  const closedOnFloor = new Set(decisions.filter((decision) => decision.decision === 'race-closed' && decision.raceId !== null).map((decision) => decision.raceId));
  const rows = races.map((race) => html`<tr>
<th scope="row"><a href="${href('/race', { table: table.table, race: race.raceId }, language)}">${race.raceId}</a></th>
<td>${race.damaged === undefined ? w(RACE_STATUS[race.status]) : html`<span class="race-damaged" data-testid="race-damaged" data-status="${race.status}">${raceDamagedText(language, race.damaged)}</span>`}${closedOnFloor.has(race.raceId) && (race.status === 'racing' || race.status === 'waiting-to-confirm') ? html` <strong class="closed" data-testid="race-closed-on-floor">${w('floor.decision.closedOnFloor')}</strong>` : NOTHING}</td>
<td class="num">${race.level === null ? '—' : n(race.level)}</td>
<td class="num">${n(race.removed)} → ${n(race.next)}</td>
<td class="num">${race.valueDelta === null ? '—' : n(race.valueDelta, true)}</td>
<td>${race.winners.length === 0 ? '—' : race.winners.map((seat) => n(seat)).join(', ')}</td>
<td>${formatTime(language, race.startedAt)}</td>
<td>${race.endedAt === null ? '—' : formatTime(language, race.endedAt)}</td>
<td class="num">${n(race.corrections)} / ${n(race.refusals)}</td>
</tr>`);
  const title = say(language, 'floor.page.tableNamed', { table: table.table });
  // trusted: `seats` is tableSeatsSection's HTML (seating.ts), escaped where it was made; server.ts hands it in as a string.
  const body = html`<header class="top">
<h1>${title}</h1>
<nav><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/table', { table: table.table })}
</header>
<dl class="totals" data-testid="totals">
<div><dt>${w('floor.page.link')}</dt><dd class="link--${link.kind}">${link.text}</dd></div>
${table.readerHealth == null ? NOTHING : html`<div><dt>${w('readerHealth.label')}</dt><dd>${readerHealthText(language, table)}</dd></div>`}
<div><dt>${w('floor.page.colourUp')}</dt><dd>${w(COLOUR_UP_STATUS[table.colourUp])}</dd></div>
<div><dt>${w('floor.page.races')}</dt><dd>${n(table.races)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd>${n(table.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.toCollect')}</dt><dd>${sheetCell(language, table.collect, 'collect')}${sheetBreak(language, table)}</dd></div>
<div><dt>${w('floor.page.toBring')}</dt><dd>${sheetCell(language, table.bring, 'bring')}${sheetBreak(language, table)}</dd></div>
${(table.exchanges ?? []).length === 0 ? NOTHING : html`<div><dt>${w('floor.page.runner.exchanges')}</dt><dd>${exchangeLines(language, table.exchanges ?? [])}</dd></div>`}
</dl>
${table.failures.length > 0 ? html`<section class="alert" role="alert"><h2>${w('floor.page.chainFailed')}</h2><p>${failuresList(language, table.failures)}</p></section>` : NOTHING}
${table.foldProblems.length > 0 ? html`<section class="alert" role="alert"><h2>${w('floor.page.foldFailed')}</h2><p>${foldProblemsList(language, table.foldProblems)}</p></section>` : NOTHING}
${table.damaged.length > 0 ? html`<section class="alert alert--damaged" role="status"><h2>${w('floor.page.damagedHeading')}</h2><p>${damagedList(language, table.damaged)}</p></section>` : NOTHING}
${foldBehindNote(language, table.foldBehind)}
${trusted(seats)}
<main>
${races.length === 0 ? html`<p>${w('floor.page.noRaces')}</p>` : html`<table class="races"><thead><tr><th scope="col">${w('floor.page.race')}</th><th scope="col">${w('floor.page.colourUp')}</th><th scope="col">${w('floor.page.level')}</th><th scope="col">${w('floor.page.chip')}</th><th scope="col">${w('floor.page.valueChange')}</th><th scope="col">${w('floor.page.winners')}</th><th scope="col">${w('floor.page.started')}</th><th scope="col">${w('floor.page.ended')}</th><th scope="col">${w('floor.page.corrections')} / ${w('floor.page.refusals')}</th></tr></thead>
<tbody>${joinHtml(rows, '\n')}</tbody></table>`}
<section data-testid="decisions-section"><h2>${w('floor.decision.heading')}</h2>
${decisionsList(language, decisions)}
${callsList(language, table.table, calls, decisions)}
${decisionForm(language, table, races, problem, raceInQuestion(table, calls, decisions))}
</section>
</main>`;
  // Not refreshed: a refresh would lose a note or a move being typed.
  return page(language, title, body, false);
}
