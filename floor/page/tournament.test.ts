import { describe, expect, it } from 'vitest';
import { renderTournament } from './render';

const structure = { chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 20 }, { break: 10 }, { sb: 50, bb: 100, minutes: 20 }] };

describe('the tournament page: the house’s race settings (issue 25)', () => {
  it('shows each race setting the house chooses by its name in the page’s language, none when it gives none', () => {
    const plain = renderTournament({ structure, events: [], house: { rules: 'tda' }, held: null } as never, 'en');
    expect(plain).toContain('data-testid="tournament-rules">tda<');
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
