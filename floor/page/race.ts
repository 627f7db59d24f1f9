import type { Message, SeatParam } from '../../engine/messages';
import { voidReasonParam } from '../../engine/race/explain';
import type { RaceRecord, RaceRecordEvent } from '../../protocol/contract';
import { chipsWonBySeat } from '../../protocol/views';
import { DECISION_WORDS, eventSeqs } from '../../protocol/races';
import { cardText, href, languageLinks, page, RACE_STATUS, wordsOf } from './common';
import { html, joinHtml, NOTHING, type Html } from './html';
import { formatNumber, formatTime, say, sayMessage, type FloorKey, type FloorLanguage } from './words';

/** A race's page: its record line by line in the station's slip's words (record.*), its counts, winners and chain, and what the other rules would have said. */

const CHAIN_STATUS: Readonly<Record<RaceRecord['chain'], FloorKey>> = {
  intact: 'floor.page.chainStatus.intact',
  broken: 'floor.page.chainStatus.broken',
  damaged: 'floor.page.chainStatus.damaged',
  unchained: 'floor.page.chainStatus.unchained',
  unchecked: 'floor.page.chainStatus.unchecked',
  empty: 'floor.page.chainStatus.empty',
};

const SOURCE: Readonly<Record<'manual' | 'shoe' | 'scanner' | 'held', FloorKey>> = {
  manual: 'record.source.manual',
  shoe: 'record.source.shoe',
  scanner: 'record.source.scanner',
  held: 'record.source.held',
};

/**
 * What a line of a race's record says: the station's slip's words for it (record.event.*), and
 * where the card or refusal came from (record.source.*). A refusal's reason is said in the page's
 * language when the station recorded it in keys; an older station's English is marked so.
 */
function eventCells(language: FloorLanguage, event: RaceRecordEvent, seat: (number: number) => SeatParam): { what: Html; from: Html } {
  const w = wordsOf(language);
  const card = (code: string) => ({ card: code });
  switch (event.type) {
    case 'start':
      return { what: w('record.event.start'), from: NOTHING };
    case 'card':
      return {
        what: event.round === 0 ? w('record.event.card', { card: card(event.card), seat: seat(event.seat) }) : w('record.event.cardTiebreak', { card: card(event.card), seat: seat(event.seat), round: event.round }),
        from: event.readAt === undefined ? w(SOURCE[event.held ? 'held' : event.source]) : w('record.seatMap.taken', { readAt: event.readAt }),
      };
    case 'void': {
      const cards = event.voided.map((voided): Message => (voided.reason === '' ? { key: 'record.event.voided', params: { card: card(voided.card), seat: seat(voided.seat) } } : { key: 'record.event.voidReason', params: { card: card(voided.card), seat: seat(voided.seat), reason: voidReasonParam(voided.reason) } }));
      return { what: w('record.event.void', { cards: { items: cards, join: ';' } }), from: NOTHING };
    }
    case 'refused': {
      const lead = event.count === 1 ? w('record.event.refused', { input: event.input }) : w('record.event.refusedTimes', { input: event.input, n: event.count });
      const why = event.said === undefined ? html`<span lang="en">${event.reason}</span>` : html`<span>${sayMessage(language, event.said)}</span>`;
      return { what: html`${lead} ${why}`, from: w(SOURCE[event.source]) };
    }
    case 'confirm':
      return { what: event.by === undefined ? w('record.event.confirm') : w('record.event.confirmBy', { dealer: event.by }), from: NOTHING };
    case 'abandon':
      return { what: w('record.event.abandon', { reason: event.reason }), from: NOTHING };
    case 'floor-called':
      return { what: event.note === '' ? w('record.event.floorCalled') : w('record.event.floorCalledNote', { note: event.note }), from: NOTHING };
    case 'floor-decision':
      return { what: w('record.event.floorDecision', { time: formatTime(language, event.decidedAt), by: event.by, decision: { message: { key: DECISION_WORDS[event.decision] } }, note: event.note }), from: NOTHING };
  }
}

