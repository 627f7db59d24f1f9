// @vitest-environment happy-dom
/**
 * Every screen, mounted in Finnish and Russian, shows no raw message key, asks vue-i18n for no key
 * the locale lacks (which would fall back to English), and shows no text identical to the English
 * screen except names, numbers and words that are the same in every language.
 */
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import App from './App.vue';
import type { Locale } from './i18n';
import { createKernelApi, type KernelApi, type KernelApiOptions } from './testing/kernelApi';
import { createStubApi } from './testing/stubApi';
import {
  BUILT_IN_PROFILE_INFOS, DECK_PROFILE_INFO, FINNISH_CARDS, FINNISH_COUNTS, makeHistory, makeHistoryEntry, makeProfileInfo, makeRaceView, makeSettings, makeState, makeTournamentState, VENDOR_PROFILE,
} from './testing/fixtures';
import { prepare, settle } from './testing/setup';
import { seedDealEvents, seedDealing, seedPlays, standPat, startEvent } from './testing/gameFixtures';
import type { CommandName } from '../protocol/commands';
import type { ConsoleState, RaceRecord } from '../protocol/contract';
import type { MatchEvent } from '../engine/poker/match';
import type { ViewName } from './stores/console';

/** A message key left on screen looks like `counts.title` (the data folder's file names do too, rightly). */
const RAW_KEY = /\b[a-z]+\.[a-zA-Z.]+\b/;
const FILE_NAMES = /\bjournal\.jsonl(\.torn-\d+)?|[\w.-]+\.json\b/g;
const isRawKey = (text: string) => RAW_KEY.test(text.replace(FILE_NAMES, ''));

/** Text that is rightly the same in every language (names, codes, brand words). */
const SAME_EVERYWHERE = [
  /^(Matti|Teppo|Johanna|Anna|Ville|Sanna)$/,
  /^(Pistepokeri|Chicago)$/,
  /^(English|Suomi|Русский)$/,
  /^(\d+ → \d+, )?Robert's Rules \(DD Poker\)$/,
  /^(text|suit-number|index1|index0|stx-text|stx-sum|barcode|rfid)$/,
  /^(vendor-x|deck-1|gone)$/,
  /^screen-test$/, // the station's name (the kernel's in-process station), as the history shows it
  /^(· )?\/(dev|tmp)\//,
  /^Chip race$/,
  /^✕$/,
];

interface Scenario {
  readonly name: string;
  /**
   * The station's real kernel (kernelApi.ts), its start reached by real commands (the settings
   * saved in the screen's language): the default.
   */
  readonly kernel?: KernelApiOptions;
  /** More real commands (or reads from the shoe) before the page connects. */
  readonly arrange?: (api: KernelApi) => Promise<void>;
  /**
   * Instead of the kernel, a state it cannot reach in-process (a damaged journal, a registration's
   * progress, …), given to the state-only stub (stubApi.ts), and the answers it gives.
   */
  readonly stub?: { readonly state: Partial<ConsoleState>; readonly answers?: Partial<Record<CommandName, unknown>> };
  readonly mode?: 'console' | 'display';
  readonly view?: ViewName;
  /** Extra steps after mounting (fill counts, list ports …). */
  readonly act?: (wrapper: ReturnType<typeof mount>, store: Awaited<ReturnType<typeof prepare>>['store'], scans: Awaited<ReturnType<typeof prepare>>['scans']) => Promise<void>;
}

const serial = { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'suit-number' } as const;
const rfid = { ...serial, decoder: 'rfid' } as const;
const STORED_PROFILES = [...BUILT_IN_PROFILE_INFOS, makeProfileInfo({ ...VENDOR_PROFILE })];

/** Chooses a file in a file input, as the dealer does, and lets it be read. */
async function chooseFile(wrapper: ReturnType<typeof mount>, testId: string, name: string, text: string): Promise<void> {
  const input = wrapper.get(`[data-testid="${testId}"]`);
  Object.defineProperty(input.element, 'files', { configurable: true, value: [new File([text], name, { type: 'application/json' })] });
  await input.trigger('change');
  await settle();
  await settle();
}

