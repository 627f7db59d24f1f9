import { formatCard, type Card } from '../../engine/cards';
import { clockSchedule, readClock } from '../../engine/clock/clock';
import type { Message, MessageKey, MessageParam, SeatParam } from '../../engine/messages';
import { readStructure } from '../../engine/plan/structure';
import { voidReasonParam } from '../../engine/race/explain';
import { RULE_NAMES, SETTING_NAMES, type SettingName } from '../../engine/race/rules';
import type { FloorClock } from '../../protocol/clock';
import { chipsWonBySeat } from '../../protocol/views';
import { FLOOR_REFUSAL_REASONS, type RaceRecord, type RaceRecordEvent } from '../../protocol/contract';
import { DECISION_WORDS, eventSeqs } from '../../protocol/races';
import { answerOf, type FloorCall } from '../calls';
import type { ChipsByDenomination } from '../../engine/race/summary';
import { COLOUR_UP_STATUSES, isWaitedFor, type ChainFailure, type FloorStatus, type FoldedRace, type FoldProblem, type TableStatus } from '../fold';
import { BY_MAX, type SeatingChange, type TableSeating } from '../seating';
import { DECIDED_BY_MAX, DECISION_NOTE_MAX, FLOOR_DECISIONS, type FloorDecision } from '../decisions';
import { FLOOR_LANGUAGES, formatNumber, formatTime, say, sayMessage, type FloorLanguage } from './words';
import type { FoldedExchange } from '../fold';

/**
 * The floor page as HTML made on the server: no script, the stylesheet from the floor itself
 * (/floor.css), every text from the database escaped. The overview refreshes itself every 5 s.
 * Its words are the console's (./words.ts): a race's record says what the station's slip says.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

/** A station is taken as connected while it was heard from within this long (its link reports every few seconds). */
export const CONNECTED_WITHIN_MS = 60_000;

/** The command that loads a structure into the floor, as the clock's note and the tournament page name it (a command is no language's). */
export const STRUCTURE_COMMAND = 'npm run floor -- structure --database URL --file structure.csv';

const cardText = (card: string): string => {
  try {
    return formatCard(card as Card, 'pips');
  } catch {
    return card;
  }
};

/** The page's words in its language, escaped: `w('floor.page.title')`. */
type Words = (key: MessageKey, params?: Readonly<Record<string, MessageParam>>) => string;
export const wordsOf = (language: FloorLanguage): Words => (key, params) => escapeHtml(say(language, key, params));

export const COLOUR_UP_STATUS: Readonly<Record<TableStatus['colourUp'], MessageKey>> = {
  'not-started': 'floor.page.colourUpStatus.notStarted',
  racing: 'floor.page.colourUpStatus.racing',
  'waiting-to-confirm': 'floor.page.colourUpStatus.waitingToConfirm',
  done: 'floor.page.colourUpStatus.done',
  closed: 'floor.page.colourUpStatus.closed',
  disputed: 'floor.page.colourUpStatus.disputed',
  'floor-called': 'floor.page.colourUpStatus.floorCalled',
};


type RaceStatus = FoldedRace['status'] | RaceRecord['status'];
const RACE_STATUS: Readonly<Record<RaceStatus | 'waiting-to-confirm', MessageKey>> = {
  racing: 'floor.page.raceStatus.racing',
  'waiting-to-confirm': 'floor.page.raceStatus.waitingToConfirm',
  confirmed: 'floor.page.raceStatus.confirmed',
  abandoned: 'floor.page.raceStatus.abandoned',
  open: 'floor.page.raceStatus.open',
  damaged: 'floor.page.raceStatus.damaged',
};

/** What a line damaged at the station cost a race (FoldedRace.damaged): its confirmation (not confirmed, not counted), or a line of a confirmed race. */
function raceDamagedText(language: FloorLanguage, damaged: NonNullable<FoldedRace['damaged']>): string {
  const w = wordsOf(language);
  if (damaged.confirmed) return damaged.seq === null ? w('floor.page.raceDamaged.confirmedUnknown') : w('floor.page.raceDamaged.confirmed', { seq: damaged.seq });
  return `${w(RACE_STATUS.damaged)} (${damaged.seq === null ? w('floor.page.raceDamaged.lostUnknown') : w('floor.page.raceDamaged.lost', { seq: damaged.seq })})`;
}

const FOLD_REASON: Readonly<Record<FoldProblem['reason'], MessageKey>> = {
  'number-out-of-range': 'floor.page.foldReason.numberOutOfRange',
  'bad-time': 'floor.page.foldReason.badTime',
  'fold-failed': 'floor.page.foldReason.foldFailed',
};

const CHAIN_STATUS: Readonly<Record<RaceRecord['chain'], MessageKey>> = {
  intact: 'floor.page.chainStatus.intact',
  broken: 'floor.page.chainStatus.broken',
  damaged: 'floor.page.chainStatus.damaged',
  unchained: 'floor.page.chainStatus.unchained',
  unchecked: 'floor.page.chainStatus.unchecked',
  empty: 'floor.page.chainStatus.empty',
};

const SOURCE: Readonly<Record<'manual' | 'shoe' | 'scanner' | 'held', MessageKey>> = {
  manual: 'record.source.manual',
  shoe: 'record.source.shoe',
  scanner: 'record.source.scanner',
  held: 'record.source.held',
};

const isRefusalReason = (reason: string): reason is (typeof FLOOR_REFUSAL_REASONS)[number] => (FLOOR_REFUSAL_REASONS as readonly string[]).includes(reason);

/** Why the floor refused a record on arrival, in the station's words for it (floorLink.chain.*); a code this version does not know, as it is. */
function refusalReason(reason: string): MessageParam {
  return isRefusalReason(reason) ? { message: { key: `floorLink.chain.${reason}` } } : reason;
}

/** A query string for a page of the floor, in the page's language. */
export function href(path: string, params: Readonly<Record<string, string>>, language: FloorLanguage): string {
  const query = new URLSearchParams({ ...params, lang: language });
  return escapeHtml(`${path}?${query.toString()}`);
}

