// Issue 44: a line damaged on the station's disk after the floor holds it must not stop its table
// for good. A real station deals, its records reach a real PostgreSQL floor (as its own login), a
// line of its journal is then damaged on disk (bytes in the middle of it flipped, as the attack
// did), the station starts again and deals on: every new record is stored on the floor, none refused.
import { readFileSync, writeFileSync } from 'node:fs';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createStationLogin } from '../floor/db/stations';
import { POSTGRES_AVAILABLE, withClient } from '../floor/testing/postgres';
import { journalPath } from '../journal/location';
import { readJournalBytes } from '../journal/read';
import { JournalEncoder } from '../journal/encoder';
import { SEAL_LENGTH, Sealer } from '../journal/seal';
import { ConsoleService } from '../station/service/service';
import { lastStoredSeq, pushRecords, type OutgoingRecord } from '../replication/push';
import { journalRecords } from '../replication/testing/journalLines';
import { syncStation } from '../replication/sync';
import { floorWithStations } from './testing/floorStations';
import { dealUntilComplete, playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const clock = () => new Date('2026-12-01T20:00:00Z');

/** Flips the bytes `from`…`to` of a line (each XOR 0xFF): what a failing sector does to them. */
function flipped(line: Buffer, from: number, to: number): Buffer {
  const damaged = Buffer.from(line);
  for (let index = from; index < to; index += 1) damaged[index] = (damaged[index] as number) ^ 0xff;
  return damaged;
}

/** A few bytes in the middle of the line flipped; its seal at the end still reads. */
const middle = (line: Buffer) => flipped(line, (line.length >> 1) - 2, (line.length >> 1) + 2);
/** The middle flipped, and the seal at its end too: nothing of what it was sealed under can be read. */
const middleAndSeal = (line: Buffer) => flipped(middle(line), line.length - SEAL_LENGTH + 12, line.length - SEAL_LENGTH + 16);

/** The middle flipped, and one digit of the seal at its end turned into another: a seal that reads, but not the one it was written under. */
const middleAndSealDigit = (line: Buffer) => {
  const damaged = middle(line);
  const digit = line.length - SEAL_LENGTH + 12;
  damaged[digit] = damaged[digit] === 0x30 ? 0x31 : 0x30;
  return damaged;
};

/** Damages the journal's last line in place (its newline kept), and gives the seq it was written under. */
function damageLastLine(dataDir: string, spoil: (line: Buffer) => Buffer): number {
  const path = journalPath(dataDir);
  const bytes = readFileSync(path);
  const lastStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const line = bytes.subarray(lastStart, bytes.length - 1);
  const seq = Number(/^\{"seq":(\d+),/.exec(line.toString('latin1'))?.[1]);
  writeFileSync(path, Buffer.concat([bytes.subarray(0, lastStart), spoil(line), Buffer.from('\n')]));
  return seq;
}

describe.runIf(run)("a line damaged on the station's disk after the floor took it (a real PostgreSQL floor)", () => {
  const { floor, folder } = floorWithStations('damage-after-replication-');

  /**
   * A station of `table` plays and sends everything; its last line is damaged (before or after
   * the sending, as `sentFirst` says); it starts again and finishes its race, and sends again.
   */
  async function dealPastDamage(table: string, spoil: (line: Buffer) => Buffer, sentFirst = true) {
    const dataDir = folder();
    const login = await createStationLogin(floor.admin, table);
    const asStation = <T>(work: (client: pg.Client) => Promise<T>) => withClient(floor.server.urlFor(login.role, login.password), work);
    const first = await playStation(dataDir, table, 'colour-up-racing', clock);
    await first.close();
    if (sentFirst) expect((await asStation((client) => syncStation(client, table, dataDir))).refused).toEqual([]);
    const held = await lastStoredSeq(floor.admin, table);
    const damagedSeq = damageLastLine(dataDir, spoil);
    if (sentFirst) expect(damagedSeq).toBe(held);

    const again = await ConsoleService.start({ dataDir, clock, station: `pc-${table}` });
    expect(again.getState().journal.chain).toBe('damaged');
    await dealUntilComplete(again, 'race-3');
    expect(await again.confirmRace('race-3')).toEqual({ ok: true, value: null });
    await again.close();

    const journal = readFileSync(journalPath(dataDir));
    const reading = readJournalBytes(journal, { check: (_record): _record is unknown => true });
    const second = await asStation((client) => syncStation(client, table, dataDir));
    return { second, reading, damagedSeq, dataDir, asStation };
  }

  const floorRows = async (table: string, after: number) =>
    (await floor.admin.query<{ seq: string; relinked: boolean; damaged: boolean }>('SELECT seq, relinked, damaged FROM station_records WHERE table_name = $1 AND seq > $2 ORDER BY seq', [table, after])).rows.map((row) => ({ seq: Number(row.seq), relinked: row.relinked, damaged: row.damaged }));

  it('its seal still readable at the line\'s end: the next record links to it, and every new record is stored', async () => {
    const { second, reading, damagedSeq } = await dealPastDamage('21', middle);
    expect(second.refused).toEqual([]);
    expect(second.stored).toBe(reading.lastSeq - damagedSeq);
    expect(await lastStoredSeq(floor.admin, '21')).toBe(reading.lastSeq);
    // Linked by the damaged line's own hash: as the floor holds it, nothing taken on another link.
    expect((await floorRows('21', damagedSeq - 1)).filter((row) => row.relinked || row.damaged)).toEqual([]);
    // The floor keeps the line as it arrived, not as the disk now holds it.
    const kept = await floor.admin.query<{ damaged: boolean }>("SELECT damaged FROM station_records WHERE table_name = '21' AND seq = $1", [damagedSeq]);
    expect(kept.rows).toEqual([{ damaged: false }]);
  }, 120_000);

  it("its seal damaged too: the next record links as the floor's copy of the line does, and every new record is stored (marked relinked)", async () => {
    const { second, reading, damagedSeq } = await dealPastDamage('22', middleAndSeal);
    expect(second.refused).toEqual([]);
    expect(await lastStoredSeq(floor.admin, '22')).toBe(reading.lastSeq);
    const rows = await floorRows('22', damagedSeq);
    expect(rows.length).toBe(reading.lastSeq - damagedSeq);
    // Only the record right after the damaged line was taken by the floor's copy's link.
    expect(rows.filter((row) => row.relinked).map((row) => row.seq)).toEqual([damagedSeq + 1]);
  }, 120_000);

  it("its seal turned into another hash: refused, and the README's way back (the table under a new name) takes the whole journal, nothing refused", async () => {
    const { second, reading, damagedSeq, dataDir } = await dealPastDamage('24', middleAndSealDigit);
    // The link names a hash the floor never held: what this version cannot continue.
    expect(second.refused[0]).toEqual({ seq: damagedSeq + 1, reason: 'broken-link' });
    expect(await lastStoredSeq(floor.admin, '24')).toBe(damagedSeq);
    // The way back: `floor add-table --table 24b`, the station started with that login and name.
    const login = await createStationLogin(floor.admin, '24b');
    const again = await withClient(floor.server.urlFor(login.role, login.password), (client) => syncStation(client, '24b', dataDir));
    expect(again.refused).toEqual([]);
    expect(await lastStoredSeq(floor.admin, '24b')).toBe(reading.lastSeq);
    const rows = await floorRows('24b', damagedSeq - 1);
    expect(rows[0]).toEqual({ seq: damagedSeq, relinked: false, damaged: true });
  }, 120_000);

  it("takes a link to where the floor's last record links, never one further back, nor one of another chain", async () => {
    const records = journalRecords(4, '25');
    const login = await createStationLogin(floor.admin, '25');
    const push = (batch: OutgoingRecord[]) => withClient(floor.server.urlFor(login.role, login.password), (client) => pushRecords(client, '25', batch));
    expect(await push(records)).toEqual({ stored: 4, refused: [] });
    const hashOf = (record: OutgoingRecord | undefined) => (record?.line as string).slice(-66, -2);
    const fifth = (prev: string) => {
      const line = new JournalEncoder(new Sealer(null), 4, prev, null).next('2026-12-01T20:00:05.000Z', 5, { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'KS' }, source: 'manual' }).trimEnd();
      return [{ seq: 5, line, headers: '' }];
    };
    // Past records 3 and 4 (to 2), or to no record of this chain: refused.
    expect((await push(fifth(hashOf(records[1])))).refused).toEqual([{ seq: 5, reason: 'broken-link' }]);
    await floor.admin.query("DELETE FROM chain_failures WHERE table_name = '25'");
    expect((await push(fifth('0'.repeat(64)))).refused).toEqual([{ seq: 5, reason: 'broken-link' }]);
    await floor.admin.query("DELETE FROM chain_failures WHERE table_name = '25'");
    // To 3, where record 4 links: taken, and marked.
    expect(await push(fifth(hashOf(records[2])))).toEqual({ stored: 1, refused: [] });
    expect(await floorRows('25', 3)).toEqual([{ seq: 4, relinked: false, damaged: false }, { seq: 5, relinked: true, damaged: false }]);
  }, 120_000);

  it('damaged before the floor had it, its seal unreadable: sent as evidence, and the chain goes on from the record after it', async () => {
    const { second, reading, damagedSeq } = await dealPastDamage('23', middleAndSeal, false);
    expect(second.refused).toEqual([]);
    expect(await lastStoredSeq(floor.admin, '23')).toBe(reading.lastSeq);
    const rows = await floorRows('23', damagedSeq - 1);
    expect(rows[0]).toEqual({ seq: damagedSeq, relinked: false, damaged: true });
    expect(rows.filter((row) => row.relinked)).toEqual([]);
  }, 120_000);
});