/** A confirmed race and its full record, with a card held after a noisy read, a void, a repeated refusal and a forgery found. */
const RECORDED = makeHistoryEntry({ id: 'race-1' });
const RECORD: RaceRecord = {
  id: 'race-1',
  status: 'confirmed',
  startedAt: '2024-05-04T18:30:00.000Z',
  counts: [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: false }],
  names: RECORDED.names,
  summary: RECORDED.summary,
  seqs: { first: 1, last: 12 },
  lastSeal: 'ab'.repeat(32),
  chain: 'broken',
  findings: [{ code: 'altered', seq: 5, skipped: false }],
  events: [
    { seq: 1, at: '2024-05-04T18:30:00.000Z', type: 'start' },
    { seq: 2, at: '2024-05-04T18:30:05.000Z', type: 'card', card: 'Ah', seat: 1, round: 0, source: 'manual', held: false },
    { seq: 3, at: '2024-05-04T18:30:06.000Z', type: 'card', card: 'Qs', seat: 1, round: 1, source: 'shoe', held: true },
    { seq: 4, at: '2024-05-04T18:30:07.000Z', type: 'card', card: 'Kc', seat: 2, round: 0, source: 'shoe', held: false },
    { seq: 5, at: '2024-05-04T18:30:09.000Z', type: 'void', voided: [{ card: 'Qs', seat: 1, round: 1, reason: '' }, { card: 'Kc', seat: 2, round: 0, reason: 'x' }] },
    { seq: 6, at: '2024-05-04T18:30:10.000Z', type: 'refused', input: 'Ah', reason: 'Ah was already dealt', source: 'shoe', count: 1 },
    { seq: 7, at: '2024-05-04T18:30:11.000Z', type: 'refused', input: 'Ah', reason: 'Ah was already dealt', source: 'shoe', count: 40 },
    { seq: 12, at: '2024-05-04T18:34:00.000Z', type: 'confirm', by: 'Anna' },
    { seq: 13, at: '2024-05-04T18:35:00.000Z', type: 'abandon', reason: 'x' },
  ],
};

/** Anna won in deal 2 (the straight flush again); a Chicago game closed before anyone won. */
const WON_GAME: readonly MatchEvent[] = [...seedDealEvents(), { type: 'next-deal' }, ...seedDealing(['Ville', 'Sanna', 'Anna']), ...standPat()];
const GAMES_PLAYED: readonly (readonly MatchEvent[])[] = [WON_GAME, [startEvent('chicago', ['Matti', 'Teppo'])]];

/** Seat 1 has exactly one chip's worth of the leaving chips, the others none: settled without cards. */
const EVEN_COUNTS = (ratio: number) => [
  { seat: 1, chips: ratio, hasOther: true },
  { seat: 2, chips: 0, hasOther: true },
  { seat: 3, chips: 0, hasOther: true },
];

/** A structure whose colour-up cannot exchange its chips exactly (20 → 50): the plan warns. */
const WARNED_STRUCTURE = { chips: [20, 50, 100], levels: [{ sb: 20, bb: 40 }, { break: 10 }, { sb: 50, bb: 100 }, { sb: 100, bb: 200 }] };

/** The tournament's settings (TOURNAMENT_STRUCTURE) for the kernel: the break is marked by its own command. */
const TOURNAMENT = makeTournamentState().settings;

/** A command the scenario arranges with, which must be taken. */
async function taken(api: KernelApi, method: CommandName, ...args: unknown[]): Promise<void> {
  const result = (await api.station.run(method, ...args)) as { ok: boolean; error?: unknown };
  if (!result.ok) throw new Error(`arranging the scenario: ${method} was refused: ${JSON.stringify(result.error)}`);
}

