// The record under attack, at the service: a stale screen, a stuck reader, a noisy line, a crash
// that tears a line, a hand that edits the journal, a journal from a newer version, a clock set
// back. Each case fails on a console without the safeguard it names.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShoeEvent } from '../../hardware/events';
import type { CommandResult, ConsoleSettings } from '../../protocol/contract';
import { findingText } from '../../journal/findings';
import { exportText, serviceHarness } from './testing/services';
import { ConsoleService } from './service';
import { HELD_DISCARD_REASON, MAX_HELD_CARDS } from './cardInputs';
import { DEFAULT_SETTINGS } from './settings';
// A refusal's record carries its reason in keys (`said`) beside its English: compared by the English.
import '../../hardware/testing/saidInEnglish';

const root = join(import.meta.dirname, '..', '..');
const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn, restart, release } = serviceHarness({ clock });

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const OK = { ok: true, value: null };

async function ok(result: Promise<CommandResult<unknown>>): Promise<void> {
  expect(await result).toEqual(OK);
}

const newDir = () => mkdtempSync(join(tmpdir(), 'integrity-'));
const journalFile = (dataDir: string) => join(dataDir, 'journal.jsonl');
const journalLines = (dataDir: string) => readFileSync(journalFile(dataDir), 'utf8').split('\n').slice(0, -1);

/** The Finnish example played to its confirmation: the record a dispute would be about. */
async function confirmedRace(dataDir = newDir()): Promise<{ service: ConsoleService; dataDir: string }> {
  const service = await serviceIn(dataDir);
  await ok(service.saveSettings(TABLE));
  await ok(service.startRace(COUNTS));
  for (const card of CARDS) await ok(service.dealCard('race-1', card));
  await ok(service.confirmRace('race-1'));
  return { service, dataDir };
}

function verify(file: string, ...options: string[]) {
  const run = spawnSync('npm', ['run', '--silent', 'verify', '--', file, ...options], { cwd: root, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr, report: run.status === 2 ? null : JSON.parse(run.stdout) };
}

describe('commands name what they act on', () => {
  it("a stale screen's abandon, void, card and confirm for race-1 are refused once race-2 is open; race-2 is untouched", async () => {
    const service = await serviceIn(newDir());
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    await ok(service.abandonRace('race-1', 'wrong counts'));
    await ok(service.startRace(COUNTS));
    await ok(service.dealCard('race-2', 'Ah'));
    const before = service.getState().race;
    const stale = /^race-1 is not the open race \(race-2 is\): this screen was out of date, so nothing was done; look again before you repeat it$/;
    expect(await service.abandonRace('race-1', 'wrong counts')).toMatchObject({ ok: false, error: { field: 'race', message: expect.stringMatching(stale) } });
    expect(await service.voidCards('race-1', 1, 'misread')).toMatchObject({ ok: false, error: { field: 'race', message: expect.stringMatching(stale) } });
    expect(await service.confirmRace('race-1')).toMatchObject({ ok: false, error: { field: 'race', message: expect.stringMatching(stale) } });
    expect(await service.dealCard('race-1', 'Kc')).toMatchObject({
      ok: false,
      error: { field: 'race', message: 'race-1 is not open (race-2 is): this screen was out of date, so the card was not dealt; look again before you repeat it' },
    });
    expect(await service.gameAction('game-1', { type: 'next-deal' })).toMatchObject({ ok: false, error: { field: 'game', message: 'no game is open: start one first' } });
    expect(service.getState().race).toEqual(before);
  });
});

describe('bounded growth: a run of identical refusals is one record with a count', () => {
  it('5,000 repeats of one misread cost two lines; distinct refusals are each kept; the count survives a restart', async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir);
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    await ok(service.dealCard('race-1', 'Ah'));
    const before = journalLines(dataDir).length;
    for (let repeat = 0; repeat < 5000; repeat += 1) expect((await service.dealCard('race-1', 'Ah')).ok).toBe(false);
    await ok(service.dealCard('race-1', 'Kc'));
    // A different refusal, then the first again: each kept.
    expect((await service.dealCard('race-1', 'zz')).ok).toBe(false);
    expect((await service.dealCard('race-1', 'Ah')).ok).toBe(false);
    const added = journalLines(dataDir).slice(before).map((line) => JSON.parse(line).record);
    expect(added).toEqual([
      { kind: 'refused', raceId: 'race-1', input: 'Ah', reason: expect.stringContaining('Ah was already dealt'), source: 'manual' },
      { kind: 'refused-again', raceId: 'race-1', of: before + 0, count: 4999 },
      { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Kc' }, source: 'manual' },
      { kind: 'refused', raceId: 'race-1', input: 'zz', reason: expect.stringContaining('is not a card'), source: 'manual' },
      { kind: 'refused', raceId: 'race-1', input: 'Ah', reason: expect.stringContaining('Ah was already dealt'), source: 'manual' },
    ]);
    for (const card of CARDS.slice(2)) await ok(service.dealCard('race-1', card));
    await ok(service.confirmRace('race-1'));
    expect(service.getState().history.latest?.refusals).toBe(5002);
    const again = await restart(service, dataDir);
    expect(again.getState().history.latest?.refusals).toBe(5002);
    const record = await again.raceRecord('race-1');
    expect(record.ok && record.value.events.filter((event) => event.type === 'refused').map((event) => event.type === 'refused' && [event.input, event.count])).toEqual([
      ['Ah', 5000],
      ['zz', 1],
      ['Ah', 1],
    ]);
  });

  it('a run that goes on is counted on record every flush interval, and when the console closes', async () => {
    const dataDir = newDir();
    let now = 0;
    const service = await serviceIn(dataDir, { monotonic: () => now, repeatFlushMs: 1000 });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    await ok(service.dealCard('race-1', 'Ah'));
    for (let repeat = 0; repeat < 30; repeat += 1) {
      now += 100;
      await service.dealCard('race-1', 'Ah');
    }
    await service.close();
    release(service);
    const counts = journalLines(dataDir).map((line) => JSON.parse(line).record).filter((record) => record?.kind === 'refused-again').map((record) => record.count);
    // Each second (ten repeats) on record, and the rest when it closed: 29 repeats of the first refusal.
    expect(counts.reduce((sum: number, count: number) => sum + count, 0)).toBe(29);
    expect(counts.length).toBeLessThanOrEqual(4);
  });
});

