import { formatCard, type Card } from '../../engine/cards';
import { clockSchedule, readClock } from '../../engine/clock/clock';
import { readStructure } from '../../engine/plan/structure';
import type { FloorClock } from '../../protocol/clock';
import type { RaceRecord } from '../../protocol/contract';
import type { ChainFailure, DenominationChips, FloorStatus, FoldedRace, FoldProblem, TableStatus } from '../fold';
import { FLOOR_LANGUAGES, FLOOR_WORDS, formatNumber, formatTime, type FloorLanguage, type FloorWords } from './words';

/**
 * The floor page as HTML made on the server: no script, the stylesheet from the floor itself
 * (/floor.css), every text from the database escaped. The overview refreshes itself every 5 s.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

/** A station is taken as connected while it was heard from within this long (its link reports every few seconds). */
export const CONNECTED_WITHIN_MS = 60_000;

const cardText = (card: string): string => {
  try {
    return formatCard(card as Card, 'pips');
  } catch {
    return card;
  }
};

/** A query string for a page of the floor, in the page's language. */
function href(path: string, params: Readonly<Record<string, string>>, language: FloorLanguage): string {
  const query = new URLSearchParams({ ...params, lang: language });
  return escapeHtml(`${path}?${query.toString()}`);
}

function page(language: FloorLanguage, title: string, body: string, refresh: boolean): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? '<meta http-equiv="refresh" content="5">\n' : ''}<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/floor.css">
</head>
<body>
${body}
</body>
</html>
`;
}

function languageLinks(language: FloorLanguage, path: string, params: Readonly<Record<string, string>>): string {
  return `<nav class="languages" aria-label="Language">${FLOOR_LANGUAGES.map((other) => (other === language ? `<strong>${other.toUpperCase()}</strong>` : `<a href="${href(path, params, other)}" hreflang="${other}">${other.toUpperCase()}</a>`)).join(' ')}</nav>`;
}

export function linkState(words: FloorWords, language: FloorLanguage, table: Pick<TableStatus, 'lastSeen' | 'behind'>, now: number): { text: string; kind: 'connected' | 'behind' | 'offline' | 'never' } {
  if (table.lastSeen === null) return { text: words.neverSeen, kind: 'never' };
  const age = now - new Date(table.lastSeen).getTime();
  if (age > CONNECTED_WITHIN_MS) return { text: words.offlineSince(formatTime(language, table.lastSeen)), kind: 'offline' };
  if (table.behind > 0) return { text: words.behind(formatNumber(language, table.behind)), kind: 'behind' };
  return { text: words.connected, kind: 'connected' };
}

function chipsCell(language: FloorLanguage, chips: readonly DenominationChips[], which: 'collect' | 'bring'): string {
  const shown = chips.filter((chip) => chip[which] > 0);
  if (shown.length === 0) return '—';
  return shown.map((chip) => `<span class="chips">${escapeHtml(formatNumber(language, chip.chip))}&nbsp;×&nbsp;${escapeHtml(formatNumber(language, chip[which]))}</span>`).join(' ');
}

function failuresList(words: FloorWords, language: FloorLanguage, failures: readonly ChainFailure[]): string {
  return failures.map((failure) => escapeHtml(words.chainFailure(formatNumber(language, failure.seq), failure.reason))).join('; ');
}

function damagedList(words: FloorWords, language: FloorLanguage, seqs: readonly number[]): string {
  return seqs.map((seq) => escapeHtml(words.damagedRecord(formatNumber(language, seq)))).join('; ');
}

/** A table's row: red where its chain failed or a record could not be counted, amber where only a line was damaged at the station. */
function rowClass(table: TableStatus): string {
  if (table.failures.length > 0 || table.foldProblems.length > 0) return 'failed';
  return table.damaged.length > 0 ? 'damaged' : '';
}

function foldProblemsList(words: FloorWords, language: FloorLanguage, problems: readonly FoldProblem[]): string {
  return problems.map((problem) => escapeHtml(words.foldProblem(formatNumber(language, problem.seq), words.foldReason[problem.reason]))).join('; ');
}

/** The records that arrived and are not folded yet, when there are any. */
const foldBehindNote = (words: FloorWords, language: FloorLanguage, records: number): string => (records > 0 ? `<p class="fold-behind" data-testid="fold-behind">${escapeHtml(words.foldBehind(formatNumber(language, records)))}</p>` : '');

/** A stretch of clock time as h:mm:ss (m:ss under an hour). */
export function clockTime(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** One of the clock's buttons: a form of its own posting its action (the page has no script). */
function clockButton(action: string, label: string, language: FloorLanguage): string {
  return `<form method="post" action="/clock"><input type="hidden" name="action" value="${action}"><input type="hidden" name="lang" value="${language}"><button type="submit" data-action="${action}">${escapeHtml(label)}</button></form>`;
}

/**
 * The tournament clock the floor runs for every table: where it is (read with the engine's
 * readClock at the floor's time, as each station reads it), and its controls.
 */
export function clockSection(clock: FloorClock | null, language: FloorLanguage, now: number, problem: string | null = null): string {
  const words = FLOOR_WORDS[language].clock;
  const refusal = problem === null ? '' : `<p class="clock__problem" role="alert" data-testid="clock-problem">${escapeHtml(problem)}</p>`;
  if (clock === null) return `<section class="clock" data-testid="floor-clock" data-status="none"><h2>${escapeHtml(words.title)}</h2><p>${escapeHtml(words.noStructure)}</p>${refusal}</section>`;
  let reading: ReturnType<typeof readClock>;
  try {
    reading = readClock(clockSchedule(readStructure(clock.structure)), clock.events, now);
  } catch {
    return `<section class="clock" data-testid="floor-clock" data-status="none"><h2>${escapeHtml(words.title)}</h2><p>${escapeHtml(words.noStructure)}</p>${refusal}</section>`;
  }
  const n = (value: number) => formatNumber(language, value);
  const period = reading.period === null ? '' : reading.period.kind === 'level' ? words.level(n(reading.period.level)) : words.breakAfter(n(reading.period.afterLevel));
  const next = reading.nextBreak === null ? '' : `<p data-testid="clock-next-break">${escapeHtml(words.nextBreak(n(reading.nextBreak.afterLevel), clockTime(reading.nextBreak.msTo)))}</p>`;
  const buttons =
    reading.status === 'idle' || reading.status === 'finished'
      ? clockButton('start', words.start, language)
      : `${reading.status === 'running' ? clockButton('pause', words.pause, language) : clockButton('resume', words.resume, language)}${clockButton('less', words.back, language)}${clockButton('more', words.forward, language)}`;
  return `<section class="clock" data-testid="floor-clock" data-status="${reading.status}">