/** The reader on the serial port the service opened: what it decoded handed to the service. */
function shoe(api: KernelApi) {
  const open = api.station.shoe();
  if (open === null) throw new Error('arranging the scenario: no card source is open');
  return open;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'tournament structure at a break, an override being chosen',
    view: 'structure',
    kernel: { settings: TOURNAMENT, markBreak: 6 },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="override-2-edit"]').trigger('click');
      await wrapper.get('[data-testid="override-6-edit"]').trigger('click');
      await wrapper.get('[data-testid="override-6-chip-25"]').setValue(true);
      await settle();
    },
  },
  {
    name: 'tournament structure refused, with warnings',
    view: 'structure',
    kernel: { settings: makeTournamentState({ structure: WARNED_STRUCTURE, table: { chipSet: [20, 50, 100], removed: 50, next: 100 } }).settings },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="structure-row-0-sb"]').setValue('30');
      await wrapper.get('form').trigger('submit');
      await settle();
    },
  },
  {
    name: 'tournament structure, none yet',
    view: 'structure',
    act: async (wrapper) => {
      await wrapper.get('[data-testid="structure-add-break"]').trigger('click');
      await wrapper.get('[data-testid="structure-add-level"]').trigger('click');
      await wrapper.get('[data-testid="structure-export-csv"]').trigger('click');
      await settle();
    },
  },
  { name: 'counts with the colour-up proposed', view: 'race', kernel: { settings: TOURNAMENT, markBreak: 6 } },
  { name: 'dealing a colour-up race', kernel: { settings: TOURNAMENT, markBreak: 2, race: { cards: ['Ah'] } } },
  { name: 'dealing while another colour-up waits', kernel: { settings: TOURNAMENT, markBreak: 6, race: { cards: ['Ah'] } } },
  {
    name: 'colour-up races confirmed',
    kernel: { settings: TOURNAMENT, markBreak: 6 },
    act: async (wrapper, store) => {
      await wrapper.get('[data-testid="color-up-start"]').trigger('click');
      await settle();
      await store.run('startRace', EVEN_COUNTS(5));
      await store.run('confirmRace');
      await settle();
      await wrapper.get('[data-testid="color-up-start"]').trigger('click');
      await settle();
      await store.run('startRace', EVEN_COUNTS(2));
      await store.run('confirmRace');
      await settle();
    },
  },
  { name: 'table setup', view: 'setup' },
  {
    name: 'table setup with a serial shoe',
    view: 'setup',
    kernel: { settings: makeSettings({ source: serial }) },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="list-ports"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'counts with guidance',
    view: 'race',
    act: async (wrapper) => {
      await wrapper.get('[data-testid="counts-seat-1-other"]').setValue(false);
      for (const [seat, chips] of [[1, 1], [2, 9], [3, 2]] as const) {
        await wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).setValue(String(chips));
      }
      await settle();
    },
  },
  {
    name: 'counts, empty and invalid',
    view: 'race',
    act: async (wrapper) => {
      await wrapper.get('[data-testid="counts-seat-1-chips"]').setValue('1.5');
      await settle();
    },
  },
  {
    name: 'counts with no race needed',
    view: 'race',
    act: async (wrapper) => {
      for (const [seat, chips] of [[1, 1], [2, 0], [3, 0]] as const) {
        await wrapper.get(`[data-testid="counts-seat-${seat}-chips"]`).setValue(String(chips));
      }
      await settle();
    },
  },
  {
    name: 'dealing with a troubled shoe',
    kernel: { settings: makeSettings({ source: serial }), race: { cards: ['Ah', 'Kc'], voids: 1 } },
    arrange: async (api) => {
      // The reader unplugged, after a code that is no card.
      shoe(api).emit({ type: 'unknown', raw: 'X9', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } });
      shoe(api).emit({ type: 'status', state: 'reconnecting', code: 'unplugged', message: 'Waiting for /dev/ttyUSB0 to come back (retrying up to every 5000 ms)', said: { key: 'hardware.port.waiting', params: { path: '/dev/ttyUSB0', ms: 5000 } } });
      await api.station.idle();
    },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="manual-input"]').setValue('zz');
      await wrapper.get('[data-testid="manual-input"]').trigger('keydown', { key: 'Enter' });
      await wrapper.get('[data-testid="abandon-race"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'tie-break',
    kernel: {
      settings: makeSettings({ source: serial }),
      race: {
        decks: 2,
        button: 3,
        counts: [
          { seat: 1, chips: 1, hasOther: true },
          { seat: 2, chips: 1, hasOther: true },
          { seat: 3, chips: 1, hasOther: true },
        ],
        cards: ['As', 'As', '2c', 'Kh'],
      },
    },
    arrange: async (api) => {
      shoe(api).emit({ type: 'device', message: 'new-shoe', raw: 'NEW' });
      await api.station.idle();
    },
  },
  { name: 'result', kernel: { race: { cards: FINNISH_CARDS } } },
  {
    name: 'result with protection and corrections',
    kernel: {
      race: {
        rules: 'tda',
        counts: [
          { seat: 1, chips: 1, hasOther: false },
          { seat: 2, chips: 2, hasOther: true },
          { seat: 3, chips: 0, hasOther: true },
        ],
        cards: ['2c', 'Ah', 'Kh'],
        voids: 1,
      },
    },
    act: async (wrapper) => {
      for (const card of ['Ks']) {
        await wrapper.get('[data-testid="manual-input"]').setValue(card);
        await wrapper.get('[data-testid="manual-input"]').trigger('keydown', { key: 'Enter' });
        await settle();
      }
    },
  },
  {
    name: 'result of roberts rules',
    kernel: {
      settings: makeSettings({ table: { chipSet: [5, 25, 100] } }),
      race: {
        rules: 'roberts',
        removed: 5,
        next: 25,
        counts: [
          { seat: 1, chips: 3, hasOther: true },
          { seat: 2, chips: 4, hasOther: true },
        ],
      },
    },
  },
  {
    name: 'result of the round rule',
    kernel: {
      race: {
        rules: 'round',
        counts: [
          { seat: 1, chips: 3, hasOther: true },
          { seat: 2, chips: 1, hasOther: true },
        ],
      },
    },
  },
  {
    name: 'history',
    view: 'history',
    // The exports' links (browser mode) are there from the start.
    arrange: async (api) => {
      // A race with a card voided, then one on the TDA's rules half an hour later.
      const race = async (cards: readonly string[], voided: readonly string[]) => {
        await taken(api, 'startRace', FINNISH_COUNTS);
        const id = api.current.race?.id ?? '';
        for (const card of voided) await taken(api, 'dealCard', id, card);
        if (voided.length > 0) await taken(api, 'voidCards', id, voided.length, 'manual correction');
        for (const card of cards) await taken(api, 'dealCard', id, card);
        await taken(api, 'confirmRace', id);
      };
      await race(FINNISH_CARDS, ['Ks']);
      api.station.advance(30 * 60_000);
      const { language, tournament: _tournament, display: _display, ...input } = api.current.settings;
      await taken(api, 'saveSettings', { ...input, language, table: { ...input.table, rules: 'tda' } });
      await race(FINNISH_CARDS, []);
    },
  },
  { name: 'empty history', view: 'history' },
  {
    name: "a race's record, the chain broken",
    view: 'history',
    // A record the journal's damage shows (an altered line found, a card held, a void, refusals): a state only a damaged journal gives.
    stub: {
      state: { history: makeHistory([RECORDED]), journal: { ...makeState().journal, chain: 'broken', findings: RECORD.findings } },
      answers: { historyPage: { ok: true, value: { total: 1, start: 0, entries: [RECORDED] } }, raceRecord: { ok: true, value: RECORD } },
    },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="history-open-record"]').trigger('click');
      await settle();
    },
  },
  {
    name: "a race's record with late-found chips, more being entered",
    view: 'history',
    // TDA 24C: 5 × 25 found at seat 2 after the race, recorded on it.
    kernel: { history: [{ cards: FINNISH_CARDS }] },
    arrange: async (api) => {
      const raceId = api.current.history.latest?.id ?? '';
      await taken(api, 'recordChipExchange', { reason: 'late-found', raceId, seat: 2, removed: 25, count: 5, next: 100, note: 'x' });
    },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="history-open-record"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="record-late-found"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="chip-exchange-count"]').setValue(5);
      await settle();
    },
  },
  {
    name: 'counts at a break, a player being coloured up (no reason yet)',
    view: 'race',
    kernel: { settings: TOURNAMENT, markBreak: 6 },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="colour-up-player"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="chip-exchange-count"]').setValue(3);
      await settle();
    },
  },
  {
    name: 'journal findings and a read-only journal',
    view: 'settings',
    // Every finding a damaged journal (and a damaged settings file) can give: only damage gives them.
    stub: {
      state: {
        journal: {
          ...makeState().journal,
          chain: 'broken',
          readOnly: { code: 'unknown-record', seq: 9, kind: 'race-dispute' },
          findings: [
            { code: 'torn-tail', bytes: 41, savedAs: 'journal.jsonl.torn-1' },
            { code: 'unreadable', line: 3, seq: 2 },
            { code: 'unreadable', line: 5, seq: 4, sealed: true },
            { code: 'no-header', seq: 1 },
            { code: 'not-a-record', line: 4, seq: 3 },
            { code: 'altered', seq: 4, skipped: true },
            { code: 'rewritten', seq: 5 },
            { code: 'missing', seq: 6, last: 7 },
            { code: 'missing', seq: 8, last: 8 },
            { code: 'reordered', seq: 10, after: 11 },
            { code: 'duplicate', seq: 12 },
            { code: 'unsealed', seq: 13 },
            { code: 'anchor', seq: 1, records: 4 },
            { code: 'header', line: 1 },
            { code: 'newer-version', version: 3 },
            { code: 'unknown-record', seq: 9, kind: 'race-dispute' },
            { code: 'key-missing', keyId: '0123456789abcdef' },
            { code: 'key-wrong', keyId: '0123456789abcdef' },
            { code: 'clock-back', seq: 14, seconds: 3600 },
            { code: 'skipped', seq: 15, kind: 'race-event', reason: 'race-event for a race that is not open' },
            { code: 'settings', message: 'settings file was damaged (x); defaults are used' },
            // The same two said in keys, as this version's station and replay say them.
            { code: 'skipped', seq: 16, kind: 'race-event', reason: 'race-event for a race that is not open', said: { key: 'replay.noRace', params: { kind: 'race-event' } } },
            { code: 'settings', message: 'the settings name the device profile "vendor-x", which is not in the data folder: the text profile is used until another is chosen', said: { key: 'settings.file.profileMissing', params: { name: 'vendor-x' } } },
          ],
        },
      },
    },
  },
  {
    name: 'a card held for the dealer, read while the line was noisy',
    // One held for noise, one queued behind it: a queue only a shoe's timing gives.
    stub: {
      state: {
        race: makeRaceView({ cards: ['Ah'] }),
        held: [
          { id: 1, target: 'race-1', card: 'Kd', raw: 'KD', why: 'noise' },
          { id: 2, target: 'race-1', card: '2c', raw: '2C', why: 'queued' },
        ],
      },
    },
  },
  {
    name: 'dealing, a scan refused (the headline says so)',
    kernel: { race: { cards: ['Ah'] } },
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('AH');
      await settle();
    },
  },
  {
    name: 'dealing, a scan that is no card',
    kernel: { race: { cards: ['Ah'] } },
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('X9');
      await settle();
    },
  },
  {
    name: 'counts, a card scanned before the race started',
    view: 'race',
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('Kc');
      await settle();
    },
  },
  {
    name: 'dealing, a card scanned before the race started, to scan again',
    kernel: { race: { cards: ['Ah'] } },
    act: async (_wrapper, store, scans) => {
      store.navigate('history');
      await scans.scanned('Kc');
      store.navigate('race');
      await settle();
    },
  },
  {
    name: 'settings, a card scanned with nothing open',
    view: 'settings',
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('Kc');
      await settle();
    },
  },
  {
    name: 'result, a scan refused',
    kernel: { race: { cards: FINNISH_CARDS } },
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('Kc');
      await settle();
    },
  },
  { name: 'history with points games', view: 'history', kernel: { games: GAMES_PLAYED } },
  {
    name: 'points game start, refused',
    view: 'points',
    kernel: { games: GAMES_PLAYED },
    // A race open (started after the games: a game is not started while one is).
    arrange: (api) => taken(api, 'startRace', FINNISH_COUNTS),
    act: async (wrapper) => {
      await wrapper.get('[data-testid="player-2-name"]').setValue('');
      await wrapper.get('[data-testid="start-game"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="player-2-name"]').setValue('Matti');
      await wrapper.get('[data-testid="start-game"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="player-2-name"]').setValue('Ville');
      await wrapper.get('[data-testid="start-game"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'points game, dealing with a refused card',
    kernel: { game: [startEvent(), { type: 'card', card: '5h' }] },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="manual-input"]').setValue('5h');
      await wrapper.get('[data-testid="manual-input"]').trigger('keydown', { key: 'Enter' });
      await settle();
      await wrapper.get('[data-testid="close-game"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'points game, Chicago exchange',
    kernel: { game: [startEvent('chicago'), ...seedDealing()] },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="hand-1"] [data-card="5h"] button').trigger('click');
      await wrapper.get('[data-testid="hand-1"] [data-card="6h"] button').trigger('click');
      await settle();
    },
  },
  { name: 'points game, drawing', kernel: { game: [startEvent(), ...seedDealing(), { type: 'discard', cards: ['5h', '6h'] }] } },
  {
    name: 'points game, an illegal card refused',
    kernel: { game: [startEvent(), ...seedDealing(), ...standPat(), ...seedPlays(1)] },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="hand-2"] [data-card="Ks"] button').trigger('click');
      await settle();
    },
  },
  { name: 'points game, deal over', kernel: { game: seedDealEvents() } },
  { name: 'points game, next deal', kernel: { game: [...seedDealEvents(), { type: 'next-deal' }, ...seedDealing().slice(0, 4)] } },
  {
    name: 'points game, won',
    kernel: { game: WON_GAME },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="close-game"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'settings with live input',
    view: 'settings',
    kernel: { settings: makeSettings({ source: serial }) },
    arrange: async (api) => {
      // Reads (a card, a code out of range), the line dropped, then the port refused when reopened.
      // (The service logs the reads, not the port's statuses: those show as the source's state.)
      shoe(api).emit({ type: 'card', card: 'Qd', raw: 'D12' });
      shoe(api).emit({ type: 'unknown', raw: '99', reason: 'card number out of range 1–52', said: { key: 'hardware.decoder.outOfRange', params: { range: '1–52' } } });
      shoe(api).emit({ type: 'status', state: 'disconnected' });
      shoe(api).emit({ type: 'status', state: 'error', code: 'permission-denied' });
      await api.station.idle();
    },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="list-ports"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'settings, a stored profile with its line settings changed, a file that is not JSON',
    view: 'settings',
    kernel: { importProfiles: [VENDOR_PROFILE], settings: makeSettings({ source: { ...serial, decoder: 'vendor-x', stopBits: 2, rtscts: true } }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'broken.json', '{ "name": ');
    },
  },
  {
    name: 'settings, a profile file imported and chosen',
    view: 'settings',
    kernel: { settings: makeSettings({ source: serial }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'vendor-x.json', JSON.stringify(VENDOR_PROFILE));
    },
  },
  {
    name: 'table setup, a profile file the service refuses',
    view: 'setup',
    kernel: { settings: makeSettings({ source: serial }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'vendor-x.json', JSON.stringify({ ...VENDOR_PROFILE, framing: { kind: 'morse' } }));
    },
  },
  // The settings name a profile whose file left the data folder between two runs: the service refuses to save such settings.
  { name: 'settings, a profile the data folder lacks', view: 'settings', stub: { state: { profiles: STORED_PROFILES, settings: makeSettings({ source: { ...serial, decoder: 'gone' } }) } } },
  {
    name: 'settings, a deck being registered, a repeated tag',
    view: 'settings',
    // An RFID reader's registration progress: tags read one by one.
    stub: { state: { settings: makeSettings({ source: rfid }), registration: { name: 'deck-1', registered: 13, total: 52, next: 'Ah', problem: 'tag 04A210C4 is already registered as As' } } },
  },
  {
    name: 'settings, a deck registered',
    view: 'settings',
    stub: { state: { settings: makeSettings({ source: rfid }), registration: { name: 'deck-1', registered: 51, total: 52, next: 'Kc', problem: null } } },
    act: async (_wrapper, store) => {
      // The 52nd tag: the service stores the profile and chooses it, in one state.
      const base = store.state as ConsoleState;
      store.receive({ ...base, registration: null, profiles: [...base.profiles, DECK_PROFILE_INFO], settings: { ...base.settings, source: { ...rfid, decoder: 'deck-1' } } });
      await settle();
    },
  },
  {
    name: 'settings, register deck refused (no port), the form edited',
    view: 'settings',
    kernel: { settings: makeSettings({ source: { ...rfid, path: '' } }) },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="register-start"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="source-parity"]').setValue('mark');
      await settle();
    },
  },
  { name: 'player display, idle', mode: 'display' },
  { name: 'player display, dealing', mode: 'display', kernel: { race: { cards: ['Ah'] } } },
  { name: 'player display, result', mode: 'display', kernel: { race: { cards: FINNISH_CARDS } } },
];

