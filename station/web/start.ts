// `npm run web`: the console in a browser, for stations without Electron and for the end-to-end
// tests. Serves the built renderer (npm run build) and the service on loopback, to a browser that
// opens the printed address: it carries the data folder's browser key (station/web/key.ts).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { findingText } from '../../journal/findings';
import { ConsoleService } from '../service/service';
import { consoleServiceOptions } from '../service/options';
import { startFailureMessage } from '../service/startFailure';
import { DISPLAY_KEY_FILE, KEY_FILE, loadBrowserKey, loadDisplayKey } from './key';
import { portTakenMessage } from './portTaken';
import { startWebServer } from './server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = join(root, 'out', 'renderer');
const env = process.env;
const dataDir = env.CHIP_RACE_DATA_DIR ?? join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'chip-race-console');

function fail(message: string): never {
  process.stderr.write(`web: ${message}\n`);
  process.exit(2);
}

const port = Number(env.CHIP_RACE_PORT ?? 5731);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`CHIP_RACE_PORT must be a port number (got ${env.CHIP_RACE_PORT})`);

// A data folder it cannot write, or a journal key it cannot use: one line saying why, never a stack.
const service = await ConsoleService.start(consoleServiceOptions(dataDir)).catch((error: unknown) => fail(startFailureMessage(error)));
let key: string;
let displayKey: string;
try {
  // The data folder's key, not a new one per launch: a page left open reconnects after a restart.
  key = loadBrowserKey(dataDir);
} catch (error) {
  await service.close();
  fail(`the browser key in ${join(dataDir, KEY_FILE)} could not be read or made: ${(error as Error).message}`);
}
try {
  displayKey = loadDisplayKey(dataDir);
} catch (error) {
  await service.close();
  fail(`the player display's key in ${join(dataDir, DISPLAY_KEY_FILE)} could not be read or made: ${(error as Error).message}`);
}
const host = env.CHIP_RACE_HOST ?? '127.0.0.1';
let server;
try {
  server = await startWebServer({ service, rendererDir, key, displayKey, host, port, allowNonLoopback: env.CHIP_RACE_ALLOW_REMOTE === '1' });
} catch (error) {
  await service.close();
  fail((error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portTakenMessage(host, port) : (error as Error).message);
}
// Checked once the port is held, so a port in use is said as such with or without a build.
if (!existsSync(join(rendererDir, 'index.html'))) {
  await server.close();
  await service.close();
  fail('the console is not built yet: run `npm run build` first (npm run web does it for you)');
}
// The address carries the key: opening it lets that browser in (the page then drops it from the address bar).
// The display's address carries the display's own key: the room's TV gets the display and nothing else.
const address = `${server.url}?key=${key}`;
const display = `${server.displayUrl}?key=${displayKey}#/display`;
process.stdout.write(`Chip Race Console (browser mode): ${address}  ·  player display: ${display}  ·  data: ${dataDir}\n`);
for (const finding of service.getState().journal.findings) process.stdout.write(`journal: ${findingText(finding)}\n`);

const stop = async () => {
  await server.close();
  await service.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