<h2>${escapeHtml(words.title)}: ${escapeHtml(words.status[reading.status])}</h2>
<p class="clock__period"><strong data-testid="clock-period">${escapeHtml(period)}</strong> <span data-testid="clock-left">${escapeHtml(words.left(clockTime(reading.msLeft)))}</span></p>
${next}<div class="clock__controls">${buttons}</div>${refusal}
</section>`;
}

/** The banner of a floor whose database is unreachable: since when, and when what is shown was read (null: nothing yet). */
export function outageBanner(language: FloorLanguage, since: number, shownFrom: number | null): string {
  const words = FLOOR_WORDS[language].unreachable;
  const when = (ms: number) => formatTime(language, new Date(ms).toISOString());
  return `<section class="alert" role="alert" data-testid="database-unreachable"><h2>${escapeHtml(words.since(when(since)))}</h2><p>${escapeHtml(shownFrom === null ? words.nothingYet : words.shown(when(shownFrom)))}</p></section>`;
}

/** A page with nothing but the outage banner, refreshing itself (the database gone before anything was read). */
export function renderOutage(language: FloorLanguage, banner: string): string {
  const words = FLOOR_WORDS[language];
  return page(language, words.title, `<header class="top"><h1>${escapeHtml(words.title)}</h1>${languageLinks(language, '/', {})}</header>\n${banner}`, true);
}

export function renderOverview(status: FloorStatus, language: FloorLanguage, now: number, clock: string = '', notice: string = ''): string {
  const words = FLOOR_WORDS[language];
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const failed = status.tables.filter((table) => table.failures.length > 0);
  const unfolded = status.tables.filter((table) => table.foldProblems.length > 0);
  const damagedTables = status.tables.filter((table) => table.damaged.length > 0);
  const alerts = `${failed.length === 0 ? '' : `<section class="alert" role="alert" data-testid="chain-failures"><h2>${escapeHtml(words.chainFailed)}</h2><ul>${failed.map((table) => `<li><strong>${escapeHtml(words.table)} ${escapeHtml(table.table)}</strong>: ${failuresList(words, language, table.failures.slice(0, 5))}${table.failures.length > 5 ? ' …' : ''}</li>`).join('')}</ul></section>`}${
    unfolded.length === 0 ? '' : `<section class="alert" role="alert" data-testid="fold-problems"><h2>${escapeHtml(words.foldFailed)}</h2><ul>${unfolded.map((table) => `<li><strong>${escapeHtml(words.table)} ${escapeHtml(table.table)}</strong>: ${foldProblemsList(words, language, table.foldProblems.slice(0, 5))}${table.foldProblems.length > 5 ? ' …' : ''}</li>`).join('')}</ul></section>`
  }${damagedTables.length === 0 ? '' : `<section class="alert alert--damaged" role="status" data-testid="damaged-records"><h2>${escapeHtml(words.damagedHeading)}</h2><ul>${damagedTables.map((table) => `<li><strong>${escapeHtml(words.table)} ${escapeHtml(table.table)}</strong>: ${damagedList(words, language, table.damaged.slice(0, 5))}${table.damaged.length > 5 ? ' …' : ''}</li>`).join('')}</ul></section>`
  }${foldBehindNote(words, language, status.foldBehind)}`;
  const rows = status.tables.map((table) => {
    const link = linkState(words, language, table, now);
    const open = table.openRace === null ? '—' : `<a href="${href('/race', { table: table.table, race: table.openRace.raceId }, language)}">${escapeHtml(table.openRace.raceId)}</a> (${escapeHtml(words.raceStatus[table.openRace.status])})`;
    return `<tr class="${rowClass(table)}" data-table="${escapeHtml(table.table)}">
