// Every read is seen (issue 24): a read from a serial shoe that is no card, while a race or game is
// open, is on its record as a refusal from the shoe, with the text as read and the decoder's reason
// in keys, after a restart too. Thousands of them, in turn with cards the race refuses, cost the
// journal a line a kind (the refusal runs), or the shoe's allowance of distinct refusals
// (refusalRuns.ts), never a line a read; every one is counted on the race's record, and the race
// goes on. Real serial lines: socat pseudo-terminals.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import { findingText } from '../../journal/findings';
import { journalPath } from '../../journal/location';
import type { CommandResult, ConsoleSettings, RaceRecord, RaceRecordEvent } from '../../protocol/contract';
import { eventSeqs } from '../../protocol/races';
import { serialCardSources } from './cardSources';
import { REFUSAL_BURST, REFUSAL_REFILL_MS, REPEAT_FLUSH_MS } from './refusalRuns';
import type { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';
import { exportText, recordsOfKind, serviceHarness } from './testing/services';

const clock = () => new Date('2026-12-05T20:00:00Z');
const { serviceIn, restart } = serviceHarness({ clock, cardSources: serialCardSources });

const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const OK = { ok: true, value: null };
const READS = 5000;

let pair: PtyPair;
beforeAll(async () => {
  pair = await PtyPair.create('unreadable');
});
afterAll(async () => {
  await pair?.dispose();
});

const table = (): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
  source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' },
});

/** A console reading the shoe on the pty's far end, and the shoe. */
async function withShoe(): Promise<{ service: ConsoleService; dataDir: string; shoe: PtyWriter }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'unreadable-'));
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(table())).toEqual(OK);
  await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
  return { service, dataDir, shoe: await PtyWriter.open(pair.a) };
}

/** Until the console has read `reads` frames in all, and done what they asked. */
async function read(service: ConsoleService, reads: number): Promise<void> {
  await waitFor(() => (service.getState().inputs.at(-1)?.id ?? 0) >= reads, `${reads} reads`, 30_000);
  // Each read's record is written in turn with the commands: one more command comes after them all.
  await service.historyPage(null, 1);
}

type Refused = Extract<RaceRecordEvent, { type: 'refused' }>;
/** A race's refusals as its record slip lists them, without their lines' numbers and times. */
/**
 * A race's refusals without where they stand in the journal (`seq`, `at`, and `again`: the seqs of
 * their "came again" records, listed so the record's numbering has no gap, issue 43); that every
 * record of the race is listed is checked by `listsEveryRecord`.
 */
function refusalsOf(record: CommandResult<RaceRecord>): Omit<Refused, 'seq' | 'at' | 'again'>[] {
  if (!record.ok) throw new Error(record.error.message);
  return record.value.events.filter((event): event is Refused => event.type === 'refused').map(({ seq: _seq, at: _at, again: _again, ...refusal }) => refusal);
}

/** Every journal record of the race, and nothing else, listed on its record: its numbering has no gap however many refusals came again. */
function listsEveryRecord(record: CommandResult<RaceRecord>, dataDir: string): void {
  if (!record.ok) throw new Error(record.error.message);
  const ofRace = readFileSync(journalPath(dataDir), 'utf8').trim().split('\n').slice(1)
    .map((line) => JSON.parse(line) as { seq: number; record: { raceId?: string } })
    .filter((line) => line.record.raceId === record.value.id)
    .map((line) => line.seq);
  expect([...record.value.events.flatMap(eventSeqs)].sort((a, b) => a - b)).toEqual(ofRace);
}
const countOf = (refusals: readonly { count: number }[]) => refusals.reduce((sum, refusal) => sum + refusal.count, 0);