export function page(language: FloorLanguage, title: string, body: string, refresh: boolean): string {
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

export function languageLinks(language: FloorLanguage, path: string, params: Readonly<Record<string, string>>): string {
  return `<nav class="languages" aria-label="${wordsOf(language)('floor.page.languages')}">${FLOOR_LANGUAGES.map((other) => (other === language ? `<strong>${other.toUpperCase()}</strong>` : `<a href="${href(path, params, other)}" hreflang="${other}">${other.toUpperCase()}</a>`)).join(' ')}</nav>`;
}

/** A table's link as the overview shows it: connected, behind by some records, offline since when, or never heard from. */
export function linkState(language: FloorLanguage, table: Pick<TableStatus, 'lastSeen' | 'behind'>, now: number): { text: string; kind: 'connected' | 'behind' | 'offline' | 'never' } {
  if (table.lastSeen === null) return { text: say(language, 'floor.page.neverSeen'), kind: 'never' };
  const age = now - new Date(table.lastSeen).getTime();
  if (age > CONNECTED_WITHIN_MS) return { text: say(language, 'floor.page.offlineSince', { time: formatTime(language, table.lastSeen) }), kind: 'offline' };
  if (table.behind > 0) return { text: say(language, 'floor.page.behind', { n: table.behind }), kind: 'behind' };
  return { text: say(language, 'floor.page.connected'), kind: 'connected' };
}

/** A table's card reader as its station last reported it, beside its link ('' when it never did, or has none in use). */
export function readerHealthText(language: FloorLanguage, table: Pick<TableStatus, 'readerHealth'>): string {
  const health = table.readerHealth;
  if (health === undefined || health === null) return '';
  const text = say(language, health.verdict === 'warn' ? 'readerHealth.warning' : `readerHealth.${health.verdict}`, { bad: health.unknown + health.checksum, frames: health.frames });
  return `<small class="reader reader--${health.verdict}" data-testid="reader-health" data-verdict="${health.verdict}">${escapeHtml(text)}</small>`;
}

/** The chip runner's sheet, one side of it: `100 × 3` per denomination, smallest first (— when none). */
export function sheetCell(language: FloorLanguage, chips: ChipsByDenomination, testid: string): string {
  const shown = Object.entries(chips).filter(([, count]) => count > 0).sort(([a], [b]) => Number(a) - Number(b));
  if (shown.length === 0) return `<span data-testid="${testid}">—</span>`;
  return `<span data-testid="${testid}">${shown.map(([chip, count]) => `<span class="chips" data-chip="${escapeHtml(chip)}" data-count="${count}">${escapeHtml(formatNumber(language, Number(chip)))}&nbsp;×&nbsp;${escapeHtml(formatNumber(language, count))}</span>`).join(' ')}</span>`;
}

/** The break a table's sheet is for, under its cells ('' when it has had none). */
function sheetBreak(language: FloorLanguage, table: Pick<TableStatus, 'sheetAfterLevel'>): string {
  return table.sheetAfterLevel === null ? '' : `<br><small>${wordsOf(language)('floor.page.sheetBreak', { level: table.sheetAfterLevel })}</small>`;
}

/** One exchange outside a race as a line of the sheet: which (late-found of its race, or discretionary), whose seat, the chips each way, the value removed, the note. */
function exchangeLine(language: FloorLanguage, exchange: FoldedExchange): string {
  const w = wordsOf(language);
  const chip = (value: number) => formatNumber(language, value);
  const parts = [
    exchange.reason === 'late-found' ? w('floor.page.runner.lateFound', { race: exchange.raceId ?? '' }) : w('floor.page.runner.discretionary'),
    ...(exchange.seat === null ? [] : [w('floor.page.runner.exchangeSeat', { seat: exchange.seat })]),
    w('floor.page.runner.exchangeChips', { count: exchange.count, removed: chip(exchange.removed), given: exchange.given, next: chip(exchange.next) }),
    ...(exchange.lost === 0 ? [] : [w('floor.page.runner.exchangeLost', { lost: exchange.lost, removed: chip(exchange.removed), value: formatNumber(language, exchange.valueDelta, true) })]),
  ];
  const note = exchange.note === '' ? '' : ` <q>${escapeHtml(exchange.note)}</q>`;
  return `<li data-testid="runner-exchange" data-reason="${exchange.reason}" data-seq="${exchange.seq}">${parts.join(', ')}${note}</li>`;
}

/** A sheet's exchanges outside a race, a line each. */
export function exchangeLines(language: FloorLanguage, exchanges: readonly FoldedExchange[]): string {
  return `<ul class="plain">${exchanges.map((exchange) => exchangeLine(language, exchange)).join('')}</ul>`;
}

function failuresList(language: FloorLanguage, failures: readonly ChainFailure[]): string {
  const w = wordsOf(language);
  return failures.map((failure) => w('floor.page.recordProblem', { seq: failure.seq, reason: refusalReason(failure.reason) })).join('; ');
}

function damagedList(language: FloorLanguage, seqs: readonly number[]): string {
  const w = wordsOf(language);
  return seqs.map((seq) => w('floor.page.damagedRecord', { seq })).join('; ');
}

/** The races damaged lines cost a table, for the overview's amber list: `; race-2: its confirmation was lost …`. */
function damagedRacesList(language: FloorLanguage, table: TableStatus): string {
  return (table.damagedRaces ?? []).map((race) => `; <span data-testid="overview-race-damaged">${escapeHtml(race.raceId)}: ${raceDamagedText(language, race)}</span>`).join('');
}

/** A table's row: red where its chain failed or a record could not be counted, amber where only a line was damaged at the station. */
function rowClass(table: TableStatus): string {
  if (table.failures.length > 0 || table.foldProblems.length > 0) return 'failed';
  // An abandoned race or a call of the floor, for the director to settle: flagged until a decision is recorded.
  if (table.colourUp === 'disputed' || table.colourUp === 'floor-called') return 'flagged';
  return table.damaged.length > 0 ? 'damaged' : '';
}

function foldProblemsList(language: FloorLanguage, problems: readonly FoldProblem[]): string {
  const w = wordsOf(language);
  return problems.map((problem) => w('floor.page.recordProblem', { seq: problem.seq, reason: { message: { key: FOLD_REASON[problem.reason] } } })).join('; ');
}

/** The records that arrived and are not folded yet, when there are any. */
const foldBehindNote = (language: FloorLanguage, records: number): string => (records > 0 ? `<p class="fold-behind" data-testid="fold-behind">${wordsOf(language)('floor.page.foldBehind', { n: records })}</p>` : '');

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
  return `<form method="post" action="/clock"><input type="hidden" name="action" value="${action}"><input type="hidden" name="lang" value="${language}"><button type="submit" data-action="${action}">${label}</button></form>`;
}

const CLOCK_STATE: Readonly<Record<'idle' | 'running' | 'paused' | 'finished', MessageKey>> = {
  idle: 'floor.page.clock.states.idle',
  running: 'floor.page.clock.states.running',
  paused: 'floor.page.clock.states.paused',
  finished: 'floor.page.clock.states.finished',
};

/**
 * The tournament clock the floor runs for every table: where it is (read with the engine's
 * readClock at the floor's time, as each station reads it), and its controls, in the station's
 * words for the clock (clock.*).
 */
