import { describe, expect, it } from 'vitest';
import { raceFromInput } from '../../engine/race/input';
import { raceSummary } from '../../engine/race/summary';
import { renderRaceRecord, renderTournament } from './render';

const structure = { chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 20 }, { break: 10 }, { sb: 50, bb: 100, minutes: 20 }] };

describe('the tournament page: the house’s race settings (issue 25)', () => {
  it('shows each race setting the house chooses by its name in the page’s language, none when it gives none', () => {
    const plain = renderTournament({ structure, events: [], house: { rules: 'tda' }, held: null } as never, 'en');
    expect(plain).toContain('data-testid="tournament-rules">TDA rule<');
    expect(plain).not.toContain('tournament-award');
    const house = { rules: 'classic', award: 'high-card-takes-all', dealStart: 'button', rounding: 'pooled-more-than-half' };
    const shown = renderTournament({ structure, events: [], house, held: null } as never, 'en');
    expect(shown).toContain('<dt>Award</dt><dd data-testid="tournament-award">high-card-takes-all</dd>');
    expect(shown).toContain('<dt>The deal starts</dt><dd data-testid="tournament-dealStart">button</dd>');
    expect(shown).toContain('data-testid="tournament-rounding">pooled-more-than-half<');
    expect(shown).not.toContain('tournament-protection');
    expect(renderTournament({ structure, events: [], house, held: null } as never, 'fi')).toContain('<dt>Pelimerkkien jako</dt><dd data-testid="tournament-award">suurin kortti vie kaiken</dd>');
    expect(renderTournament({ structure, events: [], house, held: null } as never, 'ru')).toContain('data-testid="tournament-award">старшая карта забирает всё<');
  });
});

describe('a race’s page: a seat taking several chips (high card takes all)', () => {
  it('names the seat once, with its card and the chips it took', () => {
    const race = { rules: 'classic', award: 'high-card-takes-all', removed: 25, next: 100, button: 10, seats: [{ seat: 1, name: 'Matti', chips: 7, other: 5000 }, { seat: 2, name: 'Teppo', chips: 2, other: 3000 }, { seat: 3, name: 'Johanna', chips: 2, other: 4000 }], cards: ['Ah', 'Ts', 'Td'] };
    const summary = raceSummary(raceFromInput(race));
    const record = { id: 'race-1', status: 'confirmed', startedAt: '2026-12-05T12:00:00Z', counts: [], names: { 1: 'Matti' }, summary, events: [], seqs: { first: 2, last: 5 }, lastSeal: null, chain: 'intact', findings: [] };
    const page = renderRaceRecord('7', record as never, 'en');
    expect(page).toContain('Seat 1 — Matti (<span class="card">A♥</span>) × 2</dd>');
  });
});

describe('a race’s page: what the other rules would have said (issue 25)', () => {
  it('lists the house’s own and each rule set on the same counts and cards, in the page’s language, the ones that differ marked', async () => {
    const { whatOtherRulesSay } = await import('../../engine/race/whatIf');
    const race = { rules: 'classic', removed: 25, next: 100, button: 3, seats: [{ seat: 1, name: 'Matti', chips: 7, other: 5000 }, { seat: 2, name: 'Teppo', chips: 2, other: 3000 }, { seat: 3, name: 'Johanna', chips: 2, other: 4000 }], cards: ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'] };
    const state = raceFromInput(race);
    const record = { id: 'race-1', status: 'confirmed', startedAt: '2026-12-05T12:00:00Z', counts: [], names: { 1: 'Matti' }, summary: raceSummary(state), events: [], seqs: { first: 2, last: 5 }, lastSeal: null, chain: 'intact', findings: [], whatIf: whatOtherRulesSay(state) };
    const pages = (['en', 'fi', 'ru'] as const).map((language) => renderRaceRecord('7', record as never, language));
    for (const page of pages) {
      expect(page).toContain('data-testid="race-what-if"');
      expect(page.match(/<li data-name="/g)).toHaveLength(5);
      expect(page).toContain('<li data-name="house" data-differs="false">');
      expect(page).toContain('<li data-name="round" data-differs="true" class="differs">');
    }
    expect(pages[0]).toContain('<h2>What the other rules would have said</h2>');
    expect(pages[1]).toContain('<h2>Mitä muut säännöt olisivat sanoneet</h2>');
    expect(pages[2]).toContain('<h2>Что сказали бы другие правила</h2>');
    // A race still being dealt has nothing to compare yet.
    expect(renderRaceRecord('7', { ...record, whatIf: null } as never, 'en')).not.toContain('race-what-if');
  });
});