<th scope="row"><a href="${href('/table', { table: table.table }, language)}">${escapeHtml(table.table)}</a></th>
<td class="link link--${link.kind}">${escapeHtml(link.text)}<br><small>${table.lastSeen === null ? '—' : escapeHtml(formatTime(language, table.lastSeen))}</small></td>
<td class="colour colour--${table.colourUp}">${escapeHtml(words.colourUpStatus[table.colourUp])}</td>
<td class="num">${n(table.races)}</td>
<td class="num">${n(table.valueDelta, true)}</td>
<td>${chipsCell(language, table.chips, 'collect')}</td>
<td>${chipsCell(language, table.chips, 'bring')}</td>
<td class="num">${n(table.corrections)} / ${n(table.refusals)}</td>
<td>${open}</td>
</tr>`;
  });
  const totals = `<dl class="totals" data-testid="totals">
<div><dt>${escapeHtml(words.tables)}</dt><dd>${n(status.tables.length)}</dd></div>
<div><dt>${escapeHtml(words.races)}</dt><dd data-testid="total-races">${n(status.totals.races)}</dd></div>
<div><dt>${escapeHtml(words.valueChange)}</dt><dd data-testid="total-value">${n(status.totals.valueDelta, true)}</dd></div>
<div><dt>${escapeHtml(words.corrections)} / ${escapeHtml(words.refusals)}</dt><dd>${n(status.totals.corrections)} / ${n(status.totals.refusals)}</dd></div>
<div><dt>${escapeHtml(words.toCollect)}</dt><dd>${chipsCell(language, status.totals.chips, 'collect')}</dd></div>
<div><dt>${escapeHtml(words.toBring)}</dt><dd>${chipsCell(language, status.totals.chips, 'bring')}</dd></div>
</dl>`;
  const body = `<header class="top">
