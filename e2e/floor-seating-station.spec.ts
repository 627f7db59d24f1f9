import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createStationLogin } from '../floor/db/stations';
import { migrate } from '../floor/db/migrate';
import { setSeating, unseat } from '../floor/seating';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { startLinkedConsole, stopConsoles, type RunningConsole } from './harness/console';
import { FINNISH_TABLE, openConsole, setUpTable } from './harness/flows';

// A station linked to its floor (started with CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE, as a
// cardroom starts it) in the browser: the seat list loaded on the floor becomes its Setup's seats,
// "From the floor" with the seats' ticks and names disabled; a player out on the floor leaves them
// (docs/screenshots/setup-floor-seats.png).

test.skip(!POSTGRES_AVAILABLE && process.env.CI !== 'true', 'PostgreSQL is not installed');

const TABLE = '7';
const shots = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
let server: ThrowawayPostgres | undefined;
let app: RunningConsole | undefined;

test.afterAll(async () => {
  if (app !== undefined) await stopConsoles(app);
  await server?.remove();
});

test("the station's Setup takes the floor's seats, disabled, and follows a player out", async ({ page }) => {
  test.slow();
  server = await startThrowawayPostgres();
  const floor = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 5_000 });
  floor.on('error', () => undefined);
  await floor.connect();
  try {
    await migrate(floor);
    const login = await createStationLogin(floor, TABLE);
    // Table 8 has its station too (issue 44: a seat list naming a table the floor has no station for is refused).
    await createStationLogin(floor, '8');
    app = await startLinkedConsole(server.urlFor(login.role, login.password), TABLE);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openConsole(page, app.url);
    await setUpTable(page, FINNISH_TABLE);

    await setSeating(floor, [{ table: TABLE, seat: 2, player: 'Virtanen, Anna' }, { table: TABLE, seat: 5, player: 'Ольга' }, { table: TABLE, seat: 8, player: 'Korhonen Matti' }, { table: '8', seat: 1, player: 'Liisa' }], 'test');
    const view = page.getByTestId('view-setup');
    await expect(view.getByTestId('setup-seats-from-floor')).toContainText('From the floor', { timeout: 20_000 });
    await expect(view.getByTestId('seat-5-name')).toHaveValue('Ольга');
    await expect(view.getByTestId('seat-5-in-play')).toBeChecked();
    await expect(view.getByTestId('seat-1-in-play')).not.toBeChecked();
    for (const seat of [1, 2, 5, 10]) {
      await expect(view.getByTestId(`seat-${seat}-in-play`)).toBeDisabled();
      await expect(view.getByTestId(`seat-${seat}-name`)).toBeDisabled();
    }
    // Another table's player never reaches this station.
    expect(await page.content()).not.toContain('Liisa');
    await view.getByTestId('setup-table-name').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}setup-floor-seats.png`, animations: 'disabled', caret: 'hide' });

    await unseat(floor, TABLE, 8, 'test');
    await expect(view.getByTestId('seat-8-in-play')).not.toBeChecked({ timeout: 20_000 });
    await expect(view.getByTestId('seat-8-name')).toHaveValue('');
  } finally {
    await floor.end();
  }
});