export function clockSection(clock: (FloorClock & { readonly holdBreaks?: boolean }) | null, language: FloorLanguage, now: number, problem: string | null = null): string {
  const w = wordsOf(language);
  const refusal = problem === null ? '' : `<p class="clock__problem" role="alert" data-testid="clock-problem">${escapeHtml(problem)}</p>`;
  // The tournament page (the sheet's upload) beside the clock: linked, as the overview refreshes itself and would lose a file being chosen.
  const tournament = `<a href="${href('/tournament', {}, language)}" data-testid="tournament-link">${w('floor.page.tournament.link')}</a>`;
  const none = `<section class="clock" data-testid="floor-clock" data-status="none"><h2>${w('clock.label')}</h2><p>${w('floor.page.clock.noStructure', { command: STRUCTURE_COMMAND })}</p>${tournament}${refusal}</section>`;
  if (clock === null) return none;
  let reading: ReturnType<typeof readClock>;
  try {
    reading = readClock(clockSchedule(readStructure(clock.structure)), clock.events, now);
  } catch {
    return none;
  }
  const period = reading.period === null ? '' : reading.period.kind === 'level' ? w('clock.level', { level: reading.period.level }) : w('clock.break', { level: reading.period.afterLevel });
  const next = reading.nextBreak === null ? '' : `<p data-testid="clock-next-break">${w('floor.page.clock.nextBreak', { level: reading.nextBreak.afterLevel, time: clockTime(reading.nextBreak.msTo) })}</p>`;
  const buttons =
    reading.status === 'idle' || reading.status === 'finished'
      ? clockButton('start', w('clock.start'), language)
      : `${reading.status === 'running' ? clockButton('pause', w('clock.pause'), language) : clockButton('resume', w('clock.resume'), language)}${clockButton('less', w('clock.back'), language)}${clockButton('more', w('clock.forward'), language)}`;
  // The held break: said first, its Resume the director's override; the option's own button beside the clock's.
  const held = clock.held ?? null;
  const heldLine = held === null ? '' : `<p class="clock__held" role="status" data-testid="clock-held">${w('floor.page.clock.held', { level: held.afterLevel, n: held.tables })}</p>`;
  const hold = clock.holdBreaks === true ? clockButton('hold-off', w('floor.page.clock.holdOff'), language) : clockButton('hold-on', w('floor.page.clock.holdOn'), language);
  const holdLine = `<p class="hint" data-testid="clock-hold" data-on="${clock.holdBreaks === true}">${w(clock.holdBreaks === true ? 'floor.page.clock.holdIsOn' : 'floor.page.clock.holdIsOff')}</p>`;
  return `<section class="clock" data-testid="floor-clock" data-status="${reading.status}"${held === null ? '' : ' data-held="true"'}>
<h2>${w('floor.page.clock.status', { clock: { message: { key: 'clock.label' } }, status: { message: { key: CLOCK_STATE[reading.status] } } })}</h2>
<p class="clock__period"><strong data-testid="clock-period">${period}</strong> <span data-testid="clock-left">${w('clock.left', { time: clockTime(reading.msLeft) })}</span></p>
${heldLine}${next}<div class="clock__controls">${buttons}${hold}</div>${holdLine}${tournament}${refusal}
</section>`;
}

/** The banner of a floor whose database is unreachable: since when, and when what is shown was read (null: nothing yet). */
export function outageBanner(language: FloorLanguage, since: number, shownFrom: number | null): string {
  const w = wordsOf(language);
  const when = (ms: number) => formatTime(language, new Date(ms).toISOString());
  return `<section class="alert" role="alert" data-testid="database-unreachable"><h2>${w('floor.page.unreachable.since', { time: when(since) })}</h2><p>${shownFrom === null ? w('floor.page.unreachable.nothingYet') : w('floor.page.unreachable.shown', { time: when(shownFrom) })}</p></section>`;
}

/** A page with nothing but the outage banner, refreshing itself (the database gone before anything was read). */
export function renderOutage(language: FloorLanguage, banner: string): string {
  const w = wordsOf(language);
  return page(language, say(language, 'floor.page.title'), `<header class="top"><h1>${w('floor.page.title')}</h1>${languageLinks(language, '/', {})}</header>\n${banner}`, true);
}

/** The most tables the board names as still to finish (the table below lists every one). */
const PROGRESS_NAMED = 40;

/** The current break's progress board: each status with its tables' count, how many are left and which. */
function progressBoard(status: FloorStatus, language: FloorLanguage): string {
  if (status.tables.length === 0) return '';
  const w = wordsOf(language);
  const n = (value: number) => escapeHtml(formatNumber(language, value, false));
  const { progress } = status;
  const counts = COLOUR_UP_STATUSES.map((kind) => `<li class="colour colour--${kind}" data-status="${kind}"><span class="board-count">${n(progress[kind])}</span> ${w(COLOUR_UP_STATUS[kind])}</li>`).join('');
  const left = status.tables.filter(isWaitedFor);
  const named = left.slice(0, PROGRESS_NAMED).map((table) => `<a class="colour colour--${table.colourUp}" href="${href('/table', { table: table.table }, language)}">${escapeHtml(table.table)}</a>`).join(' ');
  const summary = progress.left === 0 ? `<p class="board-done" data-testid="progress-left">${w('floor.page.progress.allDone')}</p>` : `<p data-testid="progress-left"><strong>${w('floor.page.progress.left', { n: progress.left, total: status.tables.length })}</strong> ${w('floor.page.progress.leftList')} ${named}${left.length > PROGRESS_NAMED ? ' …' : ''}</p>`;
  return `<section class="board" data-testid="progress" aria-labelledby="progress-title"><h2 id="progress-title">${w('floor.page.progress.title')}</h2><ul class="board-counts">${counts}</ul>${summary}</section>`;
}

export function renderOverview(status: FloorStatus, language: FloorLanguage, now: number, clock: string = '', notice: string = '', seating: string = ''): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const failed = status.tables.filter((table) => table.failures.length > 0);
  const unfolded = status.tables.filter((table) => table.foldProblems.length > 0);
  const damagedTables = status.tables.filter((table) => table.damaged.length > 0);
  const tableName = (table: TableStatus) => `<strong>${w('floor.page.tableNamed', { table: table.table })}</strong>`;
  const alerts = `${failed.length === 0 ? '' : `<section class="alert" role="alert" data-testid="chain-failures"><h2>${w('floor.page.chainFailed')}</h2><ul>${failed.map((table) => `<li>${tableName(table)}: ${failuresList(language, table.failures.slice(0, 5))}${table.failures.length > 5 ? ' …' : ''}</li>`).join('')}</ul></section>`}${
    unfolded.length === 0 ? '' : `<section class="alert" role="alert" data-testid="fold-problems"><h2>${w('floor.page.foldFailed')}</h2><ul>${unfolded.map((table) => `<li>${tableName(table)}: ${foldProblemsList(language, table.foldProblems.slice(0, 5))}${table.foldProblems.length > 5 ? ' …' : ''}</li>`).join('')}</ul></section>`
  }${damagedTables.length === 0 ? '' : `<section class="alert alert--damaged" role="status" data-testid="damaged-records"><h2>${w('floor.page.damagedHeading')}</h2><ul>${damagedTables.map((table) => `<li>${tableName(table)}: ${damagedList(language, table.damaged.slice(0, 5))}${table.damaged.length > 5 ? ' …' : ''}${damagedRacesList(language, table)}</li>`).join('')}</ul></section>`
  }${foldBehindNote(language, status.foldBehind)}`;
  const rows = status.tables.map((table) => {
    const link = linkState(language, table, now);
    const reader = readerHealthText(language, table);
    const closed = table.openRaceClosed == null ? '' : ` <strong class="closed" data-testid="open-race-closed">${w('floor.decision.closedOnFloor')}</strong>`;
    const open = table.openRace === null ? '—' : `<a href="${href('/race', { table: table.table, race: table.openRace.raceId }, language)}">${escapeHtml(table.openRace.raceId)}</a> (${w(RACE_STATUS[table.openRace.status])})${closed}`;
    return `<tr class="${rowClass(table)}" data-table="${escapeHtml(table.table)}">
<th scope="row"><a href="${href('/table', { table: table.table }, language)}">${escapeHtml(table.table)}</a></th>
<td class="link link--${link.kind}">${escapeHtml(link.text)}<br><small>${table.lastSeen === null ? '—' : escapeHtml(formatTime(language, table.lastSeen))}</small>${reader === '' ? '' : `<br>${reader}`}</td>
<td class="colour colour--${table.colourUp}">${w(COLOUR_UP_STATUS[table.colourUp])}</td>
<td class="num">${n(table.races)}</td>
<td class="num">${n(table.valueDelta, true)}</td>
<td>${sheetCell(language, table.collect, 'collect')}${sheetBreak(language, table)}</td>
<td>${sheetCell(language, table.bring, 'bring')}${sheetBreak(language, table)}</td>
<td class="num">${n(table.corrections)} / ${n(table.refusals)}</td>
<td>${open}</td>
</tr>`;
  });
  const totals = `${progressBoard(status, language)}<dl class="totals" data-testid="totals">
<div><dt>${w('floor.page.tables')}</dt><dd>${n(status.tables.length)}</dd></div>
<div><dt>${w('floor.page.races')}</dt><dd data-testid="total-races">${n(status.totals.races)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd data-testid="total-value">${n(status.totals.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.corrections')} / ${w('floor.page.refusals')}</dt><dd>${n(status.totals.corrections)} / ${n(status.totals.refusals)}</dd></div>
<div><dt>${w('floor.page.toCollect')}</dt><dd>${sheetCell(language, status.totals.collect, 'total-collect')}</dd></div>
<div><dt>${w('floor.page.toBring')}</dt><dd>${sheetCell(language, status.totals.bring, 'total-bring')}</dd></div>
</dl>
<p class="hint">${w('floor.page.sheetHint')}</p>`;
  const body = `<header class="top">
<h1>${w('floor.page.title')} <small>${w('floor.page.lead')}</small></h1>
<nav class="exports"><a href="${href('/seating', {}, language)}" data-testid="seating-link">${w('floor.page.seats.heading')}</a> <a href="${href('/runner', {}, language)}" data-testid="runner-link">${w('floor.page.runner.link')}</a> <a href="/export.csv?lang=${language}">${w('floor.page.exportCsv')}</a> <a href="/export.json">${w('floor.page.exportJson')}</a> <a href="/export/summary.csv?lang=${language}" data-testid="export-summary">${w('floor.page.exportSummaryCsv')}</a> <a href="/export/summary.json">${w('floor.page.exportSummaryJson')}</a></nav>
${languageLinks(language, '/', {})}
</header>
${notice}${clock}
${totals}
${alerts}
${seating}
<main>
${status.tables.length === 0 ? `<p>${w('floor.page.noTables')}</p>` : `<table class="tables" data-testid="tables">
<colgroup><col class="c-table"><col class="c-link"><col class="c-colour"><col class="c-num"><col class="c-num"><col class="c-chips"><col class="c-chips"><col class="c-wide"><col class="c-open"></colgroup>
<thead><tr><th scope="col">${w('floor.page.table')}</th><th scope="col">${w('floor.page.link')} / ${w('floor.page.lastContact')}</th><th scope="col">${w('floor.page.colourUp')}</th><th scope="col">${w('floor.page.races')}</th><th scope="col">${w('floor.page.valueChange')}</th><th scope="col">${w('floor.page.toCollect')}</th><th scope="col">${w('floor.page.toBring')}</th><th scope="col">${w('floor.page.corrections')} / ${w('floor.page.refusals')}</th><th scope="col">${w('floor.page.openRace')}</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`}
</main>`;
  return page(language, say(language, 'floor.page.title'), body, true);
}

