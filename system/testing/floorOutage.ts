import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { journalPath } from '../../journal/location';
import { say, type FloorLanguage } from '../../floor/page/words';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../floor/testing/postgres';
import { ask, until } from '../../floor/testing/requests';

/**
 * What the tests of the floor losing its database (system/floorDatabaseGone.test.ts,
 * system/floorSilentDrop.test.ts) look for: a station's journal, the outage page's words, the page
 * back once the database is.
 */

/** The journal's last seq: every record's line starts with it. */
export const journalLastSeq = (dataDir: string): number =>
  Number(readFileSync(journalPath(dataDir), 'utf8').split('\n').map((line) => /^\{"seq":(\d+),/.exec(line)?.[1]).filter((seq) => seq !== undefined).at(-1) ?? 0);

/** What the page says first while the database is gone, in `language` (the banner's heading up to its time). */
export const unreachableWords = (language: FloorLanguage) => say(language, 'floor.page.unreachable.since', { time: '\u0000' }).split('\u0000')[0] as string;

/** Until every record of the station's journal is folded (`folded`: the table's folded seq), then the overview answers 200 again, showing `table` and no outage. */
export async function expectFloorBack(port: number, dataDir: string, folded: () => Promise<number>, table: string, foldedWithinMs: number): Promise<void> {
  const last = journalLastSeq(dataDir);
  await until('every record folded', async () => (await folded()) === last, foldedWithinMs);
  const page = await until('the page back', async () => {
    const answer = await ask(port, '/?lang=en');
    return answer.status === 200 ? answer : null;
  });
  expect(page.body).not.toContain('database-unreachable');
  expect(page.body).toContain(`data-table="${table}"`);
}

/** One throwaway PostgreSQL server for the test file (one initdb, started before its tests when `run`, removed after them): what the returned function gives. */
export function clusterForFile(run: boolean): () => ThrowawayPostgres {
  let cluster: ThrowawayPostgres | undefined;
  beforeAll(async () => {
    if (run) cluster = await startThrowawayPostgres();
  }, 120_000);
  afterAll(async () => {
    await cluster?.remove();
  });
  return () => {
    if (cluster === undefined) throw new Error('no PostgreSQL server for this file');
    return cluster;
  };
}
