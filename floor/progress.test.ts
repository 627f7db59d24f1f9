import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakProgress, COLOUR_UP_STATUSES, type FloorStatus, type TableStatus } from './fold';
import { tablesLeftAt } from './hold';
import { renderOverview } from './page/render';
import { FLOOR_LANGUAGES } from './page/words';

/** A table as the floor's status has it, at a colour-up status. */
const tableAt = (table: string, colourUp: TableStatus['colourUp']): TableStatus => ({
  table, races: 0, valueDelta: 0, lastSeen: null, colourUp, behind: 0, openRace: null, corrections: 0, refusals: 0, abandoned: 0, chips: [], failures: [], foldBehind: 0, foldProblems: [], damaged: [], bring: {}, collect: {}, sheetAfterLevel: 2,
});
const statusOf = (tables: TableStatus[]): FloorStatus => ({ tables, progress: breakProgress(tables), foldBehind: 0, totals: { races: 0, valueDelta: 0, corrections: 0, refusals: 0, chips: [], bring: {}, collect: {} } });

describe("the break's progress board", () => {
  it('counts every table once, at its status, and leaves every one not done nor closed by the floor', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...COLOUR_UP_STATUSES), { maxLength: 600 }), (statuses) => {
        const progress = breakProgress(statuses.map((colourUp) => ({ colourUp })));
        expect(COLOUR_UP_STATUSES.reduce((total, status) => total + progress[status], 0)).toBe(statuses.length);
        for (const status of COLOUR_UP_STATUSES) expect(progress[status]).toBe(statuses.filter((each) => each === status).length);
        expect(progress.left).toBe(statuses.filter((status) => status !== 'done' && status !== 'closed').length);
        // The held break waits for the same tables (each at the break the board is for).
        expect(tablesLeftAt({ tables: statuses.map((colourUp, index) => tableAt(String(index), colourUp)) }, 2)).toBe(progress.left);
      }),
    );
  });

  it('does not wait for a table broken mid-colour-up whose race the director closed (closed by the floor), in every language', () => {
    const tables = [tableAt('7', 'done'), tableAt('8', 'closed')];
    expect(breakProgress(tables).left).toBe(0);
    expect(tablesLeftAt({ tables }, 2)).toBe(0);
    // Closed at another break than the one held: still left for this one.
    expect(tablesLeftAt({ tables }, 3)).toBe(2);
    const words = { en: 'closed by the floor', fi: 'suljettu salissa', ru: 'закрыта в зале' } as const;
    for (const language of FLOOR_LANGUAGES) {
      const page = renderOverview(statusOf(tables), language, Date.now());
      expect(page).toMatch(/class="board-done" data-testid="progress-left">/);
      expect(page).toContain(`data-status="closed"><span class="board-count">1</span> ${words[language]}`);
    }
  });

  it('shows on the floor page how many tables are left and which, in every language, and when every one is done', () => {
    const tables = [tableAt('7', 'done'), tableAt('8', 'racing'), tableAt('12', 'disputed'), tableAt('Pöytä 3', 'waiting-to-confirm')];
    const page = renderOverview(statusOf(tables), 'en', Date.now());
    const board = /<section class="board" data-testid="progress"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(board).toContain('Tables left: 3 of 4');
    expect(board).toMatch(/Still to finish: <a class="colour colour--racing"[^>]*>8<\/a> <a class="colour colour--disputed"[^>]*>12<\/a> <a class="colour colour--waiting-to-confirm"[^>]*>Pöytä 3<\/a>/);
    expect(board).toContain('data-status="done"><span class="board-count">1</span> done');
    for (const language of FLOOR_LANGUAGES) {
      expect(renderOverview(statusOf(tables), language, Date.now())).toContain('data-testid="progress-left"');
      expect(renderOverview(statusOf(tables.map((table) => ({ ...table, colourUp: 'done' as const }))), language, Date.now())).toMatch(/class="board-done" data-testid="progress-left">[^<]+</);
    }
    expect(renderOverview(statusOf(tables.map((table) => ({ ...table, colourUp: 'done' as const }))), 'fi', Date.now())).toContain('Kaikki pöydät ovat valmiita');
  });
});