/** The table's decisions, oldest first: when, who, what, about which race, the note. */
function decisionsList(language: FloorLanguage, decisions: readonly FloorDecision[]): string {
  const w = wordsOf(language);
  if (decisions.length === 0) return `<p data-testid="no-decisions">${w('floor.decision.none')}</p>`;
  return `<ul class="decisions" data-testid="decisions">${decisions
    .map((decision, index) => {
      // A later decision on the same race revises the earlier one; both are kept and shown (issue 43).
      const revised = decision.raceId === null ? undefined : decisions.slice(0, index).reverse().find((earlier) => earlier.raceId === decision.raceId);
      const revises = revised === undefined ? '' : ` <small data-testid="decision-revises">${w('floor.decision.revises', { time: formatTime(language, revised.at) })}</small>`;
      return `<li data-decision="${decision.decision}"><strong>${escapeHtml(formatTime(language, decision.at))}</strong> · ${escapeHtml(decision.by)} · ${w(DECISION_WORDS[decision.decision])}${decision.raceId === null ? '' : ` (${escapeHtml(decision.raceId)})`}: ${escapeHtml(decision.note)}${revises}</li>`;
    })
    .join('')}</ul>`;
}

/**
 * The table's calls of the floor (issue 43): when, about which race, the dealer's note, and the
 * decision that answered each, or that it is still waiting for one. Nothing when it never called.
 */
function callsList(language: FloorLanguage, table: string, calls: readonly FloorCall[], decisions: readonly FloorDecision[]): string {
  if (calls.length === 0) return '';
  const w = wordsOf(language);
  const items = calls.map((call) => {
    const answer = answerOf(call, decisions);
    const when = call.at === null ? '—' : escapeHtml(formatTime(language, call.at));
    const about = call.raceId === null ? '' : ` · <a href="${href('/race', { table, race: call.raceId }, language)}">${escapeHtml(call.raceId)}</a>`;
    const note = call.note === '' ? `<em>${w('floor.decision.callNoNote')}</em>` : `“${escapeHtml(call.note)}”`;
    const state = answer === null
      ? `<strong class="waiting" data-testid="floor-call-waiting">${w('floor.decision.callWaiting')}</strong>`
      : `<span data-testid="floor-call-answer">${w('floor.decision.callAnswered', { time: formatTime(language, answer.at), by: answer.by, decision: { message: { key: DECISION_WORDS[answer.decision] } } })}</span>`;
    return `<li data-testid="floor-call" data-seq="${call.seq}" data-answered="${answer !== null}"><strong>${when}</strong>${about} · ${note} — ${state}</li>`;
  });
  return `<h3>${w('floor.decision.calls')}</h3><ul class="calls" data-testid="floor-calls">${items.join('')}</ul>`;
}

/** The director's form: what was decided, about which race (the open one first), a note and who decided, both required. Posted with the page's sign-in like the clock's buttons. */
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

function decisionForm(language: FloorLanguage, table: TableStatus, races: readonly FoldedRace[], problem: string | null, chosen: string | null): string {
  const w = wordsOf(language);
  const open = table.openRace?.raceId ?? null;
  const raceIds = [...(open === null ? [] : [open]), ...races.map((race) => race.raceId).filter((id) => id !== open).reverse()];
  // Each race with its status, so an abandoned race is not taken for the one confirmed since.
  const statusOf = (id: string): string => {
    const race = races.find((entry) => entry.raceId === id);
    return race === undefined ? w('floor.page.openRace') : w(RACE_STATUS[race.status]);
  };
  return `<form method="post" action="/decision" class="decision" data-testid="decision-form">
<input type="hidden" name="table" value="${escapeHtml(table.table)}"><input type="hidden" name="lang" value="${language}">
${problem === null ? '' : `<p class="alert" role="alert" data-testid="decision-problem">${escapeHtml(problem)}</p>`}
<label>${w('floor.decision.what')} <select name="decision">${FLOOR_DECISIONS.map((kind) => `<option value="${kind}">${w(DECISION_WORDS[kind])}</option>`).join('')}</select></label>
<label>${w('floor.decision.race')} <select name="race" data-testid="decision-race"><option value="">—</option>${raceIds.map((id) => `<option value="${escapeHtml(id)}"${id === chosen ? ' selected' : ''}>${escapeHtml(id)} (${statusOf(id)})</option>`).join('')}</select></label>
<label>${w('floor.decision.note')} <input name="note" required maxlength="${DECISION_NOTE_MAX}"></label>
<label>${w('floor.decision.by')} <input name="by" required maxlength="${DECIDED_BY_MAX}"></label>
<button type="submit">${w('floor.decision.record')}</button>
</form>`;
}

