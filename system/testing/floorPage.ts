import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../floor/cli';
import { startFloorServer, type FloorServer } from '../../floor/server';
import { startFloorDatabase, type ThrowawayPostgres } from '../../floor/testing/postgres';

/**
 * A throwaway floor database and its page for a describe block (started before its tests, removed
 * after), behind `token`: the headers a form of the floor's own page carries (its Origin and the
 * token), `npm run floor -- …` run in this process against the database, and data folders removed
 * after the block.
 */
export function floorWithPage(token: string, prefix: string) {
  const floor = { server: undefined as unknown as ThrowawayPostgres, admin: undefined as unknown as pg.Client, page: undefined as unknown as FloorServer, origin: '' };
  const folders: string[] = [];
  const closing: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ({ server: floor.server, admin: floor.admin } = await startFloorDatabase());
    floor.page = await startFloorServer({ databaseUrl: floor.server.url, port: 0, token, log: () => undefined });
    floor.origin = `http://127.0.0.1:${floor.page.port}`;
  }, 120_000);

  afterAll(async () => {
    await floor.page?.close();
    await Promise.all(closing.map((close) => close()));
    await floor.admin?.end();
    await floor.server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** A data folder of the block's own. */
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  /** What a form of the floor's own page carries besides its body. */
  const formHeaders = (type: string) => ({ origin: floor.origin, authorization: `Bearer ${token}`, 'content-type': type });
  /** `npm run floor -- ARGS --database URL` in this process: its exit code, standard output and error. */
  const floorCommand = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main([...args, '--database', floor.server.url], {}, (text) => (stdout += text), (text) => (stderr += text));
    return { code, stdout, stderr };
  };
  return { floor, folder, formHeaders, floorCommand, closeAfter: (close: () => Promise<void>) => closing.push(close) };
}
