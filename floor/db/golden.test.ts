// The floor's side of the journal's golden vectors (journal/golden.ts): the outbox cuts the
// file into exactly those lines and headers, and the trigger — the grammar written again in
// PL/pgSQL — takes them as a station sends them, stores what the console wrote (seq, time, kind,
// record, hash), and refuses each of them changed by one byte. Against a real PostgreSQL 15.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_JOURNALS, GOLDEN_RECORDS } from '../../journal/golden';
import { journalPath } from '../../journal/location';
import { nextBatch, readCursor } from '../../replication/outbox';
import { POSTGRES_AVAILABLE, startFloorDatabase, withClient, type ThrowawayPostgres } from '../testing/postgres';
import { pushRecords, type OutgoingRecord } from '../../replication/push';
import { createStationLogin } from './stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The golden journal as the outbox sends it: the header rides with record 1. */
const expectedRecords = (lines: readonly string[]): OutgoingRecord[] => lines.slice(1).map((line, index) => ({ seq: index + 1, line, headers: index === 0 ? (lines[0] as string) : '' }));

describe.runIf(run)('the golden journal lines on the floor (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  /** Sends records for a table under its own station login. */
  const sendAsStation = async (table: string, records: readonly OutgoingRecord[]) => {
    const login = await createStationLogin(admin, table);
    return withClient(server.urlFor(login.role, login.password), (station) => pushRecords(station, table, records));
  };

  for (const chain of ['sha256', 'hmac-sha256'] as const) {
    const lines = GOLDEN_JOURNALS[chain];

    it(`${chain}: the outbox sends exactly the golden lines, and the trigger stores what the console wrote`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'golden-outbox-'));
      folders.push(dataDir);
      writeFileSync(journalPath(dataDir), `${lines.join('\n')}\n`);
      const table = `golden ${chain}`;
      const batch = await nextBatch(dataDir, await readCursor(dataDir, table), 0);
      expect(batch.records).toEqual(expectedRecords(lines));

      expect(await sendAsStation(table, batch.records)).toEqual({ stored: 3, refused: [] });
      const stored = await admin.query<{ seq: string; at: Date; kind: string; record: unknown; hash: string; prev: string; chain: string; seal_checked: boolean; line: string }>(
        'SELECT seq, at, kind, record, hash, prev, chain, seal_checked, line FROM station_records WHERE table_name = $1 ORDER BY seq',
        [table],
      );
      expect(stored.rows.map((row) => ({ seq: Number(row.seq), at: row.at.toISOString(), kind: row.kind, record: row.record, line: row.line }))).toEqual(
        GOLDEN_RECORDS.map(({ at, record }, index) => ({ seq: index + 1, at, kind: (record as { kind: string }).kind, record, line: lines[index + 1] })),
      );
      // Each stored hash is the seal at the end of its line, and links to the line before it.
      for (const [index, row] of stored.rows.entries()) {
        expect(lines[index + 1]?.endsWith(`,"hash":"${row.hash}"}`)).toBe(true);
        expect(lines[index]?.endsWith(`,"hash":"${row.prev}"}`)).toBe(true);
        expect(row.chain).toBe(chain);
        // An HMAC's key stays at the station: there only the links are checked.
        expect(row.seal_checked).toBe(chain === 'sha256');
      }
    });

    it(`${chain}: each record changed by one byte is refused, never stored`, async () => {
      for (let index = 1; index < lines.length; index += 1) {
        const table = `golden ${chain} edit ${index}`;
        const records = expectedRecords(lines).slice(0, index);
        const original = records[index - 1] as OutgoingRecord;
        // A byte of the record (SHA-256: its seal no longer matches), or of its link back (an HMAC
        // chain, whose seals only the station's key can check).
        const edited = chain === 'sha256' ? original.line.replace('"Zz"', '"Zy"').replace('♥', '♦') : original.line.replace(/"prev":"([0-9a-f])/, (_, digit: string) => `"prev":"${digit === '0' ? '1' : '0'}`);
        expect(edited).not.toBe(original.line);
        records[index - 1] = { ...original, line: edited };
        const outcome = await sendAsStation(table, records);
        expect(outcome.stored).toBe(index - 1);
        expect(outcome.refused).toEqual([{ seq: index, reason: chain === 'sha256' ? 'bad-seal' : 'broken-link' }]);
      }
    });
  }
});