export function renderTable(table: TableStatus, races: readonly FoldedRace[], language: FloorLanguage, now: number, seats: string = '', decisions: readonly FloorDecision[] = [], problem: string | null = null, calls: readonly FloorCall[] = []): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const link = linkState(language, table, now);
  // A race the director closed on the floor (a table broken mid-colour-up): said beside its status.
  const closedOnFloor = new Set(decisions.filter((decision) => decision.decision === 'race-closed' && decision.raceId !== null).map((decision) => decision.raceId));
  const rows = races.map((race) => `<tr>
<th scope="row"><a href="${href('/race', { table: table.table, race: race.raceId }, language)}">${escapeHtml(race.raceId)}</a></th>
<td>${race.damaged === undefined ? w(RACE_STATUS[race.status]) : `<span class="race-damaged" data-testid="race-damaged" data-status="${race.status}">${raceDamagedText(language, race.damaged)}</span>`}${closedOnFloor.has(race.raceId) && (race.status === 'racing' || race.status === 'waiting-to-confirm') ? ` <strong class="closed" data-testid="race-closed-on-floor">${w('floor.decision.closedOnFloor')}</strong>` : ''}</td>
<td class="num">${race.level === null ? '—' : n(race.level)}</td>
<td class="num">${n(race.removed)} → ${n(race.next)}</td>
<td class="num">${race.valueDelta === null ? '—' : n(race.valueDelta, true)}</td>
<td>${race.winners.length === 0 ? '—' : race.winners.map((seat) => n(seat)).join(', ')}</td>
<td>${escapeHtml(formatTime(language, race.startedAt))}</td>
<td>${race.endedAt === null ? '—' : escapeHtml(formatTime(language, race.endedAt))}</td>
<td class="num">${n(race.corrections)} / ${n(race.refusals)}</td>
</tr>`);
  const title = say(language, 'floor.page.tableNamed', { table: table.table });
  const body = `<header class="top">
<h1>${escapeHtml(title)}</h1>
<nav><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/table', { table: table.table })}
</header>
<dl class="totals" data-testid="totals">
<div><dt>${w('floor.page.link')}</dt><dd class="link--${link.kind}">${escapeHtml(link.text)}</dd></div>
${table.readerHealth == null ? '' : `<div><dt>${w('readerHealth.label')}</dt><dd>${readerHealthText(language, table)}</dd></div>`}
<div><dt>${w('floor.page.colourUp')}</dt><dd>${w(COLOUR_UP_STATUS[table.colourUp])}</dd></div>
<div><dt>${w('floor.page.races')}</dt><dd>${n(table.races)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd>${n(table.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.toCollect')}</dt><dd>${sheetCell(language, table.collect, 'collect')}${sheetBreak(language, table)}</dd></div>
<div><dt>${w('floor.page.toBring')}</dt><dd>${sheetCell(language, table.bring, 'bring')}${sheetBreak(language, table)}</dd></div>
${(table.exchanges ?? []).length === 0 ? '' : `<div><dt>${w('floor.page.runner.exchanges')}</dt><dd>${exchangeLines(language, table.exchanges ?? [])}</dd></div>`}
</dl>
${table.failures.length > 0 ? `<section class="alert" role="alert"><h2>${w('floor.page.chainFailed')}</h2><p>${failuresList(language, table.failures)}</p></section>` : ''}
${table.foldProblems.length > 0 ? `<section class="alert" role="alert"><h2>${w('floor.page.foldFailed')}</h2><p>${foldProblemsList(language, table.foldProblems)}</p></section>` : ''}
${table.damaged.length > 0 ? `<section class="alert alert--damaged" role="status"><h2>${w('floor.page.damagedHeading')}</h2><p>${damagedList(language, table.damaged)}</p></section>` : ''}
${foldBehindNote(language, table.foldBehind)}
${seats}
<main>
${races.length === 0 ? `<p>${w('floor.page.noRaces')}</p>` : `<table class="races"><thead><tr><th scope="col">${w('floor.page.race')}</th><th scope="col">${w('floor.page.colourUp')}</th><th scope="col">${w('floor.page.level')}</th><th scope="col">${w('floor.page.chip')}</th><th scope="col">${w('floor.page.valueChange')}</th><th scope="col">${w('floor.page.winners')}</th><th scope="col">${w('floor.page.started')}</th><th scope="col">${w('floor.page.ended')}</th><th scope="col">${w('floor.page.corrections')} / ${w('floor.page.refusals')}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`}
<section data-testid="decisions-section"><h2>${w('floor.decision.heading')}</h2>
${decisionsList(language, decisions)}
${callsList(language, table.table, calls, decisions)}
${decisionForm(language, table, races, problem, raceInQuestion(table, calls, decisions))}
</section>
</main>`;
  // Not refreshed: a refresh would lose a note or a move being typed.
  return page(language, title, body, false);
}

/**
 * What a line of a race's record says: the station's slip's words for it (record.event.*), and
 * where the card or refusal came from (record.source.*). A refusal's reason is said in the page's
 * language when the station recorded it in keys; an older station's English is marked so.
 */
function eventCells(language: FloorLanguage, event: RaceRecordEvent, seat: (number: number) => SeatParam): { what: string; from: string } {
  const w = wordsOf(language);
  const card = (code: string) => ({ card: code });
  switch (event.type) {
    case 'start':
      return { what: w('record.event.start'), from: '' };
    case 'card':
      return {
        what: event.round === 0 ? w('record.event.card', { card: card(event.card), seat: seat(event.seat) }) : w('record.event.cardTiebreak', { card: card(event.card), seat: seat(event.seat), round: event.round }),
        from: event.readAt === undefined ? w(SOURCE[event.held ? 'held' : event.source]) : w('record.seatMap.taken', { readAt: event.readAt }),
      };
    case 'void': {
      const cards = event.voided.map((voided): Message => (voided.reason === '' ? { key: 'record.event.voided', params: { card: card(voided.card), seat: seat(voided.seat) } } : { key: 'record.event.voidReason', params: { card: card(voided.card), seat: seat(voided.seat), reason: voidReasonParam(voided.reason) } }));
      return { what: w('record.event.void', { cards: { items: cards, join: ';' } }), from: '' };
    }
    case 'refused': {
      const lead = event.count === 1 ? w('record.event.refused', { input: event.input }) : w('record.event.refusedTimes', { input: event.input, n: event.count });
      const why = event.said === undefined ? `<span lang="en">${escapeHtml(event.reason)}</span>` : `<span>${escapeHtml(sayMessage(language, event.said))}</span>`;
      return { what: `${lead} ${why}`, from: w(SOURCE[event.source]) };
    }
    case 'confirm':
      return { what: event.by === undefined ? w('record.event.confirm') : w('record.event.confirmBy', { dealer: event.by }), from: '' };
    case 'abandon':
      return { what: w('record.event.abandon', { reason: event.reason }), from: '' };
    case 'floor-called':
      return { what: event.note === '' ? w('record.event.floorCalled') : w('record.event.floorCalledNote', { note: event.note }), from: '' };
    case 'floor-decision':
      return { what: w('record.event.floorDecision', { time: formatTime(language, event.decidedAt), by: event.by, decision: { message: { key: DECISION_WORDS[event.decision] } }, note: event.note }), from: '' };
  }
}

