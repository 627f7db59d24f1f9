import { clockSchedule, readClock } from '../../engine/clock/clock';
import { readStructure } from '../../engine/plan/structure';
import type { FloorClock } from '../../protocol/clock';
import { href, languageLinks, page, problemOf, STRUCTURE_COMMAND, wordsOf } from './common';
import { html, NOTHING, trusted, type Html } from './html';
import { formatTime, say, type FloorKey, type FloorLanguage } from './words';

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
function clockButton(action: string, label: Html, language: FloorLanguage): Html {
  return html`<form method="post" action="/clock"><input type="hidden" name="action" value="${action}"><input type="hidden" name="lang" value="${language}"><button type="submit" data-action="${action}">${label}</button></form>`;
}

const CLOCK_STATE: Readonly<Record<'idle' | 'running' | 'paused' | 'finished', FloorKey>> = {
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
  return clockHtml(clock, language, now, problem).toString();
}

function clockHtml(clock: (FloorClock & { readonly holdBreaks?: boolean }) | null, language: FloorLanguage, now: number, problem: string | null): Html {
  const w = wordsOf(language);
  const refusal = problemOf(problem, 'clock-problem');
  // The tournament page (the sheet's upload) beside the clock: linked, as the overview refreshes itself and would lose a file being chosen.
  const tournament = html`<a href="${href('/tournament', {}, language)}" data-testid="tournament-link">${w('floor.page.tournament.link')}</a>`;
  const none = html`<section class="clock" data-testid="floor-clock" data-status="none"><h2>${w('clock.label')}</h2><p>${w('floor.page.clock.noStructure', { command: STRUCTURE_COMMAND })}</p>${tournament}${refusal}</section>`;
  if (clock === null) return none;
  let reading: ReturnType<typeof readClock>;
  try {
    reading = readClock(clockSchedule(readStructure(clock.structure)), clock.events, now);
  } catch {
    return none;
  }
  const period = reading.period === null ? NOTHING : reading.period.kind === 'level' ? w('clock.level', { level: reading.period.level }) : w('clock.break', { level: reading.period.afterLevel });
  const next = reading.nextBreak === null ? NOTHING : html`<p data-testid="clock-next-break">${w('floor.page.clock.nextBreak', { level: reading.nextBreak.afterLevel, time: clockTime(reading.nextBreak.msTo) })}</p>`;
  const buttons =
    reading.status === 'idle' || reading.status === 'finished'
      ? clockButton('start', w('clock.start'), language)
      : html`${reading.status === 'running' ? clockButton('pause', w('clock.pause'), language) : clockButton('resume', w('clock.resume'), language)}${clockButton('less', w('clock.back'), language)}${clockButton('more', w('clock.forward'), language)}`;
  // The held break: said first, its Resume the director's override; the option's own button beside the clock's.
  const held = clock.held ?? null;
  const heldLine = held === null ? NOTHING : html`<p class="clock__held" role="status" data-testid="clock-held">${w('floor.page.clock.held', { level: held.afterLevel, n: held.tables })}</p>`;
  const hold = clock.holdBreaks === true ? clockButton('hold-off', w('floor.page.clock.holdOff'), language) : clockButton('hold-on', w('floor.page.clock.holdOn'), language);
  const holdLine = html`<p class="hint" data-testid="clock-hold" data-on="${clock.holdBreaks === true}">${w(clock.holdBreaks === true ? 'floor.page.clock.holdIsOn' : 'floor.page.clock.holdIsOff')}</p>`;
  return html`<section class="clock" data-testid="floor-clock" data-status="${reading.status}"${held === null ? NOTHING : html` data-held="true"`}>
<h2>${w('floor.page.clock.status', { clock: { message: { key: 'clock.label' } }, status: { message: { key: CLOCK_STATE[reading.status] } } })}</h2>
<p class="clock__period"><strong data-testid="clock-period">${period}</strong> <span data-testid="clock-left">${w('clock.left', { time: clockTime(reading.msLeft) })}</span></p>
${heldLine}${next}<div class="clock__controls">${buttons}${hold}</div>${holdLine}${tournament}${refusal}
</section>`;
}

/** The banner of a floor whose database is unreachable: since when, and when what is shown was read (null: nothing yet). */
export function outageBanner(language: FloorLanguage, since: number, shownFrom: number | null): string {
  const w = wordsOf(language);
  const when = (ms: number) => formatTime(language, new Date(ms).toISOString());
  return html`<section class="alert" role="alert" data-testid="database-unreachable"><h2>${w('floor.page.unreachable.since', { time: when(since) })}</h2><p>${shownFrom === null ? w('floor.page.unreachable.nothingYet') : w('floor.page.unreachable.shown', { time: when(shownFrom) })}</p></section>`.toString();
}

/** A page with nothing but the outage banner, refreshing itself (the database gone before anything was read). */
export function renderOutage(language: FloorLanguage, banner: string): string {
  const w = wordsOf(language);
  // trusted: `banner` is outageBanner's HTML (above), escaped where it was made; server.ts hands it back as a string.
  return page(language, say(language, 'floor.page.title'), html`<header class="top"><h1>${w('floor.page.title')}</h1>${languageLinks(language, '/', {})}</header>\n${trusted(banner)}`, true);
}
