import process from 'node:process';
import { InputError } from '../errors';

type ReadFile = (path: string, encoding: 'utf8') => string;

/**
 * The shared contract of the engine's command-line entries: read one JSON file, print exactly one
 * JSON document and exit 0; on any bad input print one line on stderr, nothing on stdout, exit 2.
 */
export function runJsonCommand(args: readonly string[], name: string, compute: (input: unknown) => unknown, readFile: ReadFile): void {
  const fail = (message: string): void => {
    process.stderr.write(`${name}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = 2;
  };
  const files = args.filter((arg) => arg !== '--');
  if (files.length !== 1) return fail(`usage: npm run --silent ${name} -- FILE (one JSON file; got ${files.length} arguments)`);
  const file = files[0] as string;
  let text: string;
  try {
    text = readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read (${code ?? String(error)})`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return fail(`${file}: not valid JSON (${(error as Error).message})`);
  }
  let output: unknown;
  try {
    output = compute(input);
  } catch (error) {
    if (error instanceof InputError) return fail(error.message);
    throw error;
  }
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
}
