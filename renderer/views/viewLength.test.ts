import { describe, expect, it } from 'vitest';

// renderer/README.md: a view is at most 400 lines; a larger screen's parts go in components/<screen>/
// (issue 41: CountsView had grown to 447 and SetupView to 435 unnoticed).

/** The most lines a view may have. */
const VIEW_LINES_MAX = 400;

/** Every view's source, as text (Vite reads them at the test's start, as locales.test.ts reads the screens). */
const VIEWS: Readonly<Record<string, string>> = import.meta.glob('./*.vue', { query: '?raw', import: 'default', eager: true });

/** Lines as an editor numbers them: a final newline ends the last line, it starts none. */
function linesOf(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('the views', () => {
  it('are found', () => {
    expect(Object.keys(VIEWS)).toContain('./CountsView.vue');
    expect(Object.keys(VIEWS)).toContain('./SetupView.vue');
  });

  it(`are at most ${VIEW_LINES_MAX} lines each`, () => {
    const over = Object.entries(VIEWS).map(([name, text]) => ({ name, lines: linesOf(text) })).filter((view) => view.lines > VIEW_LINES_MAX);
    expect(over).toEqual([]);
  });
});
