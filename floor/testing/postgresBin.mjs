// Where PostgreSQL's server programs are, in plain Node (no TypeScript, no npm package), so that two
// readers share one answer: the tests' throwaway servers (postgres.ts) and the check for the system
// packages that `npm test` and `npm run bench` run before anything of the project's is installed
// (scripts/systemPackages.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's `postgresql` package puts each major version's server (<root>/<major>/bin). */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

/**
 * The folder holding the server's programs (initdb, pg_ctl): Debian's /usr/lib/postgresql/<major>/bin,
 * newest major first, else the one `pg_config --bindir` names. Either only where pg_ctl is there: a
 * pg_config from the client's headers alone (libpq-dev) names /usr/bin, which has no server.
 * @param {NodeJS.ProcessEnv} env the environment whose PATH finds pg_config
 * @param {string} root
 * @returns {string | null}
 */
export function postgresBinDir(env = process.env, root = DEBIAN_POSTGRES_ROOT) {
  if (existsSync(root)) {
    const majors = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const major of majors) if (existsSync(join(root, major, 'bin', 'pg_ctl'))) return join(root, major, 'bin');
  }
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return bin !== '' && existsSync(join(bin, 'pg_ctl')) ? bin : null;
  } catch {
    return null;
  }
}
