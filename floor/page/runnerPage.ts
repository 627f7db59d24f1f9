import type { ChipsByDenomination } from '../../engine/race/summary';
import { NAME_MAX } from '../../protocol/constants';
import type { ReconciledTable, Reconciliation, RunnerTick, SheetDifference, TickKind } from '../runner';
import { COLOUR_UP_STATUS, exchangeLines, href, languageLinks, page, problemOf, sheetCell, wordsOf } from './common';
import { html, joinHtml, NOTHING, type Html } from './html';
import { formatNumber, formatTime, say, type FloorKey, type FloorLanguage } from './words';

/**
 * The chip runner's sheet of a break, to print and to tick: per table the chips to collect and to
 * bring (what its screens take in and hand out), the value off and onto the table, the runner's
 * ticks with who and when, and what is still to settle. On paper the tick forms are left off and
 * the sheet fits one page for a room of some forty tables (print CSS below).
 */

const DIFFERENCE: Readonly<Record<TickKind, { more: FloorKey; less: FloorKey }>> = {
  delivered: { more: 'floor.page.runner.bringMore', less: 'floor.page.runner.bringLess' },
  collected: { more: 'floor.page.runner.collectMore', less: 'floor.page.runner.collectLess' },
};

/** Chips as a tick kept them, in words: `3 × 100, 10 × 25` (none: —). */
function chipsText(language: FloorLanguage, chips: ChipsByDenomination): string {
  const counted = Object.entries(chips).map(([chip, count]) => [Number(chip), count] as const).filter(([, count]) => count > 0).sort(([a], [b]) => b - a);
  return counted.length === 0 ? '—' : counted.map(([chip, count]) => `${formatNumber(language, count)} × ${formatNumber(language, chip)}`).join(', ');
}

function tickCell(language: FloorLanguage, table: ReconciledTable, kind: TickKind, afterLevel: number, chips: ChipsByDenomination): Html {
  const w = wordsOf(language);
  const tick: RunnerTick | null = kind === 'delivered' ? table.delivered : table.collected;
  const shown = tick === null ? (Object.values(chips).some((count) => count > 0) ? html`<span class="tick tick--owed">${w(kind === 'delivered' ? 'floor.page.runner.notDelivered' : 'floor.page.runner.notCollected')}</span>` : '—') : html`<span class="tick tick--done" data-testid="tick-${kind}">${w('floor.page.runner.ticked', { by: tick.by, time: formatTime(language, tick.at) })}</span>`;
  // The runner went again: the ticks before the latest, kept and listed, newest first.
  const earlier = [...table.earlier[kind]].reverse().map((each) => html`<li data-testid="tick-${kind}-earlier">${w('floor.page.runner.tickedEarlier', { by: each.by, time: formatTime(language, each.at), chips: chipsText(language, each.chips) })}</li>`);
  const before = earlier.length === 0 ? NOTHING : html`<ul class="plain tick--earlier">${earlier}</ul>`;
  const form = html`<form method="post" action="/runner" class="tick-form"><input type="hidden" name="table" value="${table.table}"><input type="hidden" name="level" value="${afterLevel}"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="lang" value="${language}"><input name="by" required maxlength="${NAME_MAX}" placeholder="${w('floor.page.runner.by')}" aria-label="${w('floor.page.runner.by')}" data-testid="tick-by-${kind}"><button type="submit" data-testid="tick-${kind}-button">${w(kind === 'delivered' ? 'floor.page.runner.delivered' : 'floor.page.runner.collected')}</button></form>`;
  return html`${shown}${before}${form}`;
}

function differenceText(language: FloorLanguage, difference: SheetDifference): Html {
  const key = difference.more > 0 ? DIFFERENCE[difference.kind].more : DIFFERENCE[difference.kind].less;
  return wordsOf(language)(key, { n: Math.abs(difference.more), chip: formatNumber(language, difference.chip) });
}

