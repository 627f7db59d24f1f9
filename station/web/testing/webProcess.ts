// Browser mode in a process of its own, for the test that must see whether a bad client ends it
// (station/web/server.test.ts): an error nobody handles ends a Node process, which an in-process
// test would not show. The real service and server, as start.ts runs them, on a given data
// folder and renderer folder.
//
//   node --import tsx station/web/testing/webProcess.ts DATA_DIR RENDERER_DIR
//
// stdout: one JSON line {"url": …, "key": …} once it listens; then the server's log lines.
import process from 'node:process';
import { ConsoleService } from '../../service/service';
import { loadBrowserKey } from '../key';
import { startWebServer } from '../server';

const [dataDir, rendererDir] = process.argv.slice(2);
if (dataDir === undefined || rendererDir === undefined) {
  process.stderr.write('usage: webProcess.ts DATA_DIR RENDERER_DIR\n');
  process.exit(2);
}

const service = await ConsoleService.start({ dataDir });
const key = loadBrowserKey(dataDir);
const server = await startWebServer({ service, rendererDir, key, log: (line) => process.stdout.write(`${JSON.stringify({ log: line })}\n`) });
process.stdout.write(`${JSON.stringify({ url: server.url, key })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => service.close()).then(() => process.exit(0));
});