<h1>${escapeHtml(words.title)} <small>${escapeHtml(words.lead)}</small></h1>
<nav class="exports"><a href="/export.csv">${escapeHtml(words.exportCsv)}</a> <a href="/export.json">${escapeHtml(words.exportJson)}</a></nav>
${languageLinks(language, '/', {})}
</header>
${notice}${clock}
${totals}
${alerts}
<main>
${status.tables.length === 0 ? `<p>${escapeHtml(words.noTables)}</p>` : `<table class="tables" data-testid="tables">
<colgroup><col class="c-table"><col class="c-link"><col class="c-colour"><col class="c-num"><col class="c-num"><col class="c-chips"><col class="c-chips"><col class="c-wide"><col class="c-open"></colgroup>
<thead><tr><th scope="col">${escapeHtml(words.table)}</th><th scope="col">${escapeHtml(words.link)} / ${escapeHtml(words.lastContact)}</th><th scope="col">${escapeHtml(words.colourUp)}</th><th scope="col">${escapeHtml(words.races)}</th><th scope="col">${escapeHtml(words.valueChange)}</th><th scope="col">${escapeHtml(words.toCollect)}</th><th scope="col">${escapeHtml(words.toBring)}</th><th scope="col">${escapeHtml(words.corrections)} / ${escapeHtml(words.refusals)}</th><th scope="col">${escapeHtml(words.openRace)}</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`}
</main>`;
  return page(language, words.title, body, true);
}

export function renderTable(table: TableStatus, races: readonly FoldedRace[], language: FloorLanguage, now: number): string {
  const words = FLOOR_WORDS[language];
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const link = linkState(words, language, table, now);
  const rows = races.map((race) => `<tr>
<th scope="row"><a href="${href('/race', { table: table.table, race: race.raceId }, language)}">${escapeHtml(race.raceId)}</a></th>
<td>${escapeHtml(words.raceStatus[race.status])}</td>
<td class="num">${race.level === null ? '—' : n(race.level)}</td>
<td class="num">${n(race.removed)} → ${n(race.next)}</td>
<td class="num">${race.valueDelta === null ? '—' : n(race.valueDelta, true)}</td>
<td>${race.winners.length === 0 ? '—' : race.winners.map((seat) => n(seat)).join(', ')}</td>
<td>${escapeHtml(formatTime(language, race.startedAt))}</td>
<td>${race.endedAt === null ? '—' : escapeHtml(formatTime(language, race.endedAt))}</td>
<td class="num">${n(race.corrections)} / ${n(race.refusals)}</td>
</tr>`);
  const body = `<header class="top">