/** The refusals the journal's records count: each refusal once, each repeat count in full. */
const refusalsOnRecord = (records: { kind?: string; count?: number }[]) => records.reduce((sum, record) => sum + (record?.kind === 'refused' ? 1 : record?.kind === 'refused-again' ? (record.count ?? 0) : 0), 0);

describe('bounded growth: distinct refusals from one source are journaled at a bounded rate, every one counted', () => {
  it('5,000 distinct refused cards cost a few lines, not 5,000; the count is on record, in the race and after a restart; another source is not held back', async () => {
    const dataDir = newDir();
    let now = 0;
    const service = await serviceIn(dataDir, { monotonic: () => now });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    const before = journalLines(dataDir).length;
    const bytesBefore = readFileSync(journalFile(dataDir)).length;
    // 5,000 distinct cards that are none, in 4 s, as a script on the bridge sends them.
    for (let index = 0; index < 5000; index += 1) {
      now = index * 0.8;
      expect((await service.dealCard('race-1', `x${index}`)).ok).toBe(false);
    }
    now = 4000;
    // A scanner's refusal has its own allowance: written at once, after the count of what came before it.
    expect((await service.dealScan('race-1', 'not a card')).ok).toBe(false);
    const added = journalLines(dataDir).slice(before).map((line) => JSON.parse(line).record);
    const one = added.filter((record) => record.kind === 'refused' && record.input !== '');
    // 20 at once, then one a second for the 4 s (the last at 3.9992 s): 23 written one by one, and the scanner's.
    expect(one.filter((record) => record.source === 'manual')).toHaveLength(23);
    expect(one.filter((record) => record.source === 'scanner')).toHaveLength(1);
    expect(added.length).toBeLessThanOrEqual(24 + 1 + 2 * 5);
    expect(readFileSync(journalFile(dataDir)).length - bytesBefore).toBeLessThan(20_000);
    // Every one counted: the individual ones, the summaries and their repeat counts add up to 5,001.
    await ok(service.dealCard('race-1', 'Ah'));
    const all = journalLines(dataDir).slice(before).map((line) => JSON.parse(line).record);
    expect(refusalsOnRecord(all)).toBe(5001);
    expect(all.filter((record) => record.kind === 'refused' && record.input === '').map((record) => record.reason)).toContainEqual(expect.stringMatching(/^\d+ distinct refusals from the manual in quick succession, counted and not recorded one by one \(20 in a row at most, then one each 1 s\)$/));
    for (const card of CARDS.slice(1)) await ok(service.dealCard('race-1', card));
    await ok(service.confirmRace('race-1'));
    expect(service.getState().history.latest?.refusals).toBe(5001);
    const again = await restart(service, dataDir);
    expect(again.getState().history.latest?.refusals).toBe(5001);
    const record = await again.raceRecord('race-1');
    expect(record.ok && record.value.events.reduce((sum, event) => sum + (event.type === 'refused' ? event.count : 0), 0)).toBe(5001);
  });

  it('refusals only counted go on record by themselves within a second, and when the console closes', async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir, { refusalBurst: 2, refusalRefillMs: 200 });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    const onRecord = () => refusalsOnRecord(journalLines(dataDir).map((line) => JSON.parse(line).record));
    for (let index = 0; index < 10; index += 1) await service.dealCard('race-1', `y${index}`);
    expect(onRecord()).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(onRecord()).toBe(10);
    for (let index = 0; index < 10; index += 1) await service.dealCard('race-1', `z${index}`);
    expect(onRecord()).toBeLessThan(20);
    await service.close();
    release(service);
    expect(onRecord()).toBe(20);
  });
});

