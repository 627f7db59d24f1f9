// The console service in a process of its own, for the tests that must kill it or starve its
// disk (station/service/crash.test.ts, station/service/badInput.test.ts). It runs the real service on a
// real data dir; only the transport differs from the app: JSON lines on stdin and stdout instead
// of IPC. Started through serviceChild.ts, which bundles this file and spawns `node` on it.
//
//   node service.mjs DATA_DIR [--serial]      (--serial: real serial card sources, as the app)
//
// stdout, one JSON object per line, each written synchronously (stdout is a pipe):
//   {"type":"started","state":…}             the service has started (and replayed its journal)
//   {"type":"state","state":…}               after every state publish. The service publishes
//                                            only after the change is journaled and fsynced, so
//                                            this line is the acknowledgement of that change.
//   {"type":"result","id":N,"result":…}      the answer to command N
// stdin, one JSON object per line: {"id":N,"method":NAME,"args":[…]} with any console command
// (validated exactly as IPC calls are), or one of the test commands below.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { dispatch } from '../../ipc/validate';
import type { ConsoleState } from '../../../protocol/contract';
import { serialCardSources } from '../cardSources';
import { ConsoleService } from '../service';
import type { ServiceOptions } from '../serviceOptions';

const [dataDir, ...flags] = process.argv.slice(2);
if (dataDir === undefined) {
  process.stderr.write('usage: service.mjs DATA_DIR [--serial]\n');
  process.exit(2);
}

const dir = dataDir;
const options: ServiceOptions = { dataDir: dir, ...(flags.includes('--serial') ? { cardSources: serialCardSources } : {}) };
const FILLER = join(dir, '..', 'filler');

function print(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

let service: ConsoleService;

async function start(): Promise<ConsoleState> {
  service = await ConsoleService.start(options);
  service.onState((state) => print({ type: 'state', state }));
  return service.getState();
}

/** Fills the disk under the data dir's parent with a file of zeros until a write fails for lack of space. */
async function fillDisk(): Promise<number> {
  const chunk = Buffer.alloc(4096);
  const file = await open(FILLER, 'a');
  let written = 0;
  try {
    for (;;) {
      const { bytesWritten } = await file.write(chunk);
      written += bytesWritten;
      if (bytesWritten < chunk.length) break;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await file.close();
  }
  return written;
}

/** Test commands: things that happen to the machine or the files, not through the console. */
const TEST_COMMANDS: Readonly<Record<string, () => Promise<unknown>>> = {
  'test:fill': fillDisk,
  'test:free': async () => {
    await rm(FILLER, { force: true });
    return null;
  },
  /** Closes the service and leaves its journal ending in half a line, as a crash inside a write would. */
  'test:tear': async () => {
    await service.close();
    // The record being written is the one after the journal's last: its number, then the crash.
    const last = (await readFile(join(dir, 'journal.jsonl'), 'utf8')).trimEnd().split('\n').at(-1) ?? '{}';
    const seq = ((JSON.parse(last) as { seq?: number }).seq ?? 0) + 1;
    const file = await open(join(dir, 'journal.jsonl'), 'a');
    await file.appendFile(`{"seq":${seq},"at":"2026-11-29T12:00:00.000Z","record":{"kind":"race-ev`);
    await file.close();
    return null;
  },
  /** The journal's bytes (base64): the data folder is inside this process's own mount. */
  'test:journal': async () => (await readFile(join(dir, 'journal.jsonl'))).toString('base64'),
  /** Starts the service again (after test:tear). */
  'test:start': () => start(),
  /** Closes the service and starts a fresh one on the same data dir: what is on disk, read back. */
  'test:restart': async () => {
    await service.close();
    return start();
  },
  'test:exit': async () => {
    await service.close();
    setImmediate(() => process.exit(0));
    return null;
  },
};

async function handle(line: string): Promise<void> {
  const request = JSON.parse(line) as { id?: unknown; method?: unknown; args?: unknown };
  let result: unknown;
  try {
    const test = typeof request.method === 'string' && Object.hasOwn(TEST_COMMANDS, request.method) ? TEST_COMMANDS[request.method] : undefined;
    result = test ? await test() : await dispatch(service, request.method, request.args);
  } catch (error) {
    // A command that throws is a service bug: the tests look for `thrown`.
    result = { thrown: String((error as Error).stack ?? error) };
  }
  print({ type: 'result', id: request.id, result });
}

print({ type: 'started', state: await start() });
// Commands run one after another, in the order they arrive, like the screen's.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(() => handle(line));
});
