import { mkdtempSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unknownEvent, type ShoeEvent } from '../../hardware/events';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import { ConsoleService } from './service';
import { exportText, serviceHarness } from './testing/services';
import { DEFAULT_SETTINGS } from './settings';
import { localTime } from '../../replay/csv';
// A refusal's record carries its reason in keys (`said`) beside its English: compared by the English.
import '../../hardware/testing/saidInEnglish';

const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn, release } = serviceHarness({ clock, station: 'table-pc-1' });

const FINNISH_TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

/** A service with the Finnish race open and a stand-in card source: `emit` is what the shoe sends. */
async function raceFedByShoe(): Promise<{ service: ConsoleService; emit: (event: ShoeEvent) => void }> {
  let sink: (event: ShoeEvent) => void = () => undefined;
  const service = await serviceIn(mkdtempSync(join(tmpdir(), 'service-')), {
    cardSources: (_settings, emit) => {
      sink = emit;
      return { stop: async () => undefined };
    },
  });
  await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text' } }));
  await expectOk(service.startRace(COUNTS));
  return { service, emit: (event) => sink(event) };
}

async function expectOk(result: Promise<{ ok: boolean }>): Promise<void> {
  expect(await result).toEqual({ ok: true, value: null });
}

describe('console service', () => {
  it('runs the seed’s worked example from counts to history, journaling each step before showing it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    await expectOk(service.saveSettings(FINNISH_TABLE));
    const preview = await service.previewRace(COUNTS);
    expect(preview.ok && preview.value.raceChips).toBe(2);
    await expectOk(service.startRace(COUNTS));
    for (const card of CARDS) await expectOk(service.dealCard('race-1', card));
    const race = service.getState().race;
    expect(race?.summary.awards).toEqual([1, 2]);
    expect(race?.summary.valueDelta).toBe(25);
    // Every published state's cards were already on disk.
    const journal = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(journal).toHaveLength(1 + 1 + CARDS.length); // the header, the race's start and its cards
    expect(states.at(-1)?.race?.summary.cards).toHaveLength(CARDS.length);
    await expectOk(service.confirmRace('race-1'));
    expect(service.getState().race).toBeNull();
    expect(service.getState().history).toMatchObject({ total: 1, valueDelta: 25, latest: { id: 'race-1', summary: { awards: [1, 2] } } });
    const csv = await exportText(service, 'csv');
    // The byte-order mark first (for Excel), and each time's local reading (the station's time zone) right after it.
    const local = localTime('2026-11-29T12:00:00.000Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00 [+-]\d{2}:\d{2}$/);
    expect(csv.split('\r\n')[0]).toBe('\uFEFFrace,table,level,station,started,started local,confirmed,confirmed local,confirmed by,rules,removed,next,odd chips,race chips,winners,protected,value delta,late-found chips,cards,voided,refusals,corrections,records,chain,floor decision');
    expect(csv.split('\r\n')[1]).toBe(
      `race-1,,,table-pc-1,2026-11-29T12:00:00.000Z,${local},2026-11-29T12:00:00.000Z,${local},,classic,25,100,7,2,1 Matti (A♥); 2 Teppo (10♠),,25,,1 Matti: A♥ K♣ 2♦; 2 Teppo: 10♠ 4♥; 3 Johanna: 10♦ 10♣,,0,0,1–9,intact,`,
    );
  });

  it('hands out an unchanged part of the state as the very same object, so only what changed is sent on', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'service-')));
    await expectOk(service.saveSettings(FINNISH_TABLE));
    await expectOk(service.startRace(COUNTS));
    const before = service.getState();
    expect(service.getState()).toEqual(before);
    for (const key of Object.keys(before) as (keyof ConsoleState)[]) expect(service.getState()[key], key).toBe(before[key]);
    await expectOk(service.dealCard('race-1', CARDS[0] as string));
    const after = service.getState();
    const changed = (Object.keys(before) as (keyof ConsoleState)[]).filter((key) => after[key] !== before[key]);
    // The journal's report changes too: its record count is live.
    expect(changed).toEqual(['race', 'journal']);
    for (const card of CARDS.slice(1)) await expectOk(service.dealCard('race-1', card));
    await expectOk(service.confirmRace('race-1'));
    const confirmed = service.getState();
    expect((Object.keys(after) as (keyof ConsoleState)[]).filter((key) => confirmed[key] !== after[key])).toEqual(['race', 'history', 'journal']);
  });

  it('resumes an interrupted race exactly where it stopped after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const first = await serviceIn(dataDir);
    await expectOk(first.saveSettings(FINNISH_TABLE));
    await expectOk(first.startRace(COUNTS));
    for (const card of CARDS.slice(0, 4)) await expectOk(first.dealCard('race-1', card));
    await expectOk(first.voidCards('race-1', 1, 'misread'));
    await expectOk(first.dealCard('race-1', 'Ts'));
    const before = first.getState();
    await first.close();
    const second = await serviceIn(dataDir);
    const after = second.getState();
    expect(after.race).toEqual(before.race);
    expect(after.settings).toEqual(FINNISH_TABLE);
    expect(after.race?.summary.awaiting).toEqual({ seat: 2, cards: 1 });
    expect(after.race?.corrections).toBe(1);
  });

  it('refuses a bad card with a clear message, keeps it in the journal as refused, and changes nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings(FINNISH_TABLE));
    await expectOk(service.startRace(COUNTS));
    await expectOk(service.dealCard('race-1', 'Ah'));
    const before = service.getState().race;
    expect(await service.dealCard('race-1', 'ah')).toEqual({
      ok: false,
      error: { field: 'card', message: expect.stringContaining('Ah was already dealt'), said: { key: 'race.refused.duplicate', params: { card: { card: 'Ah' }, seats: { seats: [{ seat: 1 }] } } } },
    });
    expect(await service.dealCard('race-1', '1x')).toEqual({
      ok: false,
      error: { field: 'card', message: expect.stringContaining('"1x" is not a card'), said: { key: 'cards.notACard', params: { text: '1x' } } },
    });
    expect(service.getState().race?.summary).toEqual(before?.summary);
    const kinds = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line).record.kind);
    expect(kinds).toEqual(['race-start', 'race-event', 'refused', 'refused']);
  });

  it("the scanner's profile is not the shoe's: with a suit-number shoe a scanned Tc is 10♣, its wrapping stripped; a scan the race refuses names the card read", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, decoder: 'suit-number' } }));
    expect(service.getState().settings.source.scanner).toBeUndefined();
    await expectOk(service.startRace(COUNTS));
    await expectOk(service.dealScan('race-1', '\u0002]E0Tc\u0003\r\n'));
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Tc']);
    expect(await service.dealScan('race-1', 'tc')).toMatchObject({ ok: false, error: { field: 'card', card: 'Tc', said: { key: 'race.refused.duplicate' } } });
    expect(await service.dealScan('race-1', 'S11')).toMatchObject({ ok: false, error: { field: 'scan', message: expect.stringMatching(/^"S11": .+ \(decoder text\)$/) } });
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, decoder: 'suit-number', scanner: 'suit-number' } }));
    await expectOk(service.dealScan('race-1', 'S11'));
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Tc', 'Js']);
    expect(await service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, scanner: 'no-such' } })).toMatchObject({ ok: false, error: { field: 'source.scanner', said: { key: 'service.noProfile' } } });
  });

  it('readScan reads a scan as dealScan would, by the scanner’s profile, and neither deals nor records it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    const journal = () => readFileSync(join(dataDir, 'journal.jsonl'), 'utf8');
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, decoder: 'suit-number' } }));
    const before = journal();
    // The scanner's default profile (text), whatever the shoe's: Tc is 10♣, S11 no card.
    expect(await service.readScan('\u0002]E0Tc\r\n')).toEqual({ ok: true, value: { card: 'Tc' } });
    expect(await service.readScan('S11')).toEqual({ ok: true, value: { card: null } });
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, scanner: 'suit-number' } }));
    expect(await service.readScan('S11')).toEqual({ ok: true, value: { card: 'Js' } });
    expect(await service.readScan('Tc')).toEqual({ ok: true, value: { card: null } });
    expect(service.getState().race).toBeNull();
    // Nothing journaled: no card, no refusal.
    expect(journal()).toBe(before);
  });

  it('a keyboard-wedge scan is decoded as a frame is, by the scanner’s own profile: the symbology prefix off, its decoder; a scan that is no card refused and kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { ...FINNISH_TABLE.source, scanner: 'suit-number' } }));
    await expectOk(service.startRace(COUNTS));
    await expectOk(service.dealScan('race-1', ']E0H01'));
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
    expect(await service.dealScan('race-1', 'Ah')).toMatchObject({ ok: false, error: { field: 'scan', message: expect.stringMatching(/^"Ah": .+ \(decoder suit-number\)$/) } });
    expect(await service.dealScan('race-2', 'C13')).toMatchObject({ ok: false, error: { field: 'race' } });
    const records = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line).record);
    expect(records.slice(1)).toEqual([
      { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'Ah' }, source: 'scanner' },
      { kind: 'refused', raceId: 'race-1', input: 'Ah', reason: expect.any(String), source: 'scanner' },
    ]);
  });

  it('refuses commands that do not fit the moment', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'service-')));
    expect(await service.dealCard('race-1', 'As')).toMatchObject({ ok: false, error: { field: 'race' } });
    expect(await service.confirmRace('race-1')).toMatchObject({ ok: false, error: { field: 'race' } });
    await expectOk(service.saveSettings(FINNISH_TABLE));
    expect(await service.startRace([{ seat: 1, chips: -1, hasOther: true }])).toMatchObject({ ok: false, error: { field: 'seats[0].chips' } });
    await expectOk(service.startRace(COUNTS));
    expect(await service.startRace(COUNTS)).toMatchObject({ ok: false, error: { field: 'race', message: expect.stringContaining('still open') } });
    expect(await service.confirmRace('race-1')).toMatchObject({ ok: false, error: { message: expect.stringContaining('Deal 3 cards to seat 1 — Matti') } });
    expect(await service.saveSettings({ ...FINNISH_TABLE, table: { ...FINNISH_TABLE.table, next: 110 } })).toMatchObject({ ok: false, error: { field: 'table.next' } });
  });

  it('reports a journal whose last line was cut off, and keeps what was acknowledged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const first = await serviceIn(dataDir);
    await expectOk(first.saveSettings(FINNISH_TABLE));
    await expectOk(first.startRace(COUNTS));
    await expectOk(first.dealCard('race-1', 'Ah'));
    await first.close();
    appendFileSync(join(dataDir, 'journal.jsonl'), '{"seq":3,"at":"2026-11-29T12:00:00.000Z","record":{"kind":"race-ev');
    const second = await serviceIn(dataDir);
    expect(second.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
    expect(second.getState().journal.findings).toEqual([{ code: 'torn-tail', bytes: 66, savedAs: 'journal.jsonl.torn-1' }]);
    await expectOk(second.dealCard('race-1', 'Kc'));
  });

  it('deals cards from the card source into the open race and shows everything else to the dealer', async () => {
    const { service, emit } = await raceFedByShoe();
    emit({ type: 'status', state: 'connected' });
    emit({ type: 'card', card: 'Ah', raw: 'AH' });
    emit(unknownEvent('A?', { key: 'hardware.decoder.notACardCode' }));
    await service.getState(); // let the queued deal run
    await service.previewRace(COUNTS);
    const state = service.getState();
    expect(state.source).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', state: 'connected' });
    expect(state.race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
    expect(state.lastInput).toEqual({ type: 'unknown', raw: 'A?', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } });
  });

  it('a card from the shoe that the race refuses is shown with why, until the next card is taken', async () => {
    const { service, emit } = await raceFedByShoe();
    const states: ConsoleState[] = [];
    service.onState((state) => states.push(state));
    emit({ type: 'card', card: 'Ah', raw: 'AH' });
    emit({ type: 'card', card: 'Ah', raw: 'AH' });
    await service.previewRace(COUNTS); // runs after the queued deals
    await expect.poll(() => service.getState().shoeRefusal).not.toBeNull();
    const refused = service.getState();
    expect(refused.shoeRefusal).toEqual({
      card: 'Ah',
      field: 'card',
      message: 'Ah was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card',
      said: { key: 'race.refused.duplicate', params: { card: { card: 'Ah' }, seats: { seats: [{ seat: 1 }] } } },
    });
    expect(refused.race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
    // Pushed to the screens, not only there to be asked for.
    expect(states.at(-1)?.shoeRefusal).toEqual(refused.shoeRefusal);
    emit({ type: 'card', card: 'Kc', raw: 'KC' });
    await service.previewRace(COUNTS);
    expect(service.getState().shoeRefusal).toBeNull();
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
    // Each read numbered and timed by the service's clock, the same card read twice as two inputs (the screens' input log has both).
    expect(service.getState().inputs).toEqual([1, 2, 3].map((id) => ({ id, at: '2026-11-29T12:00:00.000Z', event: { type: 'card', card: id === 3 ? 'Kc' : 'Ah', raw: id === 3 ? 'KC' : 'AH' } })));
  });

  it('the simulated shoe deals a whole race by itself, card by card, as a demo', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'service-')), { simulatedCardMs: 5 });
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, source: { kind: 'simulator', path: '', baud: 9600, decoder: 'text' } }));
    expect(service.getState().source.state).toBe('connected');
    await expectOk(service.startRace(COUNTS));
    await expect.poll(() => service.getState().race?.summary.status, { timeout: 5000 }).toBe('complete');
    const race = service.getState().race;
    expect(race?.summary.cards).toHaveLength(7);
    expect(race?.summary.awards).toHaveLength(2);
    expect(service.getState().lastInput).toMatchObject({ type: 'card', raw: expect.stringMatching(/^sim /) });
  });

  it('keeps score of a Pistepokeri game: the seed deal from cards read one by one, then the next deal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-'));
    const service = await serviceIn(dataDir);
    await expectOk(service.startGame('pistepokeri', ['Anna', 'Ville', 'Sanna']));
    expect(await service.startRace(COUNTS)).toMatchObject({ ok: false, error: { field: 'game' } });
    const hands = { Anna: ['5h', '6h', '7h', '8h', '9h'], Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'], Sanna: ['2c', '2s', '3c', '3s', '4c'] };
    for (let index = 0; index < 5; index += 1) for (const player of ['Anna', 'Ville', 'Sanna'] as const) await expectOk(service.dealCard('game-1', hands[player][index] as string));
    expect(service.getState().game?.awaiting).toEqual({ step: 'discard', player: 'Anna', round: 1 });
    expect(await service.dealCard('game-1', 'Jd')).toMatchObject({ ok: false, error: { message: expect.stringContaining('Anna must first choose the cards to discard') } });
    for (let turn = 0; turn < 3; turn += 1) await expectOk(service.gameAction('game-1', { type: 'discard', cards: [] }));
    const shown = service.getState().game;
    expect(shown?.showdown).toMatchObject({ best: 'Anna', category: 'straight-flush', points: 8 });
    expect(shown?.awaiting).toEqual({ step: 'play', player: 'Anna', trick: 1 });
    expect(shown?.legal).toEqual(['5h', '6h', '7h', '8h', '9h']);
    for (const card of ['9h', 'Ah', '2c', 'Ks', '2s', '5h', 'Kc', '3c', '6h', 'Qd', '3s', '7h', 'Kd', '4c', '8h']) await expectOk(service.dealCard('game-1', card));
    expect(service.getState().game?.points).toMatchObject({ lastTrick: { player: 'Ville', points: 2 }, scores: { Anna: 8, Ville: 2, Sanna: 0 }, winner: null });
    await expectOk(service.gameAction('game-1', { type: 'next-deal' }));
    expect(service.getState().game).toMatchObject({ dealNumber: 2, dealer: 'Anna', awaiting: { step: 'deal', player: 'Ville' } });
    await service.close();
    release(service);
    const restarted = await serviceIn(dataDir);
    expect(restarted.getState().game).toMatchObject({ dealNumber: 2, points: { scores: { Anna: 8, Ville: 2, Sanna: 0 } } });
    await expectOk(restarted.closeGame('game-1', 'players went home'));
    expect(restarted.getState().games).toEqual([expect.objectContaining({ game: 'pistepokeri', deals: 2, winner: null, scores: { Ville: 2, Sanna: 0, Anna: 8 } })]);
  });

  it('plans the colour-ups of a saved structure and proposes the one due at the current break', async () => {
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'service-')));
    const structure = {
      chips: [25, 100, 500, 1000, 5000],
      levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 15 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { break: 15 }, { sb: 500, bb: 1000 }],
    };
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, tournament: { structure, atBreakAfter: null } }));
    expect(service.getState().plan?.colorUps).toEqual([{ afterLevel: 2, remove: [25], next: 100 }, { afterLevel: 4, remove: [100], next: 500 }]);
    expect(service.getState().plan?.proposal).toBeNull();
    await expectOk(service.saveSettings({ ...FINNISH_TABLE, tournament: { structure, atBreakAfter: 4 } }));
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 4, remove: [100], next: 500, races: [{ removed: 100, next: 500 }] });
    expect(await service.saveSettings({ ...FINNISH_TABLE, tournament: { structure, atBreakAfter: 3 } })).toMatchObject({ ok: false, error: { field: 'tournament.atBreakAfter' } });
    const bad = { ...structure, levels: [{ sb: 30, bb: 60 }] };
    expect(await service.saveSettings({ ...FINNISH_TABLE, tournament: { structure: bad, atBreakAfter: null } })).toMatchObject({
      ok: false,
      error: { field: 'tournament.structure.levels[0].sb', message: expect.stringContaining('30 is not a multiple of any chip') },
    });
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(4);
    // Settings saved by a screen that knows nothing of the tournament keep the structure.
    const { tournament: _kept, ...withoutTournament } = FINNISH_TABLE;
    await expectOk(service.saveSettings({ ...withoutTournament, language: 'fi' }));
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 4 });
  });
});
