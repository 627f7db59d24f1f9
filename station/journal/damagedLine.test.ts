// An ordinary mishap never stalls a table: a damaged last line (a few bad bytes), with or
// without a torn tail after it, and a torn tail found on a full disk, each end with every line
// of the journal under a number of its own, in order — never `1 2 3 3 4`. Real files, fsynced,
// real restarts of the console (and a real full tmpfs in a child process).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import { DEFAULT_SETTINGS } from '../service/settings';
import { bundleServiceProcess, canMountPrivateTmpfs, ServiceChild } from '../service/testing/serviceChild';
import { serviceHarness } from '../service/testing/services';
import { isTampering } from '../../journal/findings';
import { readJournalBytes } from '../../journal/read';

const root = join(import.meta.dirname, '..', '..');
const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn, restart, release } = serviceHarness({ clock });
const OK = { ok: true, value: null };
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];

/** The number every line of the journal was written under (headers have none), from its bytes. */
function lineSeqs(bytes: Buffer): number[] {
  const seqs: number[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) break;
    // Read as latin1 (one character a byte): bad bytes cannot hide the prefix.
    const line = bytes.subarray(start, newline).toString('latin1');
    const seq = /^\{"seq":(\d+),/.exec(line)?.[1];
    if (seq !== undefined) seqs.push(Number(seq));
    else if (!line.startsWith('{"journal":')) seqs.push(Number.NaN);
    start = newline + 1;
  }
  return seqs;
}

/** A few bad bytes in the middle of a line: what a failing disk or a bad sector leaves. */
function damage(line: Buffer): Buffer {
  const damaged = Buffer.from(line);
  damaged.fill(0xff, 30, 34);
  return damaged;
}

describe('a damaged last line never gives its number to the next record', () => {
  it.each([
    ['a damaged last whole line', ''],
    ['a damaged last whole line with a torn tail after it', 'torn'],
  ])('%s: the numbers go on past it, every line its own, in order', async (_what, tail) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'damaged-line-'));
    const path = join(dataDir, 'journal.jsonl');
    const service = await serviceIn(dataDir);
    expect(await service.saveSettings(TABLE)).toEqual(OK);
    expect(await service.startRace(COUNTS)).toEqual(OK);
    for (const card of ['Ah', 'Kc', '2d']) expect(await service.dealCard('race-1', card)).toEqual(OK);
    release(service);
    await service.close();
    const bytes = readFileSync(path);
    const lastStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    const lastSeq = lineSeqs(bytes).at(-1) as number;
    const torn = tail === '' ? '' : `{"seq":${lastSeq + 1},"at":"2026-11-29T12:00:00.000Z","run":"x","t":1,"prev":"ab`;
    writeFileSync(path, Buffer.concat([bytes.subarray(0, lastStart), damage(bytes.subarray(lastStart, bytes.length - 1)), Buffer.from(`\n${torn}`)]));

    const again = await serviceIn(dataDir);
    expect(await again.dealCard('race-1', 'Ts')).toEqual(OK);
    expect(await again.dealCard('race-1', '4h')).toEqual(OK);
    const third = await restart(again, dataDir);
    const seqs = lineSeqs(readFileSync(path));
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    // Nothing reads as an insertion, a removal or a reordering: the damage is the only finding.
    const reading = readJournalBytes(readFileSync(path), { check: (_record): _record is unknown => true });
    expect(reading.findings.filter(isTampering)).toEqual([]);
    // The damaged card (2d) is skipped, every other one replayed; the station says damage, not tampering.
    expect(third.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc', 'Ts', '4h']);
    expect(third.getState().journal.chain).toBe('damaged');
    const damagedAt = { code: 'damaged', seq: lastSeq, line: expect.any(Number) as number };
    expect(third.getState().journal.findings.filter((finding) => finding.code !== 'torn-tail')).toEqual([damagedAt]);
    // `npm run verify`: the line is named as damage, the chain checked again after it (no "inserted", no "missing").
    const run = spawnSync('npm', ['run', '--silent', 'verify', '--', path], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: Array<{ seq: number; problem: string }> };
    expect(report.problems).toEqual([{ seq: lastSeq, problem: expect.stringMatching(new RegExp(`^record ${lastSeq} was damaged at the station \\(line \\d+ is not a readable record`)) as string }]);
  });
});

describe('a torn tail found on a full disk', () => {
  let bundle: Awaited<ReturnType<typeof bundleServiceProcess>>;
  beforeAll(async () => {
    expect(canMountPrivateTmpfs(), 'unshare cannot mount a private tmpfs here: the full-disk test needs root or unprivileged user namespaces').toBe(true);
    bundle = await bundleServiceProcess();
  }, 60_000);
  afterAll(() => bundle?.dispose());

  it('kept in place (no room for a copy), it keeps its number: the records after it are numbered past it', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'damaged-line-full-'));
    const child = new ServiceChild(bundle.path, mount, { tmpfsBytes: 64 * 1024 });
    await child.started;
    expect(await child.request('saveSettings', TABLE)).toEqual(OK);
    expect(await child.request('startRace', COUNTS)).toEqual(OK);
    expect(await child.request('dealCard', 'race-1', 'Ah')).toEqual(OK);
    expect(await child.request('test:tear')).toBeNull();
    expect(await child.request('test:fill')).toBeGreaterThan(0);
    const torn = (await child.request('test:start')) as ConsoleState;
    expect(torn.journal.findings).toMatchObject([{ code: 'torn-tail', savedAs: null }]);
    const first = await child.request('dealCard', 'race-1', 'Kc');
    expect(await child.request('test:free')).toBeNull();
    if (JSON.stringify(first) !== JSON.stringify(OK)) expect(await child.request('dealCard', 'race-1', 'Kc')).toEqual(OK);
    expect(await child.request('dealCard', 'race-1', '2d')).toEqual(OK);
    const after = (await child.request('test:restart')) as ConsoleState;
    const seqs = lineSeqs(Buffer.from((await child.request('test:journal')) as string, 'base64'));
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    expect(after.journal.findings.filter(isTampering)).toEqual([]);
    expect(after.journal.chain).toBe('intact');
    expect(after.race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc', '2d']);
    await child.stop();
    expect(child.stderr).toBe('');
  }, 30_000);
});
