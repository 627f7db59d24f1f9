import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createStationLogin } from '../floor/db/stations';
import { migrate } from '../floor/db/migrate';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectInView, expectNoScroll } from './harness/fit';
import { enterCard, enterCounts, FINNISH_COUNTS, FINNISH_DEAL, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';

// A station dealing with its floor link on: the pill beside the card source says how the link is
// (connected; offline since …, the database stopped mid-race; connected again, caught up), the
// dealing screen still fits 1024×600, and the floor holds every record once.

test.skip(!POSTGRES_AVAILABLE && process.env.CI !== 'true', 'PostgreSQL is not installed');

const TABLE = 'Pöytä 1';
let server: ThrowawayPostgres | undefined;
let app: RunningConsole | undefined;

test.afterAll(async () => {
  if (app !== undefined) await stopConsoles(app);
  await server?.remove();
});

async function admin(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

test('the station shows its floor link while it deals: connected, offline mid-race, caught up', async ({ page }) => {
  test.slow();
  server = await startThrowawayPostgres();
  let floor = await admin(server.url);
  await migrate(floor);
  const login = await createStationLogin(floor, TABLE);
  // The console's process takes its floor from the environment, as a cardroom starts it.
  process.env.CHIP_RACE_DATABASE_URL = server.urlFor(login.role, login.password);
  process.env.CHIP_RACE_TABLE = TABLE;
  try {
    app = await startConsole();
  } finally {
    delete process.env.CHIP_RACE_DATABASE_URL;
    delete process.env.CHIP_RACE_TABLE;
  }
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, name: TABLE });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  const pill = page.getByTestId('floor-link');
  await expect(pill).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await expect(pill).toHaveText('Floor: connected');
  // The password never reaches the page.
  expect(await page.content()).not.toContain(login.password);

  const [first, ...rest] = FINNISH_DEAL;
  await enterCard(page, first?.card ?? 'Ah');
  await floor.end();
  await server.stop();
  // The database gone mid-race: dealing goes on, the pill says since when the floor is away.
  for (const entry of rest.slice(0, 3)) await enterCard(page, entry.card);
  await expect(pill).toHaveAttribute('data-state', 'offline', { timeout: 20_000 });
  await expect(page.getByTestId('floor-link-text')).toContainText('Floor: offline since');
  await expect(pill).toHaveAttribute('title', /the database cannot be reached/);
  await expectNoScroll(page, 'dealing at 1024x600 with the floor offline');
  await expectInView(page.getByTestId('next-step'), 'the headline');
  await expectInView(page.getByTestId('manual-input'), 'the card entry');
  await expectInView(pill, 'the floor link pill');
  for (const entry of rest.slice(3, -1)) await enterCard(page, entry.card);

  await server.start();
  floor = await admin(server.url);
  try {
    // Back: the records dealt meanwhile are sent, and the pill says connected again.
    await expect(pill).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    await enterCard(page, rest.at(-1)?.card ?? 'Tc');
    await page.getByTestId('confirm-race').click();
    await expect.poll(async () => (await floor.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = $1 AND kind = 'race-confirm'", [TABLE])).rows[0]?.n, { timeout: 20_000 }).toBe(1);
    const stored = await floor.query('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs, max(seq)::int AS last FROM station_records WHERE table_name = $1', [TABLE]);
    const row = stored.rows[0] as { n: number; seqs: number; last: number };
    expect(row.n).toBe(row.last);
    expect(row.seqs).toBe(row.last);
    // The race start and every card dealt are there.
    const cards = await floor.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = $1 AND kind = 'race-event'", [TABLE]);
    expect(cards.rows[0]).toEqual({ n: FINNISH_DEAL.length });
  } finally {
    await floor.end();
  }
});
