// Issue 44 (low): a runner's second tick overwrote the first (one row per table, break and kind:
// who ticked first, when, and the chips the sheet said then were lost). Every tick is kept now
// (migration 20), the latest is the one the sheet is checked against, the earlier are listed on the
// runner's sheet; a floor that ticked before the migration keeps its ticks. A real PostgreSQL server.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './db/migrations';
import { migrate } from './db/migrate';
import type { TableStatus } from './fold';
import { renderRunner } from './page/runnerPage';
import { FLOOR_LANGUAGES, formatTime, say } from './page/words';
import { readTicks, recordTick, reconcile } from './runner';
import { connectedClient, POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './testing/postgres';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** Table 7 at the break after level 2: 3 × 100 to bring, 10 × 25 to collect. */
const SEVEN: TableStatus = {
  table: '7', races: 1, valueDelta: 50, lastSeen: null, colourUp: 'done', behind: 0, openRace: null, corrections: 0, refusals: 0, abandoned: 0, chips: [], failures: [], foldBehind: 0, foldProblems: [], damaged: [], bring: { 100: 3 }, collect: { 25: 10 }, sheetAfterLevel: 2,
};

describe.runIf(run)("the chip runner's ticks, every one kept (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connectedClient(server.url);
    // A floor as the last release left it (before migration 20), a tick already on it.
    await migrate(admin, MIGRATIONS.filter((migration) => migration.version < 20));
    await recordTick(admin, { table: '7', afterLevel: 1, kind: 'collected', by: 'Old', chips: { 25: 4 } });
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('keeps a tick made before the migration', async () => {
    expect((await readTicks(admin, 1)).map(({ by, kind, chips }) => ({ by, kind, chips }))).toEqual([{ by: 'Old', kind: 'collected', chips: { 25: 4 } }]);
  });

  it('keeps the first tick when the runner goes again: the latest is checked against the sheet, the earlier listed on the sheet in every language', async () => {
    // Anna brought 2 × 100 (the sheet said so then); a race later the sheet says 3: Ben brings the third and ticks again.
    await recordTick(admin, { table: '7', afterLevel: 2, kind: 'delivered', by: 'Anna', chips: { 100: 2 } });
    await recordTick(admin, { table: '7', afterLevel: 2, kind: 'delivered', by: 'Ben <b>', chips: { 100: 3 } });
    await recordTick(admin, { table: '7', afterLevel: 2, kind: 'collected', by: 'Anna', chips: { 25: 10 } });
    const ticks = await readTicks(admin, 2);
    expect(ticks.map(({ by, kind, chips }) => ({ by, kind, chips }))).toEqual([
      { by: 'Anna', kind: 'delivered', chips: { 100: 2 } },
      { by: 'Ben <b>', kind: 'delivered', chips: { 100: 3 } },
      { by: 'Anna', kind: 'collected', chips: { 25: 10 } },
    ]);
    const reconciled = reconcile({ tables: [SEVEN] }, ticks, 2);
    const seven = reconciled.tables[0];
    expect(seven).toMatchObject({ delivered: { by: 'Ben <b>', chips: { 100: 3 } }, collected: { by: 'Anna' }, differences: [], flagged: false });
    expect(seven?.earlier.delivered.map(({ by, chips }) => ({ by, chips }))).toEqual([{ by: 'Anna', chips: { 100: 2 } }]);
    expect(seven?.earlier.collected).toEqual([]);
    const first = ticks[0];
    for (const language of FLOOR_LANGUAGES) {
      const page = renderRunner(reconciled, language);
      const listed = page.match(/<li data-testid="tick-delivered-earlier">[^<]*<\/li>/g) ?? [];
      expect(listed, language).toEqual([`<li data-testid="tick-delivered-earlier">${say(language, 'floor.page.runner.tickedEarlier', { by: 'Anna', time: formatTime(language, first?.at ?? ''), chips: '2 × 100' })}</li>`]);
      expect(page, language).toContain('data-testid="tick-delivered">✓ Ben &lt;b&gt;');
      expect(page, language).not.toContain('tick-collected-earlier');
    }
  });
});