export function renderRaceRecord(table: string, record: RaceRecord, language: FloorLanguage): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => escapeHtml(formatNumber(language, value, signed));
  const seat = (number: number): SeatParam => {
    const name = record.names[number];
    return name ? { seat: number, name, start: true } : { seat: number, start: true };
  };
  const events = record.events.map((event) => {
    const { what, from } = eventCells(language, event, seat);
    const kind = event.type === 'void' ? ' class="void"' : event.type === 'refused' || event.type === 'abandon' ? ' class="refused"' : '';
    return `<tr${kind} data-type="${event.type}"><td class="num">${eventSeqs(event).map((seq) => n(seq)).join(', ')}</td><td>${escapeHtml(formatTime(language, event.at))}</td><td>${what}</td><td>${from}</td></tr>`;
  });
  const { summary } = record;
  // A seat once, with the chips it won when more than one (high card takes all: awards lists it once a chip).
  const winners = chipsWonBySeat(summary.awards).map(({ seat: number, chips }) => {
    const card = summary.winningCards.find((winning) => winning.seat === number)?.card;
    return `${escapeHtml(sayMessage(language, { key: 'race.next.seat', params: { seat: seat(number) } }))}${card ? ` (<span class="card">${escapeHtml(cardText(card))}</span>)` : ''}${chips > 1 ? ` × ${n(chips)}` : ''}`;
  });
  const status = record.status === 'open' ? (summary.status === 'complete' ? RACE_STATUS['waiting-to-confirm'] : RACE_STATUS.racing) : RACE_STATUS[record.status];
  const title = say(language, 'record.title', { id: record.id });
  const place = [
    w('record.table', { table }),
    w('record.started', { time: formatTime(language, record.startedAt) }),
    ...(record.level === undefined ? [] : [w('record.level', { level: record.level })]),
    ...(record.station === undefined ? [] : [w('record.station', { station: record.station })]),
    w('record.recordSpan', { first: record.seqs.first, last: record.seqs.last }),
  ];
  const body = `<header class="top">
<h1 data-testid="race-title">${escapeHtml(title)}</h1>
<nav><a href="${href('/table', { table }, language)}">${w('floor.page.tableNamed', { table })}</a> <a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/race', { table, race: record.id })}
</header>
<p class="place" data-testid="race-place">${place.join(' · ')}</p>
<dl class="totals" data-testid="race-summary">
<div><dt>${w('floor.page.raceState')}</dt><dd data-testid="race-status">${w(status)}</dd></div>
<div><dt>${w('floor.page.chip')}</dt><dd>${n(summary.removed)} → ${n(summary.next)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd>${summary.valueDelta === null ? '—' : n(summary.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.winners')}</dt><dd>${winners.length === 0 ? '—' : winners.join(', ')}</dd></div>
<div><dt>${w('floor.page.chain')}</dt><dd class="chain--${record.chain}" data-testid="race-chain">${w(CHAIN_STATUS[record.chain])}</dd></div>
<div><dt>${w('floor.page.lastSeal')}</dt><dd><code class="seal">${escapeHtml(record.lastSeal ?? '—')}</code></dd></div>
</dl>
<main>
<h2>${w('record.counts')}</h2>
<table class="counts" data-testid="race-counts"><thead><tr><th scope="col">${w('record.seat')}</th><th scope="col">${w('record.chips')}</th><th scope="col">${w('record.other')}</th></tr></thead><tbody>
${record.counts.map((count) => `<tr><td>${escapeHtml(sayMessage(language, { key: 'race.next.seat', params: { seat: seat(count.seat) } }))}</td><td class="num">${n(count.chips)}</td><td>${w(count.hasOther ? 'record.yes' : 'record.no')}</td></tr>`).join('\n')}
</tbody></table>
<h2>${w('record.events')}</h2>
<table class="record" data-testid="race-record"><colgroup><col class="c-seq"><col class="c-at"><col class="c-what"><col></colgroup>
<thead><tr><th scope="col">${w('record.columns.seq')}</th><th scope="col">${w('record.columns.time')}</th><th scope="col">${w('record.columns.what')}</th><th scope="col">${w('record.columns.from')}</th></tr></thead><tbody>
${events.join('\n')}
</tbody></table>
${whatIfSection(language, record)}
</main>`;
  return page(language, title, body, false);
}

/** "What the other rules would have said": a line a rule set and the house's own, the ones that differ from the house marked. */
function whatIfSection(language: FloorLanguage, record: RaceRecord): string {
  const whatIf = record.whatIf ?? null;
  if (whatIf === null) return '';
  const lines = whatIf.outcomes.map((outcome) => {
    const note = outcome.note === null ? '' : ` (${escapeHtml(sayMessage(language, outcome.note))})`;
    return `<li data-name="${outcome.name}" data-differs="${outcome.differs.any === null ? 'unknown' : String(outcome.differs.any)}"${outcome.differs.any === true ? ' class="differs"' : ''}>${escapeHtml(sayMessage(language, outcome.said))}${note}</li>`;
  });
  return `<h2>${wordsOf(language)('record.whatIf')}</h2>
<ul class="what-if" data-testid="race-what-if">${lines.join('')}</ul>
<p class="note">${escapeHtml(sayMessage(language, whatIf.how))}</p>`;
}

export function renderLogin(language: FloorLanguage, wrong: boolean): string {
  const w = wordsOf(language);
  const body = `<main class="login">
<h1>${w('floor.page.login.title')}</h1>
${wrong ? `<p class="alert" role="alert">${w('floor.page.login.wrong')}</p>` : ''}
<form method="post" action="/login">
<label>${w('floor.page.login.token')} <input type="password" name="token" autocomplete="current-password" required maxlength="512"></label>
<input type="hidden" name="lang" value="${language}">
<button type="submit">${w('floor.page.login.submit')}</button>
</form>
</main>`;
  return page(language, say(language, 'floor.page.login.title'), body, false);
}