<h1>${escapeHtml(words.table)} ${escapeHtml(table.table)}</h1>
<nav><a href="${href('/', {}, language)}">${escapeHtml(words.back)}</a></nav>
${languageLinks(language, '/table', { table: table.table })}
</header>
<dl class="totals" data-testid="totals">
<div><dt>${escapeHtml(words.link)}</dt><dd class="link--${link.kind}">${escapeHtml(link.text)}</dd></div>
<div><dt>${escapeHtml(words.colourUp)}</dt><dd>${escapeHtml(words.colourUpStatus[table.colourUp])}</dd></div>
<div><dt>${escapeHtml(words.races)}</dt><dd>${n(table.races)}</dd></div>
<div><dt>${escapeHtml(words.valueChange)}</dt><dd>${n(table.valueDelta, true)}</dd></div>
<div><dt>${escapeHtml(words.toCollect)}</dt><dd>${chipsCell(language, table.chips, 'collect')}</dd></div>
<div><dt>${escapeHtml(words.toBring)}</dt><dd>${chipsCell(language, table.chips, 'bring')}</dd></div>
</dl>
${table.failures.length > 0 ? `<section class="alert" role="alert"><h2>${escapeHtml(words.chainFailed)}</h2><p>${failuresList(words, language, table.failures)}</p></section>` : ''}
${table.foldProblems.length > 0 ? `<section class="alert" role="alert"><h2>${escapeHtml(words.foldFailed)}</h2><p>${foldProblemsList(words, language, table.foldProblems)}</p></section>` : ''}
${table.damaged.length > 0 ? `<section class="alert alert--damaged" role="status"><h2>${escapeHtml(words.damagedHeading)}</h2><p>${damagedList(words, language, table.damaged)}</p></section>` : ''}
${foldBehindNote(words, language, table.foldBehind)}
<main>
${races.length === 0 ? `<p>${escapeHtml(words.noRaces)}</p>` : `<table class="races"><thead><tr><th scope="col">${escapeHtml(words.race)}</th><th scope="col">${escapeHtml(words.colourUp)}</th><th scope="col">${escapeHtml(words.level)}</th><th scope="col">${escapeHtml(words.chip)}</th><th scope="col">${escapeHtml(words.valueChange)}</th><th scope="col">${escapeHtml(words.winners)}</th><th scope="col">${escapeHtml(words.started)}</th><th scope="col">${escapeHtml(words.ended)}</th><th scope="col">${escapeHtml(words.corrections)} / ${escapeHtml(words.refusals)}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`}
</main>`;
  return page(language, `${words.table} ${table.table}`, body, true);
}

export function renderRaceRecord(table: string, record: RaceRecord, language: FloorLanguage): string {
  const words = FLOOR_WORDS[language];
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const seatName = (seat: number) => {
    const name = record.names[seat];
    return name ? `${n(seat)} ${escapeHtml(name)}` : n(seat);
  };
  const events = record.events.map((event) => {
    const at = escapeHtml(formatTime(language, event.at));
    const lead = `<td class="num">${n(event.seq)}</td><td>${at}</td>`;
    switch (event.type) {
      case 'start':
        return `<tr>${lead}<td>${escapeHtml(words.event.start)}</td><td></td></tr>`;
      case 'card':
        return `<tr>${lead}<td>${escapeHtml(words.event.card)} <span class="card">${escapeHtml(cardText(event.card))}</span></td><td>${escapeHtml(words.seat)} ${seatName(event.seat)}, ${escapeHtml(event.round === 0 ? words.deal : words.tieBreak(formatNumber(language, event.round)))}, ${escapeHtml(words.source[event.source])}${event.held ? `, ${escapeHtml(words.held)}` : ''}</td></tr>`;
      case 'void':
        return `<tr class="void">${lead}<td>${escapeHtml(words.event.void)}</td><td>${event.voided.map((card) => `<span class="card">${escapeHtml(cardText(card.card))}</span> (${escapeHtml(words.seat)} ${seatName(card.seat)})${card.reason === '' ? '' : `: ${escapeHtml(card.reason)}`}`).join('; ')}</td></tr>`;
      case 'refused':
        return `<tr class="refused">${lead}<td>${escapeHtml(words.event.refused(formatNumber(language, event.count)))}</td><td><code>${escapeHtml(event.input)}</code>: ${escapeHtml(event.reason)} (${escapeHtml(words.source[event.source])})</td></tr>`;
      case 'confirm':
        return `<tr>${lead}<td>${escapeHtml(event.by === undefined ? words.event.confirm : words.event.confirmBy(event.by))}</td><td></td></tr>`;
      case 'abandon':
        return `<tr class="refused">${lead}<td>${escapeHtml(words.event.abandon)}</td><td>${escapeHtml(event.reason)}</td></tr>`;
    }
  });
  const { summary } = record;
  const winners = summary.awards.map((seat) => {
    const card = summary.winningCards.find((winning) => winning.seat === seat)?.card;
    return `${seatName(seat)}${card ? ` (<span class="card">${escapeHtml(cardText(card))}</span>)` : ''}`;
  });
  const status = record.status === 'open' ? (summary.status === 'complete' ? words.raceStatus['waiting-to-confirm'] : words.raceStatus.racing) : words.raceStatus[record.status];
  const title = words.raceRecord(record.id, table);
  const body = `<header class="top">