/** The runner's sheet page (`problem`: a tick refused, said at the top). */
export function renderRunner(reconciliation: Reconciliation, language: FloorLanguage, problem: string | null = null): string {
  const w = wordsOf(language);
  const n = (value: number, signed = false) => formatNumber(language, value, signed);
  const level = reconciliation.afterLevel;
  const refusal = problemOf(problem, 'runner-problem', 'alert');
  const head = html`<header class="top"><h1>${level === null ? w('floor.page.runner.link') : w('floor.page.runner.title', { level })}</h1>
<nav class="exports"><a href="${href('/', {}, language)}">${w('floor.page.title')}</a></nav>
${languageLinks(language, '/runner', level === null ? {} : { level: String(level) })}</header>${refusal}`;
  if (level === null || reconciliation.tables.length === 0) return page(language, say(language, 'floor.page.runner.link'), html`${head}<p data-testid="runner-none">${w('floor.page.runner.none')}</p>`, false);
  const rows = reconciliation.tables.map((table) => {
    const check = table.flagged
      ? html`<ul class="plain">${table.differences.map((difference) => html`<li>${differenceText(language, difference)}</li>`)}</ul>${table.differences.length === 0 ? w('floor.page.runner.owed') : NOTHING}`
      : html`✓ ${w('floor.page.runner.ok')}`;
    return html`<tr data-table="${table.table}" class="${table.flagged ? 'row--flagged' : ''}" data-flagged="${table.flagged}">
<th scope="row">${table.table}</th>
<td class="colour colour--${table.colourUp}">${w(COLOUR_UP_STATUS[table.colourUp])}</td>
<td>${sheetCell(language, table.collect, 'runner-collect')}</td>
<td>${tickCell(language, table, 'collected', level, table.collect)}</td>
<td>${sheetCell(language, table.bring, 'runner-bring')}</td>
<td>${tickCell(language, table, 'delivered', level, table.bring)}</td>
<td class="num">${n(table.removedValue)} / ${n(table.addedValue)}<br><strong>${n(table.valueCreated, true)}</strong></td>
<td data-testid="runner-check">${check}</td>
</tr>${table.exchanges.length === 0 ? NOTHING : html`
<tr class="exchanges" data-exchanges="${table.table}"><td></td><td colspan="7">${w('floor.page.runner.exchanges')}:${exchangeLines(language, table.exchanges)}</td></tr>`}`;
  });
  const { totals } = reconciliation;
  const summary = totals.flagged === 0 ? html`<p class="board-done" data-testid="runner-summary">${w('floor.page.runner.allClear')}</p>` : html`<p class="alert" role="status" data-testid="runner-summary">${w('floor.page.runner.flagged', { n: totals.flagged })}</p>`;
  const body = html`${head}
<p class="hint runner-print-hint">${w('floor.page.runner.printHint')}</p>
${summary}
<table class="tables runner" data-testid="runner">
<thead><tr><th scope="col">${w('floor.page.table')}</th><th scope="col">${w('floor.page.colourUp')}</th><th scope="col">${w('floor.page.toCollect')}</th><th scope="col">${w('floor.page.runner.collected')}</th><th scope="col">${w('floor.page.toBring')}</th><th scope="col">${w('floor.page.runner.delivered')}</th><th scope="col">${w('floor.page.runner.values')}</th><th scope="col">${w('floor.page.runner.check')}</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
<tfoot><tr data-testid="runner-totals"><th scope="row">${w('floor.page.runner.total')}</th><td></td><td>${sheetCell(language, totals.collect, 'runner-total-collect')}</td><td></td><td>${sheetCell(language, totals.bring, 'runner-total-bring')}</td><td></td><td class="num">${n(totals.removedValue)} / ${n(totals.addedValue)}<br><strong data-testid="runner-total-created">${n(totals.valueCreated, true)}</strong></td><td>${n(totals.flagged)}</td></tr></tfoot>
</table>`;
  return page(language, say(language, 'floor.page.runner.title', { level }), body, false);
}

/** The runner's sheet on paper: no forms, no navigation, compact, one page for a room of some forty tables. */
export const RUNNER_PRINT_CSS = `
.tick-form{display:flex;gap:4px;margin-top:2px}.tick-form input{width:7em;min-width:0}.tick--owed{color:#8a5a00;font-weight:600}.tick--done{color:#05620c;font-weight:600}.tick--earlier{color:#555;font-size:.85em}.row--flagged th{color:#b00020}.plain{margin:0;padding-left:1em}
@media print{@page{margin:10mm}html{font-size:9pt}.tick-form,.languages,.exports,.runner-print-hint{display:none}.runner th,.runner td{padding:1px 4px}.tables{border-collapse:collapse}.tables th,.tables td{border-bottom:1px solid #999}}
`;