/** A page saying one thing (not found, a bad request), in the page's language. */
export function renderMessage(language: FloorLanguage, key: MessageKey): string {
  const w = wordsOf(language);
  return page(language, say(language, 'floor.page.title'), `<main><h1>${w('floor.page.title')}</h1><p>${w(key)}</p><p><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></p></main>`, false);
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
.seating{margin:0 0 1.25rem}.seating form{display:inline}.seating form.break{display:block;margin:.5rem 0}.seating .confirm{margin:.5rem 0;padding:.5rem;border:2px solid #a60;background:#fff8e6}.seating .confirm p{margin:0 0 .5rem}.seating .confirm a{margin-left:.5rem}.seating .changes li{margin:.25rem 0}
html{font:16px/1.35 system-ui,sans-serif;color:#111;background:#f6f6f4}
body{margin:0;padding:8px 12px}
a{color:#0645ad;min-height:44px;display:inline-flex;align-items:center;padding:0 4px}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px}
.top h1{font-size:1.5rem;margin:0;flex:1 1 auto}
.top h1 small{font-size:1rem;font-weight:normal;color:#555}
.clock__held{margin:4px 0;padding:4px 8px;background:#fff3cd;border:1px solid #8a5a00;border-radius:4px;font-weight:700}
.board{margin:6px 0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px}.board h2{margin:0 0 4px;font-size:1rem}.board-counts{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0;padding:0;list-style:none}.board-count{font-size:1.25rem;font-weight:700}.board p{margin:4px 0 0;overflow-wrap:anywhere}.board-done{color:#05620c;font-weight:700}
.totals{display:flex;flex-wrap:wrap;gap:4px 20px;margin:6px 0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px}
.totals div{min-width:0}
.totals dt{font-size:.8rem;color:#555}
.totals dd{margin:0;font-size:1.25rem;font-weight:600;overflow-wrap:anywhere}
.hint{margin:0 0 6px;font-size:.85rem;color:#555}
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
tr.flagged{background:#ffe2c2}
.decision label{display:inline-block;margin:4px 10px 4px 0}.decision input,.decision select,.decision button{font-size:1rem;min-height:36px}.decisions li{margin:2px 0}
.reader--warn{color:#8a5a00;font-weight:bold}.link--connected{color:#05620c}.link--behind{color:#8a5a00}.link--offline,.link--never{color:#7a0014}
.colour--disputed,.colour--floor-called{color:#b00020;font-weight:700}.closed{color:#8a5a00}.colour--waiting-to-confirm{color:#8a5a00;font-weight:600}.colour--done,.colour--closed{color:#05620c}
.chain--broken{color:#b00020}
.chips{white-space:nowrap;display:inline-block;margin-right:6px}
.card{font-weight:700;white-space:nowrap}
.seal{font-size:.7rem;overflow-wrap:anywhere}
tr.void td,tr.refused td{color:#8a5a00}
.what-if li.differs{font-weight:700;color:#8a5a00}
h2{font-size:1.05rem;margin:8px 0 4px}h3{font-size:.95rem;margin:6px 0 2px}
.counts{max-width:640px}
.record .c-seq{width:4.5em}.record .c-at{width:11em}.record .c-what{width:14em}
.login{max-width:420px;margin:40px auto}
.login input,.login button{font-size:1rem;min-height:44px;margin:6px 0;width:100%}
@media (max-width:1100px){html{font-size:14px}.totals dd{font-size:1.05rem}}
`;

/** A refusal said on the page, in its language (a seat list's line, a seat taken). */
function problemOf(problem: string | null, testid: string): string {
  return problem === null ? '' : `<p class="clock__problem" role="alert" data-testid="${testid}">${escapeHtml(problem)}</p>`;
}

/** What an upload loaded, said on the page it returns to (issue 43: a successful load said nothing). */
function loadedOf(loaded: string | null, testid: string): string {
  return loaded === null ? '' : `<p class="loaded" role="status" data-testid="${testid}">${loaded}</p>`;
}

/**
 * The tables broken while a race of theirs is still open (a colour-up race started and neither
 * confirmed nor abandoned): the overview flags them, so the floor settles that race.
 */
export function brokenMidColourUp(status: FloorStatus, seating: readonly TableSeating[], language: FloorLanguage): string {
  const w = wordsOf(language);
  const brokenOpen = status.tables.filter((table) => table.openRace !== null && seating.some((entry) => entry.table === table.table && entry.brokenAt !== null));
  if (brokenOpen.length === 0) return '';
  return `<section class="alert" role="alert" data-testid="broken-mid-colour-up"><h2>${w('floor.page.seats.brokenHeading')}</h2><ul>${brokenOpen
    .map((table) => `<li><a href="${href('/race', { table: table.table, race: table.openRace?.raceId ?? '' }, language)}">${w('floor.page.seats.brokenMidColourUp', { table: table.table, race: table.openRace?.raceId ?? '' })}</a></li>`)
    .join('')}</ul></section>`;
}

/**
 * The seating page: the seat list's upload (multipart, the file as the tournament clock exported
 * it) with a refusal naming the line, and each table's players. No refresh: a file being chosen
 * is not thrown away.
 */
export function renderSeating(status: FloorStatus, seating: readonly TableSeating[], language: FloorLanguage, problem: string | null = null, loaded = false): string {
  const w = wordsOf(language);
  const players = seating.reduce((sum, table) => sum + table.seats.length, 0);
  const rows = seating.map((table) => `<tr data-table="${escapeHtml(table.table)}"><th scope="row"><a href="${href('/table', { table: table.table }, language)}">${escapeHtml(table.table)}</a></th><td>${table.brokenAt === null ? w('floor.page.seats.players', { n: table.seats.length }) : w('floor.page.seats.broken')}</td><td>${table.seats.map((seat) => `${escapeHtml(String(seat.seat))}: ${escapeHtml(seat.player)}`).join(' · ')}</td></tr>`);
  const title = say(language, 'floor.page.seats.heading');
  const body = `<header class="top">
<h1>${escapeHtml(title)} <small data-testid="seating-players">${seating.length === 0 ? '' : w('floor.page.seats.players', { n: players })}</small></h1>
<nav><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/seating', {})}
</header>
${brokenMidColourUp(status, seating, language)}
<section class="seating" data-testid="seating">
<form method="post" action="/seating" enctype="multipart/form-data"><input type="hidden" name="lang" value="${language}"><label>${w('floor.page.seats.upload')} <input type="file" name="file" accept=".csv,.txt,text/csv" required data-testid="seating-file"></label> <button type="submit" data-testid="seating-load">${w('floor.page.seats.load')}</button></form>
<p class="hint">${w('floor.page.seats.loadHint')}</p>${problemOf(problem, 'seating-problem')}${loadedOf(loaded ? w('floor.page.seats.loaded', { players, tables: seating.length }) : null, 'seating-loaded')}
</section>
<main>
${rows.length === 0 ? '' : `<table class="races" data-testid="seating-tables"><thead><tr><th scope="col">${w('floor.page.table')}</th><th scope="col">${w('floor.page.seats.heading')}</th><th scope="col">${w('floor.page.seats.player')}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`}
</main>`;
  return page(language, title, body, false);
}

/**
 * The tournament page: the sheet's upload (multipart, as the seat list's) with a refusal saying
 * what is at fault, and the tournament the floor holds (its chips, house rules, levels and
 * breaks), or none. No refresh: a file being chosen is not thrown away.
 */
/** The race settings the house chooses on its own over the rule set's (the house variants), a row each; none given, no row. */
function houseSettings(house: NonNullable<FloorClock['house']>, w: Words): string {
  const row = <K extends SettingName>(name: K): string => {
    const value = house[name];
    if (value === undefined) return '';
    const names: Readonly<Record<string, MessageKey>> = RULE_NAMES[name];
    return `<div><dt>${w(`floor.page.tournament.${name}`)}</dt><dd data-testid="tournament-${name}">${w(names[value] as MessageKey)}</dd></div>\n`;
  };
  return SETTING_NAMES.map(row).join('');
}

export function renderTournament(clock: FloorClock | null, language: FloorLanguage, problem: string | null = null, loaded = false): string {
  const w = wordsOf(language);
  const n = (value: number) => escapeHtml(formatNumber(language, value));
  const title = say(language, 'floor.page.tournament.heading');
  let shown = `<p data-testid="tournament-none">${w('floor.page.tournament.none')}</p>`;
  if (clock !== null) {
    const { structure } = clock;
    const house = clock.house ?? {};
    let level = 0;
    const rows = structure.levels.map((entry) => {
      if ('break' in entry) return `<tr class="break" data-break-after="${level}"><th scope="row">${w('floor.page.tournament.breakRow')}</th><td></td><td></td><td></td><td class="num">${n(entry.break)}</td></tr>`;
      level += 1;
      const cell = (value: number | undefined) => (value === undefined ? '—' : n(value));
      return `<tr data-level="${level}"><th scope="row">${n(level)}</th><td class="num">${n(entry.sb)}</td><td class="num">${n(entry.bb)}</td><td class="num">${entry.ante ? n(entry.ante) : '—'}</td><td class="num">${cell(entry.minutes)}</td></tr>`;
    });
    shown = `<dl class="totals" data-testid="tournament-house">
<div><dt>${w('floor.page.tournament.chips')}</dt><dd data-testid="tournament-chips">${structure.chips.map((chip) => n(chip)).join(' · ')}</dd></div>
<div><dt>${w('floor.page.tournament.rules')}</dt><dd data-testid="tournament-rules">${house.rules === undefined ? w('floor.page.tournament.tableOwn') : w(`rules.${house.rules}.name`)}</dd></div>
<div><dt>${w('floor.page.tournament.decks')}</dt><dd data-testid="tournament-decks">${house.decks === undefined ? w('floor.page.tournament.tableOwn') : n(house.decks)}</dd></div>
${houseSettings(house, w)}</dl>
<table class="races" data-testid="tournament-levels"><thead><tr><th scope="col">${w('floor.page.level')}</th><th scope="col">${w('floor.page.tournament.smallBlind')}</th><th scope="col">${w('floor.page.tournament.bigBlind')}</th><th scope="col">${w('floor.page.tournament.ante')}</th><th scope="col">${w('floor.page.tournament.minutes')}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
  }
  const body = `<header class="top">
<h1>${escapeHtml(title)}</h1>
<nav><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/tournament', {})}
</header>
<section class="seating" data-testid="tournament">
<form method="post" action="/tournament" enctype="multipart/form-data"><input type="hidden" name="lang" value="${language}"><label>${w('floor.page.tournament.upload')} <input type="file" name="file" accept=".csv,.txt,.json,text/csv,application/json" required data-testid="tournament-file"></label> <button type="submit" data-testid="tournament-load">${w('floor.page.tournament.load')}</button></form>
<p class="hint">${w('floor.page.tournament.loadHint')}</p>
<p class="hint">${w('floor.page.tournament.command', { command: STRUCTURE_COMMAND })}</p>${problemOf(problem, 'tournament-problem')}${loadedOf(loaded && clock !== null ? w('floor.page.tournament.loaded', { levels: clock.structure.levels.filter((entry) => !('break' in entry)).length, breaks: clock.structure.levels.filter((entry) => 'break' in entry).length }) : null, 'tournament-loaded')}
</section>
<main>
${shown}
</main>`;
  return page(language, title, body, false);
}

/** A table's seats on its page: each player with "Out" and "Move to" (table, seat), and "Break the table" behind a confirming tick. */
/** A seat form's action waiting for the director's yes (issue 43: nothing on the page is one tap from harm): the question in words, the form's fields to send again with `confirm=yes`. */
export interface SeatConfirmation {
  readonly question: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** Seats and their players as a break's question and its change say them: `1 Pekka, 3 Matti`, or `—` for none. */
export function seatsText(seats: readonly { readonly seat: number; readonly player: string }[]): string {
  return seats.map(({ seat, player }) => `${seat} ${player}`).join(', ') || '—';
}

/** A change of the seating in the page's words (the changes' list, an undo's question). */
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
  const hidden = (fields: Readonly<Record<string, string>>) => Object.entries({ ...fields, table, lang: language }).map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`).join('');
  const heading = `<h2>${w('floor.page.seats.heading')}${seating?.brokenAt ? ` <small class="link--offline" data-testid="table-broken">${w('floor.page.seats.broken')}</small>` : ''}</h2>`;
  const ask = confirmation === null
    ? ''
    : `<div class="confirm" role="alertdialog" data-testid="seat-confirm"><p><strong>${escapeHtml(confirmation.question)}</strong></p><form method="post" action="/seat">${hidden({ ...confirmation.fields, confirm: 'yes' })}<label>${w('floor.page.seats.by')} <input name="by" required maxlength="${BY_MAX}" autocomplete="name" data-testid="seat-confirm-by"></label> <button type="submit" data-testid="seat-confirm-yes">${w('floor.page.seats.yes')}</button> <a href="${href('/table', { table }, language)}" data-testid="seat-confirm-cancel">${w('floor.page.seats.cancel')}</a></form></div>`;
  const rows = (seating?.seats ?? []).map(({ seat, player }) => `<tr data-seat="${seat}">
<th scope="row">${escapeHtml(String(seat))}</th>
<td data-testid="seat-${seat}-player">${escapeHtml(player)}</td>
<td><form method="post" action="/seat">${hidden({ action: 'out', seat: String(seat) })}<button type="submit" data-testid="seat-${seat}-out">${w('floor.page.seats.out')}</button></form></td>
<td><form method="post" action="/seat" class="move">${hidden({ action: 'move', seat: String(seat) })}<label>${w('floor.page.seats.toTable')} <input name="to-table" required maxlength="32" size="8" data-testid="seat-${seat}-to-table"></label> <label>${w('floor.page.seats.toSeat')} <input name="to-seat" required inputmode="numeric" pattern="[0-9]{1,2}" size="3" data-testid="seat-${seat}-to-seat"></label> <button type="submit" data-testid="seat-${seat}-move">${w('floor.page.seats.move')}</button></form></td>
</tr>`);
  const list = seating === undefined
    ? `<p>${w('floor.page.seats.none')}</p>`
    : rows.length === 0
      ? `<p>${w('floor.page.seats.empty')}</p>`
      : `<table class="races" data-testid="table-seats"><thead><tr><th scope="col">${w('floor.page.seats.seat')}</th><th scope="col">${w('floor.page.seats.player')}</th><th scope="col">${w('floor.page.seats.out')}</th><th scope="col">${w('floor.page.seats.moveTo')}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
  const breakForm = seating === undefined || seating.brokenAt !== null
    ? ''
    : `<form method="post" action="/seat" class="break">${hidden({ action: 'break' })}<button type="submit" data-testid="break-table">${w('floor.page.seats.breakTable')}</button></form>`;
  const changeItems = changes.map((change) => {
    const undone = change.undoneBy === null ? undefined : changes.find((other) => other.id === change.undoneBy);
    const line = w('floor.page.seats.changeLine', { time: formatTime(language, change.at), by: change.by, what: seatingChangeText(change, language) });
    const undoneText = undone === undefined ? '' : ` — <em data-testid="seat-change-undone">${w('floor.page.seats.undone', { by: undone.by, time: formatTime(language, undone.at) })}</em>`;
    const undo = change.undoable ? ` <form method="post" action="/seat">${hidden({ action: 'undo', change: String(change.id) })}<button type="submit" data-testid="seat-change-undo">${w('floor.page.seats.undo')}</button></form>` : '';
    return `<li data-testid="seat-change" data-id="${change.id}" data-kind="${change.kind}"${change.undoneBy === null ? '' : ' data-undone="true"'}>${line}${undoneText}${undo}</li>`;
  });
  const changeList = changeItems.length === 0 ? '' : `<h3>${w('floor.page.seats.changes')}</h3><ol class="changes" data-testid="seat-changes">${changeItems.join('')}</ol>`;
  return `<section class="seating" data-testid="seats">${heading}${problemOf(problem, 'seats-problem')}${ask}${list}${breakForm}${changeList}</section>`;
}
