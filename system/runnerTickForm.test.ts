// Issue 44 (low), as the attack did it: the chip runner's sheet's form posted twice for the same
// table, break and kind (the runner went again) replaced the first tick: who ticked first, when,
// and the chips the sheet said then were gone. Now both are kept (migration 20), the latest is the
// one the sheet is checked against and the first is listed under it. A station's evening replicated
// to a real PostgreSQL server, the floor page's own form.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../floor/db/stations';
import { foldFloor, readFloorStatus } from '../floor/fold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { ask } from '../floor/testing/requests';
import { syncStation } from '../replication/sync';
import { playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const TOKEN = 'runner-tick-password';

describe.runIf(run)("the chip runner's tick form, posted twice (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let page: FloorServer;
  const dir = mkdtempSync(join(tmpdir(), 'runner-tick-form-'));

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    const station = await playStation(dir, '7', 'colour-up-racing');
    await station.close();
    await ensureTable(admin, '7');
    await syncStation(admin, '7', dir);
    while ((await foldFloor(admin)).length > 0) {
      // Folded to the end.
    }
    page = await startFloorServer({ databaseUrl: server.url, port: 0, token: TOKEN, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await admin?.end();
    await server?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps both ticks: the second is the one checked, the first listed under it with its runner, time and chips', async () => {
    const seven = (await readFloorStatus(admin)).tables.find((table) => table.table === '7');
    const level = seven?.sheetAfterLevel;
    expect(level).toBe(6);
    const tick = (by: string) =>
      ask(page.port, '/runner', {
        method: 'POST',
        headers: { origin: `http://127.0.0.1:${page.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ table: '7', level: String(level), kind: 'collected', lang: 'en', by }).toString(),
      });
    expect((await tick('Anna')).status).toBe(303);
    expect((await tick('Ben')).status).toBe(303);
    const kept = await admin.query<{ ticked_by: string; kind: string }>("SELECT ticked_by, kind FROM floor_runner_ticks WHERE table_name = '7' ORDER BY ticked_at, ticked_by");
    expect(kept.rows).toEqual([{ ticked_by: 'Anna', kind: 'collected' }, { ticked_by: 'Ben', kind: 'collected' }]);
    const sheet = await ask(page.port, `/runner?lang=en&level=${level}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(sheet.status).toBe(200);
    expect(sheet.body).toMatch(/data-testid="tick-collected">✓ Ben, /);
    expect(sheet.body).toMatch(/<li data-testid="tick-collected-earlier">earlier: Anna, [^<]+ \([^<]+\)<\/li>/);
  }, 60_000);
});
