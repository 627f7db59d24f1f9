import { RULE_NAMES, SETTING_NAMES, type SettingName } from '../../engine/race/rules';
import type { FloorClock } from '../../protocol/clock';
import { href, languageLinks, loadedOf, page, problemOf, STRUCTURE_COMMAND, wordsOf, type Words } from './common';
import { html, joinHtml, NOTHING, type Html } from './html';
import { formatNumber, say, type FloorKey, type FloorLanguage } from './words';

/** The race settings the house chooses on its own over the rule set's (the house variants), a row each; none given, no row. */
function houseSettings(house: NonNullable<FloorClock['house']>, w: Words): Html[] {
  const row = <K extends SettingName>(name: K): Html => {
    const value = house[name];
    if (value === undefined) return NOTHING;
    const names: Readonly<Record<string, FloorKey>> = RULE_NAMES[name];
    return html`<div><dt>${w(`floor.page.tournament.${name}`)}</dt><dd data-testid="tournament-${name}">${w(names[value] as FloorKey)}</dd></div>\n`;
  };
  return SETTING_NAMES.map(row);
}

/**
 * The tournament page: the sheet's upload (multipart, as the seat list's) with a refusal saying
 * what is at fault, and the tournament the floor holds (its chips, house rules, levels and
 * breaks), or none. No refresh: a file being chosen is not thrown away.
 */
export function renderTournament(clock: FloorClock | null, language: FloorLanguage, problem: string | null = null, loaded = false): string {
  const w = wordsOf(language);
  const n = (value: number) => formatNumber(language, value);
  const title = say(language, 'floor.page.tournament.heading');
  let shown = html`<p data-testid="tournament-none">${w('floor.page.tournament.none')}</p>`;
  if (clock !== null) {
    const { structure } = clock;
    const house = clock.house ?? {};
    let level = 0;
    const rows = structure.levels.map((entry) => {
      if ('break' in entry) return html`<tr class="break" data-break-after="${level}"><th scope="row">${w('floor.page.tournament.breakRow')}</th><td></td><td></td><td></td><td class="num">${n(entry.break)}</td></tr>`;
      level += 1;
      const cell = (value: number | undefined) => (value === undefined ? '—' : n(value));
      return html`<tr data-level="${level}"><th scope="row">${n(level)}</th><td class="num">${n(entry.sb)}</td><td class="num">${n(entry.bb)}</td><td class="num">${entry.ante ? n(entry.ante) : '—'}</td><td class="num">${cell(entry.minutes)}</td></tr>`;
    });
    shown = html`<dl class="totals" data-testid="tournament-house">
<div><dt>${w('floor.page.tournament.chips')}</dt><dd data-testid="tournament-chips">${structure.chips.map((chip) => n(chip)).join(' · ')}</dd></div>
<div><dt>${w('floor.page.tournament.rules')}</dt><dd data-testid="tournament-rules">${house.rules === undefined ? w('floor.page.tournament.tableOwn') : w(`rules.${house.rules}.name`)}</dd></div>
<div><dt>${w('floor.page.tournament.decks')}</dt><dd data-testid="tournament-decks">${house.decks === undefined ? w('floor.page.tournament.tableOwn') : n(house.decks)}</dd></div>
${houseSettings(house, w)}</dl>
<table class="races" data-testid="tournament-levels"><thead><tr><th scope="col">${w('floor.page.level')}</th><th scope="col">${w('floor.page.tournament.smallBlind')}</th><th scope="col">${w('floor.page.tournament.bigBlind')}</th><th scope="col">${w('floor.page.tournament.ante')}</th><th scope="col">${w('floor.page.tournament.minutes')}</th></tr></thead><tbody>${joinHtml(rows, '\n')}</tbody></table>`;
  }
  const body = html`<header class="top">
<h1>${title}</h1>
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