/** Every visible text node (outside the English audit record) and every accessible-name attribute. */
function screenTexts(root: Element): string[] {
  const texts: string[] = [];
  // Only an English part inside the screen counts (the page's own <html lang> is the locale's).
  const inEnglish = (element: Element | null | undefined): boolean => {
    const marked = element?.closest('[lang="en"]');
    return marked !== null && marked !== undefined && root.contains(marked);
  };
  const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (inEnglish(node.parentElement)) continue;
    const text = node.textContent?.trim() ?? '';
    if (text !== '') texts.push(text);
  }
  for (const element of root.querySelectorAll('*')) {
    if (inEnglish(element)) continue;
    for (const name of ['aria-label', 'placeholder', 'title']) {
      const value = element.getAttribute(name);
      if (value !== null && value.trim() !== '') texts.push(value.trim());
    }
  }
  return texts;
}

/** The page's service: the real kernel, its start reached by real commands in this language; or the stub's state. */
async function serviceFor(scenario: Scenario, locale: Locale) {
  if (scenario.stub !== undefined) {
    const state = makeState({ ...scenario.stub.state, settings: { ...(scenario.stub.state.settings ?? makeSettings()), language: locale } });
    return createStubApi({ state, answers: scenario.stub.answers });
  }
  const api = await createKernelApi({ ports: [], ...scenario.kernel, settings: { ...(scenario.kernel?.settings ?? makeSettings()), language: locale } });
  await scenario.arrange?.(api);
  return api;
}

