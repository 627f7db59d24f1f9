// Reader health from the card reader to the floor page (issue 26): a console whose reader starts
// sending frames that fail their checksum warns at the station, tells the floor with its contact,
// and the floor page shows the warning beside the table's link; the reader put right, the floor
// hears that too. A real console service (its card source stood in for) and a real PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownEvent, type ShoeEvent } from '../hardware/events';
import type { ConsoleSettings } from '../protocol/contract';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { serviceHarness } from '../station/service/testing/services';
import { startFloorDatabase, POSTGRES_AVAILABLE, type ThrowawayPostgres } from '../floor/testing/postgres';
import { createStationLogin } from '../floor/db/stations';
import { readFloorStatus } from '../floor/fold';
import { renderOverview } from '../floor/page/render';
import { until } from '../floor/testing/requests';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000, cursorMs: 100 };
let now = Date.parse('2026-12-05T21:00:00Z');
const { serviceIn } = serviceHarness({ clock: () => new Date(now), station: 'table-pc', floorTiming: FLOOR_TIMING });
const SETTINGS: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, name: '12' }, source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'stx-sum' } };
const BAD = unknownEvent('\\x02AS\\x00\\x03', { key: 'hardware.frame.badChecksumByte', params: { checksum: 'xor', got: '00', expected: '12' } });
const CLEAN: ShoeEvent = { type: 'device', message: 'new-shoe', raw: 'NEW' };

describe.runIf(run)('reader health from the reader to the floor page', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const dirs: string[] = [];

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a reader going bad warns at the station and on the floor, beside the table’s link; put right, both clear', async () => {
    const login = await createStationLogin(admin, '12');
    const dataDir = mkdtempSync(join(tmpdir(), 'reader-health-'));
    dirs.push(dataDir);
    let emit: (event: ShoeEvent) => void = () => undefined;
    const service = await serviceIn(dataDir, {
      floor: { url: server.urlFor(login.role, login.password), table: '12' },
      cardSources: (_request, sink) => {
        emit = sink;
        return { stop: async () => undefined };
      },
    });
    expect(await service.saveSettings(SETTINGS)).toEqual({ ok: true, value: null });
    for (let i = 0; i < 30; i += 1) emit(i % 3 === 0 ? BAD : CLEAN);
    const recent = await until('the station’s view', () => (service.getState().readerHealth.sources[0]?.recent.frames === 30 ? service.getState().readerHealth.sources[0]?.recent : null));
    expect(recent).toEqual({ verdict: 'warn', frames: 30, unknown: 0, checksum: 10, repeats: 0, held: 0 });
    const tableRow = async () => (await readFloorStatus(admin)).tables.find((table) => table.table === '12');
    expect((await until('the floor told of the reader', async () => (await tableRow())?.readerHealth))).toEqual(recent);
    const page = renderOverview(await readFloorStatus(admin), 'en', now);
    expect(/<tr[^>]*data-table="12"[\s\S]*?<\/tr>/.exec(page)?.[0]).toContain('Card reader: 10 of the last 30 frames bad.');
    // Reseated: clean frames only, until the window (the last 30 frames) holds no bad one; a quiet spell between races clears nothing.
    now += 11 * 60_000;
    for (let i = 0; i < 30; i += 1) emit(CLEAN);
    await until('the station’s view', () => service.getState().readerHealth.sources[0]?.recent.verdict === 'ok');
    expect(await until('the floor told the reader is right', async () => (await tableRow())?.readerHealth?.verdict === 'ok')).toBe(true);
  }, 60_000);
});