describe('bounded growth: one refusal over the allowance', () => {
  it('is written as it was, before the record that follows it', async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir, { monotonic: () => 0, refusalBurst: 1, refusalRefillMs: 60_000 });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    const before = journalLines(dataDir).length;
    expect((await service.dealCard('race-1', 'a1')).ok).toBe(false);
    expect((await service.dealCard('race-1', 'a2')).ok).toBe(false);
    expect(journalLines(dataDir)).toHaveLength(before + 1);
    await ok(service.dealCard('race-1', 'Ah'));
    expect(journalLines(dataDir).slice(before).map((line) => JSON.parse(line).record)).toEqual([
      { kind: 'refused', raceId: 'race-1', input: 'a1', reason: expect.stringContaining('is not a card'), source: 'manual' },
      { kind: 'refused', raceId: 'race-1', input: 'a2', reason: expect.stringContaining('is not a card'), source: 'manual' },
      { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'manual' },
    ]);
    await service.close();
    release(service);
  });
});

describe('the history is paged: a state carries the totals and the latest race only', () => {
  it('30 races: the state has the latest and the totals; pages of older races on request; bad pages refused', async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir);
    await ok(service.saveSettings(TABLE));
    for (let race = 1; race <= 30; race += 1) {
      await ok(service.startRace(COUNTS));
      for (const card of CARDS) await ok(service.dealCard(`race-${race}`, card));
      await ok(service.confirmRace(`race-${race}`));
    }
    const { history } = service.getState();
    expect(history).toMatchObject({ total: 30, valueDelta: 30 * 25, latest: { id: 'race-30' } });
    const latest = await service.historyPage(null, 10);
    expect(latest.ok && [latest.value.start, latest.value.entries.map((entry) => entry.id)]).toEqual([20, Array.from({ length: 10 }, (_, index) => `race-${21 + index}`)]);
    const older = await service.historyPage(5, 10);
    expect(older.ok && [older.value.start, older.value.entries.map((entry) => entry.id)]).toEqual([0, ['race-1', 'race-2', 'race-3', 'race-4', 'race-5']]);
    expect(await service.historyPage(31, 10)).toMatchObject({ ok: false, error: { field: 'before', message: 'must be a race number from 0 to 30 (got 31)' } });
  });
});