describe('a read from the shoe that is no card', () => {
  it("is on the race's record with its text and the decoder's reason, after a restart too; the race goes on and the exports count it", async () => {
    const { service, dataDir, shoe } = await withShoe();
    try {
      expect(await service.startRace(COUNTS)).toEqual(OK);
      await shoe.write('Z77\r\n');
      await read(service, 1);
      // The headline says it until the next read (issue 24's first half), and the record keeps it.
      expect(service.getState().shoeRefusal).toMatchObject({ card: 'Z77', said: { key: 'hardware.decoder.notACardCode' } });
      const refusal = { type: 'refused', input: 'Z77', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' }, source: 'shoe', count: 1 };
      expect(refusalsOf(await service.raceRecord('race-1'))).toEqual([refusal]);

      const again = await restart(service, dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
      expect(refusalsOf(await again.raceRecord('race-1'))).toEqual([refusal]);
      for (const card of CARDS) expect(await again.dealCard('race-1', card)).toEqual(OK);
      expect(await again.confirmRace('race-1')).toEqual(OK);
      expect(again.getState().history.latest?.refusals).toBe(1);
      expect((JSON.parse(await exportText(again, 'json')) as { races: { refusals: number }[] }).races[0]?.refusals).toBe(1);
    } finally {
      await shoe.close();
    }
  }, 30_000);

  it('is on the open game\'s record; with nothing open it is shown, not recorded', async () => {
    const { service, dataDir, shoe } = await withShoe();
    try {
      await shoe.write('Z77\r\n');
      await read(service, 1);
      expect(recordsOfKind(dataDir, 'refused')).toEqual([]);
      expect(service.getState().lastInput).toMatchObject({ type: 'unknown', raw: 'Z77' });
      expect(await service.startGame('chicago', ['Anna', 'Ville'])).toEqual(OK);
      await shoe.write('Q11\r\n');
      await read(service, 2);
      expect(recordsOfKind(dataDir, 'game-refused')).toEqual([
        { kind: 'game-refused', gameId: 'game-1', input: 'Q11', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' }, source: 'shoe' },
      ]);
    } finally {
      await shoe.close();
    }
  }, 30_000);
});

describe('thousands of reads that are no card, during a race', () => {
  it(`${READS} in turn with a card the race refuses (a stuck shoe): a line a kind and its counts, all on the race's record, after a restart too`, async () => {
    const { service, dataDir, shoe } = await withShoe();
    try {
      expect(await service.startRace(COUNTS)).toEqual(OK);
      expect(await service.dealCard('race-1', 'Ah')).toEqual(OK);
      const before = service.getState().journal.records;
      const started = Date.now();
      await shoe.write('Z77\r\nAh\r\n'.repeat(READS / 2));
      await read(service, READS);
      const seconds = (Date.now() - started) / 1000;
      const lines = service.getState().journal.records - before;
      // A card dealt: the counts go on record before it.
      expect(await service.dealCard('race-1', 'Kc')).toEqual(OK);
      const refusals = [
        { type: 'refused', input: 'Z77', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' }, source: 'shoe', count: READS / 2 },
        { type: 'refused', input: 'Ah', reason: 'Ah was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card', said: { key: 'race.refused.duplicate', params: expect.any(Object) }, source: 'shoe', count: READS / 2 },
      ];
      expect(refusalsOf(await service.raceRecord('race-1'))).toEqual(refusals);
      listsEveryRecord(await service.raceRecord('race-1'), dataDir);
      console.info(`a stuck shoe: ${READS} reads in turn in ${seconds.toFixed(1)} s, ${lines} journal lines while they came, ${service.getState().journal.records - before - 1} with their counts`);
      // Two refusals, and each one's count at most every REPEAT_FLUSH_MS while they came.
      expect(lines).toBeLessThanOrEqual(2 + 2 * Math.ceil((seconds * 1000) / REPEAT_FLUSH_MS));
      const again = await restart(service, dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
      expect(refusalsOf(await again.raceRecord('race-1'))).toEqual(refusals);
      expect(again.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
    } finally {
      await shoe.close();
    }
  }, 60_000);

  it(`${READS} different ones in a burst: the shoe's allowance one by one, the rest counted; every one on the race's record`, async () => {
    const { service, dataDir, shoe } = await withShoe();
    try {
      expect(await service.startRace(COUNTS)).toEqual(OK);
      const before = service.getState().journal.records;
      const started = Date.now();
      await shoe.write(Array.from({ length: READS }, (_, index) => `Z${index}\r\n`).join(''));
      await read(service, READS);
      const seconds = (Date.now() - started) / 1000;
      expect(await service.dealCard('race-1', 'Ah')).toEqual(OK);
      const lines = service.getState().journal.records - before - 1;
      const refusals = refusalsOf(await service.raceRecord('race-1'));
      const oneByOne = refusals.filter((refusal) => refusal.input !== '');
      console.info(`a burst: ${READS} different reads in ${seconds.toFixed(1)} s, ${oneByOne.length} on record one by one, ${lines} journal lines in all`);
      expect(countOf(refusals)).toBe(READS);
      expect(oneByOne.slice(0, 2)).toEqual([
        { type: 'refused', input: 'Z0', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' }, source: 'shoe', count: 1 },
        { type: 'refused', input: 'Z1', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' }, source: 'shoe', count: 1 },
      ]);
      // The allowance: REFUSAL_BURST at once, then one each REFUSAL_REFILL_MS; each only counted
      // stretch is a refusal saying how many and its count, written within REFUSAL_REFILL_MS.
      const refills = Math.ceil((seconds * 1000) / REFUSAL_REFILL_MS) + 1;
      expect(oneByOne.length).toBeLessThanOrEqual(REFUSAL_BURST + refills);
      expect(lines).toBeLessThanOrEqual(REFUSAL_BURST + 3 * refills);
      const again = await restart(service, dataDir);
      expect(countOf(refusalsOf(await again.raceRecord('race-1')))).toBe(READS);
    } finally {
      await shoe.close();
    }
  }, 60_000);
});
