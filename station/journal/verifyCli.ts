// `npm run --silent verify -- FILE [--key KEYFILE]`: checks a journal's seals, links and sequence
// numbers, prints one JSON document `{ "ok", "records", "problems": [{ "seq", "problem" }] }` and
// exits 0 when it is intact, 1 when a record was altered, removed, inserted or reordered (the
// problems name the first record affected first), 2 when the file cannot be read or checked.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { verifyJournalFile } from './verify';

const USAGE = 'usage: npm run --silent verify -- FILE [--key KEYFILE]';

function fail(message: string): never {
  process.stderr.write(`verify: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}

function failToRead(path: string, what: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  fail(code === 'ENOENT' ? `${path}: no such file` : code === 'EISDIR' ? `${path}: is a folder, not a ${what}` : `${path}: cannot read the ${what} (${code ?? String(error)})`);
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    failToRead(path, what, error);
  }
}

/** That the journal can be read (it is then read a chunk at a time: it may be larger than any buffer). */
function readable(path: string): string {
  try {
    const handle = openSync(path, 'r');
    const folder = fstatSync(handle).isDirectory();
    closeSync(handle);
    if (folder) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    return path;
  } catch (error) {
    failToRead(path, 'journal', error);
  }
}

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const files: string[] = [];
let keyPath: string | null = null;
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index] as string;
  if (arg === '--key') {
    const value = args[index + 1];
    if (value === undefined) fail(`--key needs a file; ${USAGE}`);
    keyPath = value;
    index += 1;
  } else if (arg.startsWith('-')) {
    fail(`unknown option ${arg}; ${USAGE}`);
  } else {
    files.push(arg);
  }
}
if (files.length !== 1) fail(`${USAGE} (one journal file; got ${files.length})`);

const file = files[0] as string;
const outcome = await verifyJournalFile(readable(file), keyPath === null ? null : read(keyPath, 'key'));
if (outcome.exit === 2) fail(`${file}: ${outcome.message}`);
process.stdout.write(`${JSON.stringify(outcome.report, null, 2)}\n`);
process.exitCode = outcome.exit;
