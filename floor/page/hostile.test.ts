import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';
import { everyPage } from './testing';
import { FLOOR_LANGUAGES } from './words';

/**
 * Every page the floor serves, fed a hostile table name, note and player's name (and refusal):
 * none reaches the page as markup, every one is there as text (escaped).
 */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'Tom & Jerry&amp;<b>',
  // Right-to-left override, combining marks and Arabic, long: kept whole, as text.
  `\u202E${'e\u0301\u0327'.repeat(40)}\u202C مرحبا <svg onload=alert(1)> ${'ا'.repeat(200)}`,
];

/** The page's tags, the doctype and comments aside. */
const tagsOf = (page: string): string[] => page.match(/<[^!][^>]*>/g) ?? [];

/** Pages where only the refusal (`problem`) is the page's, or nothing is: they must still show it escaped when they have one. */
const NO_HOSTILE_TEXT = new Set(['outage', 'login', 'message']);

describe('every floor page, fed a hostile table name, note and player', () => {
  for (const text of HOSTILE) {
    it(`shows ${JSON.stringify(text.slice(0, 40))} as text, never as markup`, () => {
      for (const language of FLOOR_LANGUAGES) {
        const pages = everyPage(text, language);
        expect(Object.keys(pages).length).toBeGreaterThanOrEqual(10);
        for (const [name, page] of Object.entries(pages)) {
          const where = `${language} ${name}`;
          expect(page, where).not.toContain('<script');
          expect(page, where).not.toContain('<img');
          expect(page, where).not.toContain('<svg');
          expect(page, where).not.toContain('<b>');
          // Every tag is the template's: its attributes quoted with ", no handler (onerror=, onload=) among them.
          for (const tag of tagsOf(page)) expect(tag, where).toMatch(/^<\/?[a-z][a-z0-9]*(?:\s+[a-z][a-z-]*(?:="[^"]*")?)*\s*>$/);
          expect(tagsOf(page).some((tag) => / on[a-z]+=/.test(tag.replace(/"[^"]*"/g, '""'))), where).toBe(false);
          if (NO_HOSTILE_TEXT.has(name)) continue;
          expect(page, where).toContain(escapeHtml(text));
          expect(page.includes(text), where).toBe(/[<>&"']/.test(text) ? false : true);
        }
      }
    });
  }

  it('puts the text in every place the floor shows one: rows, notes, players, forms, refusals', () => {
    const marker = '<i>x</i>';
    const escaped = escapeHtml(marker);
    const pages = everyPage(marker);
    const count = (page: string | undefined) => (page ?? '').split(escaped).length - 1;
    // A table's page: its name (title, links, forms), the decision's note and who, the call's note, the seats' players and changes, the exchange's note, the refusal.
    expect(count(pages.table)).toBeGreaterThanOrEqual(20);
    expect(pages.table).toContain(`value="${escaped}"`);
    expect(count(pages.race)).toBeGreaterThanOrEqual(10);
    expect(count(pages.runner)).toBeGreaterThanOrEqual(6);
    expect(count(pages.seating)).toBeGreaterThanOrEqual(6);
    expect(count(pages.overview)).toBeGreaterThanOrEqual(6);
    expect(count(pages.tournament)).toBe(1);
  });
});