describe('cards read while the line is noisy wait for the dealer', () => {
  async function fedByShoe(): Promise<{ service: ConsoleService; emit: (event: ShoeEvent) => void; dataDir: string }> {
    let sink: (event: ShoeEvent) => void = () => undefined;
    const dataDir = newDir();
    const service = await serviceIn(dataDir, {
      cardSources: (_settings, emit) => {
        sink = emit;
        return { stop: async () => undefined };
      },
    });
    await ok(service.saveSettings({ ...TABLE, source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text' } }));
    await ok(service.startRace(COUNTS));
    return { service, emit: (event) => sink(event), dataDir };
  }
  const settle = (service: ConsoleService) => service.historyPage(null, 1);

  it('a suspect card is held, not dealt; taken, it is dealt (marked held); clean cards behind it wait, then follow in order', async () => {
    const { service, emit, dataDir } = await fedByShoe();
    emit({ type: 'card', card: 'Ah', raw: 'AH', suspect: true });
    emit({ type: 'card', card: 'Kc', raw: 'KC' });
    await settle(service);
    let state = service.getState();
    expect(state.race?.summary.cards).toEqual([]);
    expect(state.held).toEqual([
      { id: 1, target: 'race-1', card: 'Ah', raw: 'AH', why: 'noise' },
      { id: 2, target: 'race-1', card: 'Kc', raw: 'KC', why: 'queued' },
    ]);
    // Only the first, and only by its id.
    expect(await service.takeHeldCard('race-1', 2)).toMatchObject({ ok: false, error: { field: 'held' } });
    await ok(service.takeHeldCard('race-1', 1));
    state = service.getState();
    expect(state.race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
    expect(state.held).toEqual([]);
    const events = journalLines(dataDir).map((line) => JSON.parse(line).record).filter((record) => record?.kind === 'race-event');
    expect(events).toEqual([
      { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'shoe', held: true },
      { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Kc' }, source: 'shoe' },
    ]);
  });

  it('a discarded card is kept on record as refused by the dealer; held cards go when their race ends; at most MAX_HELD_CARDS wait', async () => {
    const { service, emit, dataDir } = await fedByShoe();
    emit({ type: 'card', card: '7s', raw: '7S', suspect: true });
    await settle(service);
    await ok(service.discardHeldCard('race-1', 1));
    expect(service.getState().race?.summary.cards).toEqual([]);
    expect(journalLines(dataDir).map((line) => JSON.parse(line).record).at(-1)).toEqual({ kind: 'refused', raceId: 'race-1', input: '7s', reason: HELD_DISCARD_REASON, source: 'shoe' });
    for (let card = 0; card < MAX_HELD_CARDS + 2; card += 1) emit({ type: 'card', card: (['2c', '3c', '4c', '5c', '6c', '7c', '8c', '9c', 'Tc', 'Jc', 'Qc', 'Kc'] as const)[card] as 'Kc', raw: '?', suspect: true });
    await settle(service);
    expect(service.getState().held).toHaveLength(MAX_HELD_CARDS);
    expect(service.getState().race?.summary.cards).toEqual([]);
    await ok(service.abandonRace('race-1', 'noisy cable'));
    expect(service.getState().held).toEqual([]);
  });
});

describe('held cards, attacked (a review of the noisy-line hold)', () => {
  async function fedByShoe(): Promise<{ service: ConsoleService; emit: (event: ShoeEvent) => void; dataDir: string }> {
    let sink: (event: ShoeEvent) => void = () => undefined;
    const dataDir = newDir();
    const service = await serviceIn(dataDir, {
      cardSources: (_settings, emit) => {
        sink = emit;
        return { stop: async () => undefined };
      },
    });
    await ok(service.saveSettings({ ...TABLE, source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text' } }));
    await ok(service.startRace(COUNTS));
    return { service, emit: (event) => sink(event), dataDir };
  }
  const settle = (service: ConsoleService) => service.historyPage(null, 1);
  const NOISE = ['2c', '3c', '4c', '5c', '6c', '7c', '8c', '9c', 'Tc', 'Jc', 'Qc'] as const;

  it('with the noise queue full, a clean card is never refused: it waits its turn and is dealt in order', async () => {
    const { service, emit } = await fedByShoe();
    for (const card of NOISE) emit({ type: 'card', card, raw: card, suspect: true });
    emit({ type: 'card', card: 'Ah', raw: 'AH' });
    emit({ type: 'card', card: 'Kc', raw: 'KC' });
    await settle(service);
    const held = service.getState().held;
    expect(held.filter((card) => card.why === 'noise')).toHaveLength(MAX_HELD_CARDS);
    expect(held.filter((card) => card.why === 'queued').map((card) => card.card)).toEqual(['Ah', 'Kc']);
    expect(service.getState().shoeRefusal).toMatchObject({ card: 'Qc' });
    for (const card of held.filter((waiting) => waiting.why === 'noise')) await ok(service.discardHeldCard('race-1', card.id));
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
  });

  it('a held card the disk would not take stays first in the queue, to try again', async () => {
    const { service, emit } = await fedByShoe();
    emit({ type: 'card', card: 'Ah', raw: 'AH', suspect: true });
    await settle(service);
    const journal = (service as unknown as { kernel: { journal: { append: (record: unknown) => Promise<unknown> } } }).kernel.journal;
    const append = journal.append.bind(journal);
    journal.append = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    expect(await service.takeHeldCard('race-1', 1)).toMatchObject({ ok: false, error: { field: 'journal' } });
    expect(service.getState().held.map((card) => card.card)).toEqual(['Ah']);
    journal.append = append;
    await ok(service.takeHeldCard('race-1', 1));
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
  });

  it('cards still held when the race ends go on record as refused, not decided: none vanishes', async () => {
    const { service, emit, dataDir } = await fedByShoe();
    emit({ type: 'card', card: '7s', raw: '7S', suspect: true });
    emit({ type: 'card', card: '8s', raw: '8S' });
    await settle(service);
    await ok(service.abandonRace('race-1', 'noisy cable'));
    const refusals = journalLines(dataDir).map((line) => JSON.parse(line).record).filter((record) => record?.kind === 'refused');
    expect(refusals.map((record) => record.input)).toEqual(['7s', '8s']);
    expect(refusals.every((record) => /not decided before the race ended/.test(record.reason))).toBe(true);
  });
});

describe('the journal, attacked at the console (a review of the chain)', () => {
  it('a keyed journal opened without its key stays read-only: it is never continued with plain SHA-256', async () => {
    const keyFile = join(newDir(), 'journal.key');
    writeFileSync(keyFile, 'a key of thirty-two bytes, kept!!');
    const dataDir = newDir();
    const keyed = await serviceIn(dataDir, { journalKeyFile: keyFile });
    await ok(keyed.saveSettings(TABLE));
    await ok(keyed.startRace(COUNTS));
    release(keyed);
    await keyed.close();
    const bytes = readFileSync(journalFile(dataDir));
    const keyless = await serviceIn(dataDir);
    expect(keyless.getState().journal.readOnly).toMatchObject({ code: 'key-missing' });
    expect(await keyless.dealCard('race-1', 'Ah')).toMatchObject({ ok: false, error: { field: 'journal', message: expect.stringMatching(/sealed with a key .* that was not given/), said: { key: 'service.readOnlyKeyMissing' } } });
    expect(readFileSync(journalFile(dataDir))).toEqual(bytes);
  });

  it('a journal whose header was taken away is reported as tampered, and stays so after the console writes on', async () => {
    const { service, dataDir } = await confirmedRace();
    release(service);
    await service.close();
    writeFileSync(journalFile(dataDir), `${journalLines(dataDir).slice(1).join('\n')}\n`);
    const again = await serviceIn(dataDir);
    expect(again.getState().journal.chain).toBe('broken');
    await ok(again.startRace(COUNTS));
    const third = await restart(again, dataDir);
    expect(third.getState().journal.chain).toBe('broken');
    expect(third.getState().journal.findings.map((finding) => finding.code)).toContain('no-header');
  });

  it('a hand-added line of any shape never reaches the state: a name nested 100,000 deep, a count that is text', async () => {
    const dataDir = newDir();
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const start = JSON.stringify({ seq: 1, at: '2026-11-29T12:00:00.000Z', record: { kind: 'race-start', raceId: 'race-1', race: { rules: 'classic', removed: 25, next: 100, button: 3, decks: 1, seats: [] }, counts: COUNTS, names: { 1: 'DEEP' } } }).replace('"DEEP"', deep);
    writeFileSync(journalFile(dataDir), `${start}\n${JSON.stringify({ seq: 2, at: '2026-11-29T12:00:00.000Z', record: { kind: 'refused-again', raceId: 'race-1', of: 1, count: 'abc' } })}\n`);
    const service = await serviceIn(dataDir);
    expect(service.getState().race).toBeNull();
    expect(() => JSON.stringify(service.getState())).not.toThrow();
    expect(service.getState().journal.findings.map((finding) => finding.code)).toEqual(['not-a-record', 'not-a-record']);
  });

  it('two consoles never write one journal: the second is refused while the first runs; a lock left by a killed one is taken over', async () => {
    const dataDir = newDir();
    await serviceIn(dataDir);
    await expect(ConsoleService.start({ dataDir })).rejects.toThrow(/^the data folder .* is in use by another console \(process \d+\): close that one first, or choose another folder$/);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const other = newDir();
    writeFileSync(join(other, 'console.lock'), `${JSON.stringify({ pid: Number(dead.stdout) })}\n`);
    await serviceIn(other);
  });

  it('the CSV guards against formulas behind a tab or a carriage return too', async () => {
    const { historyCsv } = await import('../../replay/historyExport');
    const { service } = await confirmedRace();
    const entry = { ...(service.getState().history.latest as NonNullable<ReturnType<ConsoleService['getState']>['history']['latest']>), confirmedBy: '\t=HYPERLINK("x")' };
    expect(historyCsv([entry], service.getState().journal).split('\r\n')[1]).toContain(`"'\t=HYPERLINK(""x"")"`);
  });
});

describe('the record settles a dispute', () => {
  it("a race's full record is read back from the journal: every card with seat and round, voids with reasons, refusals, who confirmed it when", async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir);
    await ok(service.saveSettings({ ...TABLE, table: { ...TABLE.table, dealer: 'Anna' } }));
    await ok(service.startRace(COUNTS));
    await ok(service.dealCard('race-1', 'Ah'));
    await ok(service.dealCard('race-1', 'Qs'));
    await ok(service.voidCards('race-1', 1, 'dealt face up'));
    expect((await service.dealCard('race-1', 'Ah')).ok).toBe(false);
    for (const card of CARDS.slice(1)) await ok(service.dealCard('race-1', card));
    await ok(service.confirmRace('race-1'));
    const result = await service.raceRecord('race-1');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const record = result.value;
    expect(record).toMatchObject({ id: 'race-1', status: 'confirmed', chain: 'intact', findings: [], counts: COUNTS, names: { 1: 'Matti', 2: 'Teppo', 3: 'Johanna' }, seqs: { first: 1, last: 12 } });
    expect(record.lastSeal).toMatch(/^[0-9a-f]{64}$/);
    expect(record.events.map((event) => event.type)).toEqual(['start', 'card', 'card', 'void', 'refused', 'card', 'card', 'card', 'card', 'card', 'card', 'confirm']);
    expect(record.events[3]).toEqual({ seq: 4, at: '2026-11-29T12:00:00.000Z', type: 'void', voided: [{ card: 'Qs', seat: 1, round: 0, reason: 'dealt face up' }] });
    expect(record.events[4]).toMatchObject({ type: 'refused', input: 'Ah', source: 'manual', count: 1 });
    // Every card in deal order with the seat it went to, the voided one included.
    expect(record.events.filter((event) => event.type === 'card').map((event) => event.type === 'card' && `${event.card}@${event.seat}`)).toEqual(['Ah@1', 'Qs@1', 'Kc@1', '2d@1', 'Ts@2', '4h@2', 'Td@3', 'Tc@3']);
    expect(record.events.at(-1)).toEqual({ seq: 12, at: '2026-11-29T12:00:00.000Z', type: 'confirm', by: 'Anna' });
    expect(service.getState().history.latest?.confirmedBy).toBe('Anna');
    expect(record.summary.awards).toEqual([1, 2]);
    expect(await service.raceRecord('race-9')).toMatchObject({ ok: false, error: { field: 'race', message: 'race-9 is not in the journal' } });
  });
});

describe('tamper evidence: caught by verify and shown on start, and the console still starts', () => {
  /** The line of the winning card for seat 2 (Ts), the record a forger would change. */
  const winning = (lines: readonly string[]) => lines.findIndex((line) => line.includes('"card":"Ts"'));

  it.each([
    ['a one-card forgery (the winning Ts made a Js)', (lines: string[]) => lines.map((line, index) => (index === winning(lines) ? line.replace('"card":"Ts"', '"card":"Js"') : line)), 5, 'record 5 was changed after it was written: its seal does not match its content'],
    ['a removed line (the winning card)', (lines: string[]) => lines.filter((_, index) => index !== winning(lines)), 5, 'record 5 is missing: it was removed'],
    ['a swapped pair (two cards of seat 1 and 2)', (lines: string[]) => lines.map((line, index, all) => (index === winning(all) ? all[index - 1] : index === winning(all) - 1 ? all[index + 1] : line) as string), 4, 'record 4 is out of order: it comes after record 5'],
  ])('%s', async (_what, forge, seq, problem) => {
    const { service, dataDir } = await confirmedRace();
    release(service);
    await service.close();
    const intact = verify(journalFile(dataDir));
    expect(intact).toEqual({ status: 0, stderr: '', report: { ok: true, records: 9, problems: [] } });
    writeFileSync(journalFile(dataDir), `${forge(journalLines(dataDir)).join('\n')}\n`);
    const checked = verify(journalFile(dataDir));
    expect(checked.status).toBe(1);
    expect(checked.report.ok).toBe(false);
    expect(checked.report.problems[0]).toEqual({ seq, problem });
    const again = await serviceIn(dataDir);
    const { journal } = again.getState();
    expect(journal.chain).toBe('broken');
    expect(journal.findings.map(findingText)).toContain(problem);
    const record = await again.raceRecord('race-1');
    expect(record.ok && record.value.chain).toBe('broken');
    // It still starts and records (with the card removed, the race is open again: its confirmation no longer fits).
    const open = again.getState().race;
    await ok(open === null ? again.startRace(COUNTS) : again.abandonRace(open.id, 'the journal was tampered with'));
    const json = await exportText(again, 'json');
    expect(JSON.parse(json).journal).toMatchObject({ chain: 'broken', findings: expect.arrayContaining([problem]) });
    if (again.getState().history.total > 0) {
      const csv = await exportText(again, 'csv');
      expect(csv).toContain(`broken: ${problem}`);
    }
  });

  it('verify: exit 2 with one line on stderr for a file that cannot be read, or is not a journal', () => {
    const missing = verify(join(newDir(), 'missing.jsonl'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^verify: .*missing\.jsonl: no such file\n$/);
    const notJournal = join(newDir(), 'notes.txt');
    writeFileSync(notJournal, 'shopping list\n');
    const refused = verify(notJournal);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`verify: ${notJournal}: not a journal: no line of it is a journal record\n`);
  });

  it('a journal of the old format is read as before and reported as unchained; the console seals it afresh from there', async () => {
    const dataDir = newDir();
    const old = (seq: number, record: object) => JSON.stringify({ seq, at: '2026-11-28T10:00:00.000Z', record });
    writeFileSync(journalFile(dataDir), `${old(1, { kind: 'race-start', raceId: 'race-1', race: { rules: 'classic', removed: 25, next: 100, button: 3, decks: 1, seats: COUNTS.map((count) => ({ seat: count.seat, name: '', chips: count.chips, other: 100 })) }, counts: COUNTS, names: {} })}\n`);
    const service = await serviceIn(dataDir);
    expect(service.getState().journal).toMatchObject({ chain: 'unchained', unchained: 1, findings: [] });
    expect(service.getState().race?.id).toBe('race-1');
    expect(verify(journalFile(dataDir)).report).toEqual({ ok: false, records: 1, problems: [{ seq: 1, problem: 'records 1–1 were written before the journal was sealed (an older version of the console): they cannot be checked' }] });
    await ok(service.dealCard('race-1', 'Ah'));
    const again = await restart(service, dataDir);
    expect(again.getState().journal).toMatchObject({ chain: 'intact', unchained: 1, findings: [] });
    expect(verify(journalFile(dataDir)).report).toEqual({ ok: true, records: 2, problems: [] });
  });
});

describe('a journal sealed with a key kept outside the data folder (HMAC)', () => {
  it('a forger without the key cannot seal a change afresh; verify needs the key, and names a wrong one', async () => {
    const keyDir = newDir();
    const keyFile = join(keyDir, 'journal.key');
    writeFileSync(keyFile, 'a key of thirty-two bytes, kept!!');
    const dataDir = newDir();
    const service = await serviceIn(dataDir, { journalKeyFile: keyFile });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    for (const card of CARDS) await ok(service.dealCard('race-1', card));
    await ok(service.confirmRace('race-1'));
    const again = await restart(service, dataDir, { journalKeyFile: keyFile });
    expect(again.getState().journal).toMatchObject({ chain: 'intact', findings: [] });
    release(again);
    await again.close();
    expect(JSON.parse(journalLines(dataDir)[0] as string)).toMatchObject({ chain: 'hmac-sha256', keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(verify(journalFile(dataDir), '--key', keyFile)).toEqual({ status: 0, stderr: '', report: { ok: true, records: 9, problems: [] } });
    const missing = verify(journalFile(dataDir));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/is sealed with a key \([0-9a-f]{16}\) that was not given: its seals cannot be checked; give it with --key FILE\n$/);
    const otherKey = join(keyDir, 'other.key');
    writeFileSync(otherKey, 'another key of thirty-two bytes!!');
    expect(verify(journalFile(dataDir), '--key', otherKey).stderr).toMatch(/sealed with a different key/);
    // The winning card changed, the line sealed afresh the only way a forger without the key can (SHA-256).
    const { Sealer } = await import('../../journal/seal');
    const lines = journalLines(dataDir);
    const index = lines.findIndex((line) => line.includes('"card":"Ts"'));
    const { hash: _old, ...body } = JSON.parse(lines[index] as string);
    lines[index] = new Sealer(null).seal({ ...body, record: { ...body.record, event: { type: 'card', card: 'Js' } } }).text;
    writeFileSync(journalFile(dataDir), `${lines.join('\n')}\n`);
    const forged = verify(journalFile(dataDir), '--key', keyFile);
    expect(forged.status).toBe(1);
    expect(forged.report.problems[0]).toEqual({ seq: 5, problem: 'record 5 was changed after it was written: its seal does not match its content' });
    // Five runs of `npm run verify`, each a fresh npm and Node process (about 0.6 s each on a quiet
    // machine, several times that while other suites run): more than the default 5 s may take.
  }, 30_000);
});

describe('a journal the console cannot fully read is never written past', () => {
  it('a newer version: read-only, every change refused with the reason, the file untouched, also after a restart', async () => {
    const { service, dataDir } = await confirmedRace();
    release(service);
    await service.close();
    // A newer console added a record of a kind this one does not know, sealed as it should be.
    const { Sealer } = await import('../../journal/seal');
    const last = JSON.parse(journalLines(dataDir).at(-1) as string);
    appendFileSync(journalFile(dataDir), `${new Sealer(null).seal({ seq: last.seq + 1, at: last.at, run: 'future', t: 0, prev: last.hash, record: { kind: 'race-dispute', raceId: 'race-1' } }).text}\n`);
    const bytes = readFileSync(journalFile(dataDir));
    const readOnly = await serviceIn(dataDir);
    const message = 'record 10 is of a kind this console does not know (race-dispute), written by a newer version: the journal is open read-only, nothing can be recorded; update the console, or move journal.jsonl aside to start a new one';
    expect(readOnly.getState().journal.readOnly).toEqual({ code: 'unknown-record', seq: 10, kind: 'race-dispute' });
    expect(readOnly.getState().history.total).toBe(1);
    // In the dealer's language too: the refusal's reason in keys, not the finding's English.
    expect(await readOnly.startRace(COUNTS)).toMatchObject({ ok: false, error: { field: 'journal', message, said: { key: 'service.readOnlyUnknown', params: { seq: 10, kind: 'race-dispute' } } } });
    expect(readFileSync(journalFile(dataDir))).toEqual(bytes);
    const again = await restart(readOnly, dataDir);
    expect(again.getState().journal.readOnly).toMatchObject({ code: 'unknown-record' });
    expect(readFileSync(journalFile(dataDir))).toEqual(bytes);
  });
});

describe('torn tail with an invalid byte in a middle line', () => {
  it('keeps the new card, keeps the torn bytes as evidence, and never uses a seq twice', async () => {
    const dataDir = newDir();
    const service = await serviceIn(dataDir);
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    for (const card of CARDS.slice(0, 3)) await ok(service.dealCard('race-1', card));
    release(service);
    await service.close();
    // One invalid byte inside a middle record (a card), and a last line cut by a crash. A line
    // that is not UTF-8 is damaged (skipped, reported as damage): the race's start would be lost
    // with it, so the byte goes into a card's record.
    const bytes = readFileSync(journalFile(dataDir));
    bytes[bytes.indexOf('"card":"Kc"') + 2] = 0xff;
    writeFileSync(journalFile(dataDir), Buffer.concat([bytes, Buffer.from('{"seq":6,"at":"2026-11-29T12:00:00.000Z","run":"x","t":1,"prev":"ab')]));
    const first = await serviceIn(dataDir);
    expect(first.getState().journal.findings.map((finding) => finding.code)).toEqual(['torn-tail', 'damaged']);
    expect(readFileSync(`${journalFile(dataDir)}.torn-1`, 'utf8')).toContain('"seq":6');
    await ok(first.dealCard('race-1', 'Ts'));
    const second = await restart(first, dataDir);
    expect(second.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', '2d', 'Ts']);
    const seqs = journalLines(dataDir).map((line) => JSON.parse(line).seq).filter((seq) => seq !== undefined);
    expect(new Set(seqs).size).toBe(seqs.length);
    // The recovery is itself on record, in the chain.
    expect(journalLines(dataDir).map((line) => JSON.parse(line).record?.kind)).toContain('journal');
  });
});

describe('a clock set back', () => {
  it('is recorded as such: found on start, with the monotonic time beside every wall time', async () => {
    const dataDir = newDir();
    let now = Date.parse('2026-11-29T12:00:00Z');
    const service = await serviceIn(dataDir, { clock: () => new Date(now) });
    await ok(service.saveSettings(TABLE));
    await ok(service.startRace(COUNTS));
    now -= 3600_000;
    await ok(service.dealCard('race-1', 'Ah'));
    const again = await restart(service, dataDir);
    expect(again.getState().journal.findings).toEqual([{ code: 'clock-back', seq: 2, seconds: 3600 }]);
    expect(again.getState().journal.chain).toBe('intact');
  });
});
