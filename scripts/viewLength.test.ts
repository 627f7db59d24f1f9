import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// renderer/README.md: a view is at most 400 lines; a larger screen's parts go in components/<screen>/
// (issue 41: CountsView had grown to 447 and SetupView to 435 unnoticed).

/** The most lines a view may have. */
const VIEW_LINES_MAX = 400;

const folder = new URL('../renderer/views/', import.meta.url); // tsconfig.web.json has no Node types: the check lives with the other file checks

/** Lines as an editor numbers them: a final newline ends the last line, it starts none. */
function linesOf(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('the views', () => {
  const views = readdirSync(folder).filter((name) => name.endsWith('.vue'));

  it('are found', () => {
    expect(views).toContain('CountsView.vue');
    expect(views).toContain('SetupView.vue');
  });

  it(`are at most ${VIEW_LINES_MAX} lines each`, () => {
    const over = views.map((name) => ({ name, lines: linesOf(readFileSync(new URL(name, folder), 'utf8')) })).filter((view) => view.lines > VIEW_LINES_MAX);
    expect(over).toEqual([]);
  });
});