<h1 data-testid="race-title">${escapeHtml(title)}</h1>
<nav><a href="${href('/table', { table }, language)}">${escapeHtml(words.table)} ${escapeHtml(table)}</a> <a href="${href('/', {}, language)}">${escapeHtml(words.back)}</a></nav>
${languageLinks(language, '/race', { table, race: record.id })}
</header>
<dl class="totals" data-testid="race-summary">
<div><dt>${escapeHtml(words.raceState)}</dt><dd data-testid="race-status">${escapeHtml(status)}</dd></div>
<div><dt>${escapeHtml(words.chip)}</dt><dd>${n(summary.removed)} → ${n(summary.next)}</dd></div>
<div><dt>${escapeHtml(words.valueChange)}</dt><dd>${summary.valueDelta === null ? '—' : n(summary.valueDelta, true)}</dd></div>
<div><dt>${escapeHtml(words.winners)}</dt><dd>${winners.length === 0 ? '—' : winners.join(', ')}</dd></div>
<div><dt>${escapeHtml(words.chain)}</dt><dd class="chain--${record.chain}" data-testid="race-chain">${escapeHtml(words.chainStatus[record.chain])}</dd></div>
<div><dt>${escapeHtml(words.level)}</dt><dd>${record.level === undefined ? '—' : n(record.level)}</dd></div>
<div><dt>${escapeHtml(words.station)}</dt><dd>${escapeHtml(record.station ?? '—')}</dd></div>
<div><dt>${escapeHtml(words.started)}</dt><dd>${escapeHtml(formatTime(language, record.startedAt))} · ${escapeHtml(words.records(formatNumber(language, record.seqs.first), formatNumber(language, record.seqs.last)))}</dd></div>
<div><dt>${escapeHtml(words.lastSeal)}</dt><dd><code class="seal">${escapeHtml(record.lastSeal ?? '—')}</code></dd></div>
</dl>
<main>
<h2>${escapeHtml(words.counts)}</h2>
<table class="counts" data-testid="race-counts"><thead><tr><th scope="col">${escapeHtml(words.seat)}</th><th scope="col">${escapeHtml(words.leavingChips)}</th><th scope="col">${escapeHtml(words.otherChips)}</th></tr></thead><tbody>
${record.counts.map((count) => `<tr><td>${seatName(count.seat)}</td><td class="num">${n(count.chips)}</td><td>${escapeHtml(count.hasOther ? words.yes : words.no)}</td></tr>`).join('\n')}
</tbody></table>
<h2>${escapeHtml(words.race)}</h2>
<table class="record" data-testid="race-record"><colgroup><col class="c-seq"><col class="c-at"><col class="c-what"><col></colgroup><tbody>
${events.join('\n')}
</tbody></table>
</main>`;
  return page(language, title, body, false);
}

export function renderLogin(language: FloorLanguage, wrong: boolean): string {
  const words = FLOOR_WORDS[language];
  const body = `<main class="login">
