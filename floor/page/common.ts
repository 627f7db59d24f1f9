import { formatCard, type Card } from '../../engine/cards';
import type { ChipsByDenomination } from '../../engine/race/summary';
import { FLOOR_REFUSAL_REASONS, type RaceRecord } from '../../protocol/contract';
import type { ChainFailure, FoldedExchange, FoldedRace, FoldProblem, TableStatus } from '../fold';
import { html, joinHtml, NOTHING, type Html } from './html';
import { FLOOR_LANGUAGES, formatNumber, formatTime, say, type FloorKey, type FloorLanguage, type FloorParam } from './words';

/**
 * What every floor page shares: its frame (page), its links and language links, and the pieces the
 * overview, a table's page and the runner's sheet show alike (a link's state, a sheet's cells, the
 * statuses in words). Every text from the database goes through `html`, which escapes it.
 */

/** A station is taken as connected while it was heard from within this long (its link reports every few seconds). */
export const CONNECTED_WITHIN_MS = 60_000;

/** The command that loads a structure into the floor, as the clock's note and the tournament page name it (a command is no language's). */
export const STRUCTURE_COMMAND = 'npm run floor -- structure --database URL --file structure.csv';

export const cardText = (card: string): string => {
  try {
    return formatCard(card as Card, 'pips');
  } catch {
    return card;
  }
};

/** The page's words in its language, as HTML (escaped): `w('floor.page.title')`. */
export type Words = (key: FloorKey, params?: Readonly<Record<string, FloorParam>>) => Html;
export const wordsOf = (language: FloorLanguage): Words => (key, params) => html`${say(language, key, params)}`;

export const COLOUR_UP_STATUS: Readonly<Record<TableStatus['colourUp'], FloorKey>> = {
  'not-started': 'floor.page.colourUpStatus.notStarted',
  racing: 'floor.page.colourUpStatus.racing',
  'waiting-to-confirm': 'floor.page.colourUpStatus.waitingToConfirm',
  done: 'floor.page.colourUpStatus.done',
  closed: 'floor.page.colourUpStatus.closed',
  disputed: 'floor.page.colourUpStatus.disputed',
  'floor-called': 'floor.page.colourUpStatus.floorCalled',
};

type RaceStatus = FoldedRace['status'] | RaceRecord['status'];
export const RACE_STATUS: Readonly<Record<RaceStatus | 'waiting-to-confirm', FloorKey>> = {
  racing: 'floor.page.raceStatus.racing',
  'waiting-to-confirm': 'floor.page.raceStatus.waitingToConfirm',
  confirmed: 'floor.page.raceStatus.confirmed',
  abandoned: 'floor.page.raceStatus.abandoned',
  open: 'floor.page.raceStatus.open',
  damaged: 'floor.page.raceStatus.damaged',
};

/** What a line damaged at the station cost a race (FoldedRace.damaged): its confirmation (not confirmed, not counted), or a line of a confirmed race. */
export function raceDamagedText(language: FloorLanguage, damaged: NonNullable<FoldedRace['damaged']>): Html {
  const w = wordsOf(language);
  if (damaged.confirmed) return damaged.seq === null ? w('floor.page.raceDamaged.confirmedUnknown') : w('floor.page.raceDamaged.confirmed', { seq: damaged.seq });
  return html`${w(RACE_STATUS.damaged)} (${damaged.seq === null ? w('floor.page.raceDamaged.lostUnknown') : w('floor.page.raceDamaged.lost', { seq: damaged.seq })})`;
}

const FOLD_REASON: Readonly<Record<FoldProblem['reason'], FloorKey>> = {
  'number-out-of-range': 'floor.page.foldReason.numberOutOfRange',
  'bad-time': 'floor.page.foldReason.badTime',
  'fold-failed': 'floor.page.foldReason.foldFailed',
};

const isRefusalReason = (reason: string): reason is (typeof FLOOR_REFUSAL_REASONS)[number] => (FLOOR_REFUSAL_REASONS as readonly string[]).includes(reason);

/** Why the floor refused a record on arrival, in the station's words for it (floorLink.chain.*); a code this version does not know, as it is. */
function refusalReason(reason: string): FloorParam {
  return isRefusalReason(reason) ? { message: { key: `floorLink.chain.${reason}` } } : reason;
}

/** A query string for a page of the floor, in the page's language (escaped where it is put in the page). */
export function href(path: string, params: Readonly<Record<string, string>>, language: FloorLanguage): string {
  const query = new URLSearchParams({ ...params, lang: language });
  return `${path}?${query.toString()}`;
}

