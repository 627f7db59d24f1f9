import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findInDocumentation } from './documentation';

const run = promisify(execFile);

/**
 * A cardroom's own certificate authority, made on the fly with Debian's `openssl` by the very
 * lines the documentation gives the director (docs/floor.md, between its `cardroom-ca:begin` and
 * `cardroom-ca:end` marks): the tests prove what it says works, and fail when it stops working.
 */
export interface CardroomCa {
  readonly dir: string;
  /** The authority's certificate: what the browsers and the stations trust. */
  readonly caCert: string;
  /** The floor's certificate (signed by the authority) and its key. */
  readonly cert: string;
  readonly key: string;
}

/** The documentation's commands for the cardroom's authority (docs/floor.md), as written there. */
export function cardroomCaScript(): string {
  const { match } = findInDocumentation('cardroom-ca:begin … cardroom-ca:end block', /<!-- cardroom-ca:begin[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- cardroom-ca:end -->/);
  return match[1] as string;
}

/** Runs the README's commands in a new folder for a floor named `name` at `ip`. */
export async function makeCardroomCa(name = 'floor.local', ip = '127.0.0.1'): Promise<CardroomCa> {
  const dir = mkdtempSync(join(tmpdir(), 'cardroom-ca-'));
  await run('sh', ['-e', '-c', cardroomCaScript()], { cwd: dir, env: { ...process.env, FLOOR_NAME: name, FLOOR_IP: ip }, timeout: 60_000 });
  return { dir, caCert: join(dir, 'cardroom-ca.crt'), cert: join(dir, 'floor.crt'), key: join(dir, 'floor.key') };
}
