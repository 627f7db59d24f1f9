// `npm run web`: the console in a browser, for stations without Electron and for the end-to-end
// tests. Serves the built renderer (npm run build) and the service on loopback.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { ConsoleService } from '../service/service';
import { consoleServiceOptions } from '../service/options';
import { startWebServer } from './server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = join(root, 'out', 'renderer');
const env = process.env;
const dataDir = env.CHIP_RACE_DATA_DIR ?? join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'chip-race-console');

function fail(message: string): never {
  process.stderr.write(`web: ${message}\n`);
  process.exit(2);
}

if (!existsSync(join(rendererDir, 'index.html'))) fail('the console is not built yet: run `npm run build` first (npm run web does it for you)');
const port = Number(env.CHIP_RACE_PORT ?? 5731);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`CHIP_RACE_PORT must be a port number (got ${env.CHIP_RACE_PORT})`);

const service = await ConsoleService.start(consoleServiceOptions(dataDir));
let server;
try {
  server = await startWebServer({ service, rendererDir, host: env.CHIP_RACE_HOST ?? '127.0.0.1', port, allowNonLoopback: env.CHIP_RACE_ALLOW_REMOTE === '1' });
} catch (error) {
  await service.close();
  fail((error as Error).message);
}
process.stdout.write(`Chip Race Console (browser mode): ${server.url}  ·  player display: ${server.url}#/display  ·  data: ${dataDir}\n`);
for (const problem of service.getState().journal.problems) process.stdout.write(`journal: ${problem}\n`);

const stop = async () => {
  await server.close();
  await service.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