export function page(language: FloorLanguage, title: string, body: Html, refresh: boolean): string {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? html`<meta http-equiv="refresh" content="5">\n` : NOTHING}<title>${title}</title>
<link rel="stylesheet" href="/floor.css">
</head>
<body>
${body}
</body>
</html>
`.toString();
}

export function languageLinks(language: FloorLanguage, path: string, params: Readonly<Record<string, string>>): Html {
  const links = FLOOR_LANGUAGES.map((other) => (other === language ? html`<strong>${other.toUpperCase()}</strong>` : html`<a href="${href(path, params, other)}" hreflang="${other}">${other.toUpperCase()}</a>`));
  return html`<nav class="languages" aria-label="${wordsOf(language)('floor.page.languages')}">${joinHtml(links, ' ')}</nav>`;
}

/** A table's link as the overview shows it: connected, behind by some records, offline since when, or never heard from. */
export function linkState(language: FloorLanguage, table: Pick<TableStatus, 'lastSeen' | 'behind'>, now: number): { text: string; kind: 'connected' | 'behind' | 'offline' | 'never' } {
  if (table.lastSeen === null) return { text: say(language, 'floor.page.neverSeen'), kind: 'never' };
  const age = now - new Date(table.lastSeen).getTime();
  if (age > CONNECTED_WITHIN_MS) return { text: say(language, 'floor.page.offlineSince', { time: formatTime(language, table.lastSeen) }), kind: 'offline' };
  if (table.behind > 0) return { text: say(language, 'floor.page.behind', { n: table.behind }), kind: 'behind' };
  return { text: say(language, 'floor.page.connected'), kind: 'connected' };
}

/** A table's card reader as its station last reported it, beside its link (nothing when it never did, or has none in use). */
export function readerHealthText(language: FloorLanguage, table: Pick<TableStatus, 'readerHealth'>): Html {
  const health = table.readerHealth;
  if (health === undefined || health === null) return NOTHING;
  const text = say(language, health.verdict === 'warn' ? 'readerHealth.warning' : `readerHealth.${health.verdict}`, { bad: health.unknown + health.checksum, frames: health.frames });
  return html`<small class="reader reader--${health.verdict}" data-testid="reader-health" data-verdict="${health.verdict}">${text}</small>`;
}

/** The chip runner's sheet, one side of it: `100 × 3` per denomination, smallest first (— when none). */
export function sheetCell(language: FloorLanguage, chips: ChipsByDenomination, testid: string): Html {
  const shown = Object.entries(chips).filter(([, count]) => count > 0).sort(([a], [b]) => Number(a) - Number(b));
  if (shown.length === 0) return html`<span data-testid="${testid}">—</span>`;
  const cells = shown.map(([chip, count]) => html`<span class="chips" data-chip="${chip}" data-count="${count}">${formatNumber(language, Number(chip))}&nbsp;×&nbsp;${formatNumber(language, count)}</span>`);
  return html`<span data-testid="${testid}">${joinHtml(cells, ' ')}</span>`;
}

/** The break a table's sheet is for, under its cells (nothing when it has had none). */
export function sheetBreak(language: FloorLanguage, table: Pick<TableStatus, 'sheetAfterLevel'>): Html {
  return table.sheetAfterLevel === null ? NOTHING : html`<br><small>${wordsOf(language)('floor.page.sheetBreak', { level: table.sheetAfterLevel })}</small>`;
}

/** One exchange outside a race as a line of the sheet: which (late-found of its race, or discretionary), whose seat, the chips each way, the value removed, the note. */
function exchangeLine(language: FloorLanguage, exchange: FoldedExchange): Html {
  const w = wordsOf(language);
  const chip = (value: number) => formatNumber(language, value);
  const parts = [
    exchange.reason === 'late-found' ? w('floor.page.runner.lateFound', { race: exchange.raceId ?? '' }) : w('floor.page.runner.discretionary'),
    ...(exchange.seat === null ? [] : [w('floor.page.runner.exchangeSeat', { seat: exchange.seat })]),
    w('floor.page.runner.exchangeChips', { count: exchange.count, removed: chip(exchange.removed), given: exchange.given, next: chip(exchange.next) }),
    ...(exchange.lost === 0 ? [] : [w('floor.page.runner.exchangeLost', { lost: exchange.lost, removed: chip(exchange.removed), value: formatNumber(language, exchange.valueDelta, true) })]),
  ];
  const note = exchange.note === '' ? NOTHING : html` <q>${exchange.note}</q>`;
  return html`<li data-testid="runner-exchange" data-reason="${exchange.reason}" data-seq="${exchange.seq}">${joinHtml(parts, ', ')}${note}</li>`;
}

/** A sheet's exchanges outside a race, a line each. */
export function exchangeLines(language: FloorLanguage, exchanges: readonly FoldedExchange[]): Html {
  return html`<ul class="plain">${exchanges.map((exchange) => exchangeLine(language, exchange))}</ul>`;
}

export function failuresList(language: FloorLanguage, failures: readonly ChainFailure[]): Html {
  const w = wordsOf(language);
  return joinHtml(failures.map((failure) => w('floor.page.recordProblem', { seq: failure.seq, reason: refusalReason(failure.reason) })), '; ');
}

export function damagedList(language: FloorLanguage, seqs: readonly number[]): Html {
  const w = wordsOf(language);
  return joinHtml(seqs.map((seq) => w('floor.page.damagedRecord', { seq })), '; ');
}

export function foldProblemsList(language: FloorLanguage, problems: readonly FoldProblem[]): Html {
  const w = wordsOf(language);
  return joinHtml(problems.map((problem) => w('floor.page.recordProblem', { seq: problem.seq, reason: { message: { key: FOLD_REASON[problem.reason] } } })), '; ');
}

/** The records that arrived and are not folded yet, when there are any. */
export const foldBehindNote = (language: FloorLanguage, records: number): Html => (records > 0 ? html`<p class="fold-behind" data-testid="fold-behind">${wordsOf(language)('floor.page.foldBehind', { n: records })}</p>` : NOTHING);

/** A refusal said on the page, in its language (a seat list's line, a seat taken, a tick refused). */
export function problemOf(problem: string | null, testid: string, kind = 'clock__problem'): Html {
  return problem === null ? NOTHING : html`<p class="${kind}" role="alert" data-testid="${testid}">${problem}</p>`;
}

/** What an upload loaded, said on the page it returns to (issue 43: a successful load said nothing). */
export function loadedOf(loaded: Html | null, testid: string): Html {
  return loaded === null ? NOTHING : html`<p class="loaded" role="status" data-testid="${testid}">${loaded}</p>`;
}