async function render(scenario: Scenario, locale: Locale): Promise<{ texts: string[]; missing: string[] }> {
  localStorage.clear(); // the colour-up progress this station remembers
  const prepared = await prepare({ api: await serviceFor(scenario, locale), locale });
  const wrapper = mount(App, { props: { mode: scenario.mode ?? 'console' }, global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  if (scenario.view !== undefined) prepared.store.navigate(scenario.view);
  await settle();
  await scenario.act?.(wrapper, prepared.store, prepared.scans);
  await settle();
  const texts = screenTexts(wrapper.element);
  wrapper.unmount();
  return { texts, missing: prepared.missing };
}

let warn: MockInstance;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(['fi', 'ru'] as const)('every screen in %s', (locale) => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
    const english = await render(scenario, 'en');
    expect(english.missing).toEqual([]);
    expect(english.texts.length).toBeGreaterThan(1);
    const translated = await render(scenario, locale);

    expect(translated.texts.length).toBeGreaterThan(1);
    expect(translated.missing).toEqual([]);
    expect(translated.texts.filter(isRawKey)).toEqual([]);
    const intlifyWarnings = warn.mock.calls.map((call) => String(call[0])).filter((message) => /intlify|fall ?back|not found/i.test(message));
    expect(intlifyWarnings).toEqual([]);

    const englishTexts = new Set(english.texts.filter((text) => /\p{L}{3,}/u.test(text)));
    const untranslated = translated.texts.filter((text) => englishTexts.has(text) && !SAME_EVERYWHERE.some((allowed) => allowed.test(text)));
    expect(untranslated).toEqual([]);
  });
});

describe('the English screens', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s has no raw key', async (_name, scenario) => {
    const english = await render(scenario, 'en');
    expect(english.texts.filter(isRawKey)).toEqual([]);
  });
});