<h1>${escapeHtml(words.login.title)}</h1>
${wrong ? `<p class="alert" role="alert">${escapeHtml(words.login.wrong)}</p>` : ''}
<form method="post" action="/login">
<label>${escapeHtml(words.login.token)} <input type="password" name="token" autocomplete="current-password" required maxlength="512"></label>
<input type="hidden" name="lang" value="${language}">
<button type="submit">${escapeHtml(words.login.submit)}</button>
</form>
</main>`;
  return page(language, words.login.title, body, false);
}

export function renderMessage(language: FloorLanguage, text: string): string {
  const words = FLOOR_WORDS[language];
  return page(language, words.title, `<main><h1>${escapeHtml(words.title)}</h1><p>${escapeHtml(text)}</p><p><a href="${href('/', {}, language)}">${escapeHtml(words.back)}</a></p></main>`, false);
}

/** The floor's stylesheet: fits 1024×600 up to 1920×1080 without sideways scrolling. */
export const FLOOR_CSS = `*{box-sizing:border-box}
.clock{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;margin:4px 0;padding:4px 8px;background:#fff;border:1px solid #ccc}
.clock h2{font-size:1.1rem;margin:0}
.clock p{margin:0}
.clock__period{font-size:1.25rem}
.clock__controls{display:flex;gap:8px}
.clock__controls form{margin:0}
.clock button{min-height:44px;min-width:64px;font:inherit}
.clock__problem{color:#a00;font-weight:bold}
html{font:16px/1.35 system-ui,sans-serif;color:#111;background:#f6f6f4}
body{margin:0;padding:8px 12px}
a{color:#0645ad;min-height:44px;display:inline-flex;align-items:center;padding:0 4px}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px}
.top h1{font-size:1.5rem;margin:0;flex:1 1 auto}
.top h1 small{font-size:1rem;font-weight:normal;color:#555}
.totals{display:flex;flex-wrap:wrap;gap:4px 20px;margin:6px 0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px}
.totals div{min-width:0}
.totals dt{font-size:.8rem;color:#555}
.totals dd{margin:0;font-size:1.25rem;font-weight:600;overflow-wrap:anywhere}
.alert{background:#fde8e8;border:2px solid #b00020;color:#7a0014;padding:4px 10px;border-radius:6px;margin:6px 0}
.alert h2{font-size:1rem;margin:0}
.alert ul{margin:2px 0;padding-left:18px}
.alert--damaged{background:#fff4d6;border-color:#8a5a00;color:#5c3b00}
table{width:100%;border-collapse:collapse;table-layout:fixed;background:#fff}
th,td{border-bottom:1px solid #ddd;padding:3px 5px;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
thead th{font-size:.75rem;color:#444;background:#eee;overflow-wrap:normal;word-break:normal;hyphens:auto}
.num{text-align:right;font-variant-numeric:tabular-nums}
.tables .c-table{width:9%}.tables .c-link{width:15%}.tables .c-colour{width:11%}.tables .c-num{width:7%}.tables .c-chips{width:12%}.tables .c-wide{width:11%}.tables .c-open{width:15%}
tr.failed{background:#fde8e8}
tr.failed th,tr.failed td{color:#7a0014}
tr.damaged{background:#fff4d6}
.link--connected{color:#05620c}.link--behind{color:#8a5a00}.link--offline,.link--never{color:#7a0014}
.colour--disputed{color:#b00020;font-weight:700}.colour--waiting-to-confirm{color:#8a5a00;font-weight:600}.colour--done{color:#05620c}
.chain--broken{color:#b00020}
.chips{white-space:nowrap;display:inline-block;margin-right:6px}
.card{font-weight:700;white-space:nowrap}
.seal{font-size:.7rem;overflow-wrap:anywhere}
tr.void td,tr.refused td{color:#8a5a00}
h2{font-size:1.05rem;margin:8px 0 4px}
.counts{max-width:640px}
.record .c-seq{width:4.5em}.record .c-at{width:11em}.record .c-what{width:14em}
.login{max-width:420px;margin:40px auto}
.login input,.login button{font-size:1rem;min-height:44px;margin:6px 0;width:100%}
@media (max-width:1100px){html{font-size:14px}.totals dd{font-size:1.05rem}}
`;