export function renderRaceRecord(table: string, record: RaceRecord, language: FloorLanguage): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => formatNumber(language, value, signed);
  const seat = (number: number): SeatParam => {
    const name = record.names[number];
    return name ? { seat: number, name, start: true } : { seat: number, start: true };
  };
  const events = record.events.map((event) => {
    const { what, from } = eventCells(language, event, seat);
    const kind = event.type === 'void' ? html` class="void"` : event.type === 'refused' || event.type === 'abandon' ? html` class="refused"` : NOTHING;
    return html`<tr${kind} data-type="${event.type}"><td class="num">${eventSeqs(event).map((seq) => n(seq)).join(', ')}</td><td>${formatTime(language, event.at)}</td><td>${what}</td><td>${from}</td></tr>`;
  });
  const { summary } = record;
  // A seat once, with the chips it won when more than one (high card takes all: awards lists it once a chip).
  const winners = chipsWonBySeat(summary.awards).map(({ seat: number, chips }) => {
    const card = summary.winningCards.find((winning) => winning.seat === number)?.card;
    return html`${sayMessage(language, { key: 'race.next.seat', params: { seat: seat(number) } })}${card ? html` (<span class="card">${cardText(card)}</span>)` : NOTHING}${chips > 1 ? ` × ${n(chips)}` : ''}`;
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
  const counts = record.counts.map((count) => html`<tr><td>${sayMessage(language, { key: 'race.next.seat', params: { seat: seat(count.seat) } })}</td><td class="num">${n(count.chips)}</td><td>${w(count.hasOther ? 'record.yes' : 'record.no')}</td></tr>`);
  const body = html`<header class="top">
<h1 data-testid="race-title">${title}</h1>
<nav><a href="${href('/table', { table }, language)}">${w('floor.page.tableNamed', { table })}</a> <a href="${href('/', {}, language)}">${w('floor.page.back')}</a></nav>
${languageLinks(language, '/race', { table, race: record.id })}
</header>
<p class="place" data-testid="race-place">${joinHtml(place, ' · ')}</p>
<dl class="totals" data-testid="race-summary">
<div><dt>${w('floor.page.raceState')}</dt><dd data-testid="race-status">${w(status)}</dd></div>
<div><dt>${w('floor.page.chip')}</dt><dd>${n(summary.removed)} → ${n(summary.next)}</dd></div>
<div><dt>${w('floor.page.valueChange')}</dt><dd>${summary.valueDelta === null ? '—' : n(summary.valueDelta, true)}</dd></div>
<div><dt>${w('floor.page.winners')}</dt><dd>${winners.length === 0 ? '—' : joinHtml(winners, ', ')}</dd></div>
<div><dt>${w('floor.page.chain')}</dt><dd class="chain--${record.chain}" data-testid="race-chain">${w(CHAIN_STATUS[record.chain])}</dd></div>
<div><dt>${w('floor.page.lastSeal')}</dt><dd><code class="seal">${record.lastSeal ?? '—'}</code></dd></div>
</dl>
<main>
<h2>${w('record.counts')}</h2>
<table class="counts" data-testid="race-counts"><thead><tr><th scope="col">${w('record.seat')}</th><th scope="col">${w('record.chips')}</th><th scope="col">${w('record.other')}</th></tr></thead><tbody>
${joinHtml(counts, '\n')}
</tbody></table>
<h2>${w('record.events')}</h2>
<table class="record" data-testid="race-record"><colgroup><col class="c-seq"><col class="c-at"><col class="c-what"><col></colgroup>
<thead><tr><th scope="col">${w('record.columns.seq')}</th><th scope="col">${w('record.columns.time')}</th><th scope="col">${w('record.columns.what')}</th><th scope="col">${w('record.columns.from')}</th></tr></thead><tbody>
${joinHtml(events, '\n')}
</tbody></table>
${whatIfSection(language, record)}
</main>`;
  return page(language, title, body, false);
}

/** "What the other rules would have said": a line a rule set and the house's own, the ones that differ from the house marked. */
function whatIfSection(language: FloorLanguage, record: RaceRecord): Html {
  const whatIf = record.whatIf ?? null;
  if (whatIf === null) return NOTHING;
  const lines = whatIf.outcomes.map((outcome) => {
    const note = outcome.note === null ? '' : ` (${sayMessage(language, outcome.note)})`;
    return html`<li data-name="${outcome.name}" data-differs="${outcome.differs.any === null ? 'unknown' : String(outcome.differs.any)}"${outcome.differs.any === true ? html` class="differs"` : NOTHING}>${sayMessage(language, outcome.said)}${note}</li>`;
  });
  return html`<h2>${wordsOf(language)('record.whatIf')}</h2>
<ul class="what-if" data-testid="race-what-if">${lines}</ul>
<p class="note">${sayMessage(language, whatIf.how)}</p>`;
}
