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
import { createFakeApi } from './testing/fakeApi';
import {
  BUILT_IN_PROFILE_INFOS, DECK_PROFILE_INFO, FINNISH_CARDS, makeHistoryEntry, makeProfileInfo, makeSettings, makeState, makeTournamentState, VENDOR_PROFILE, type RaceInput,
} from './testing/fixtures';
import { prepare, settle } from './testing/setup';
import { gameHistoryOf, playMatch, seedDealEvents, seedDealing, seedPlays, standPat, startEvent } from './testing/gameFixtures';
import type { ConsoleState, HistoryEntry, RaceRecord } from '../protocol/contract';
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
  /^(· )?\/(dev|tmp)\//,
  /^Chip race$/,
  /^✕$/,
];

interface Scenario {
  readonly name: string;
  readonly state?: Partial<ConsoleState>;
  readonly race?: RaceInput;
  /** A points game open at the console: the engine game after these events. */
  readonly game?: readonly MatchEvent[];
  readonly mode?: 'console' | 'display';
  readonly view?: ViewName;
  /** Confirmed races in the history (oldest first), and the records raceRecord answers. */
  readonly history?: readonly HistoryEntry[];
  readonly records?: Readonly<Record<string, RaceRecord>>;
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

/** The record with late-found chips recorded on it (TDA 24C: 5 × 25 found, 1 × 100 given, 1 × 25 taken off). */
const RECORD_LATE_FOUND: RaceRecord = {
  ...RECORD,
  chain: 'intact',
  findings: [],
  chipExchanges: [{ reason: 'late-found', raceId: 'race-1', seat: 2, removed: 25, count: 5, next: 100, note: 'x', given: 1, lost: 1, valueDelta: -25, seq: 14, at: '2024-05-04T18:40:00.000Z' }],
};

/** Anna won in deal 2 (the straight flush again); a Chicago game closed before anyone won. */
const WON_GAME: readonly MatchEvent[] = [...seedDealEvents(), { type: 'next-deal' }, ...seedDealing(['Ville', 'Sanna', 'Anna']), ...standPat()];
const GAMES_PLAYED = [gameHistoryOf(playMatch(WON_GAME)), gameHistoryOf(playMatch([startEvent('chicago', ['Matti', 'Teppo'])]), 'game-2')];

/** Seat 1 has exactly one chip's worth of the leaving chips, the others none: settled without cards. */
const EVEN_COUNTS = (ratio: number) => [
  { seat: 1, chips: ratio, hasOther: true },
  { seat: 2, chips: 0, hasOther: true },
  { seat: 3, chips: 0, hasOther: true },
];

/** A structure whose colour-up cannot exchange its chips exactly (20 → 50): the plan warns. */
const WARNED_STRUCTURE = { chips: [20, 50, 100], levels: [{ sb: 20, bb: 40 }, { break: 10 }, { sb: 50, bb: 100 }, { sb: 100, bb: 200 }] };

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'tournament structure at a break, an override being chosen',
    view: 'structure',
    state: makeTournamentState({ atBreakAfter: 6 }),
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
    state: makeTournamentState({ structure: WARNED_STRUCTURE, table: { chipSet: [20, 50, 100], removed: 50, next: 100 } }),
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
  { name: 'counts with the colour-up proposed', view: 'race', state: makeTournamentState({ atBreakAfter: 6 }) },
  { name: 'dealing a colour-up race', state: makeTournamentState({ atBreakAfter: 2 }), race: { cards: ['Ah'] } },
  { name: 'dealing while another colour-up waits', state: makeTournamentState({ atBreakAfter: 6 }), race: { cards: ['Ah'] } },
  {
    name: 'colour-up races confirmed',
    state: makeTournamentState({ atBreakAfter: 6 }),
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
  { name: 'table setup', view: 'setup', state: {} },
  {
    name: 'table setup with a serial shoe',
    view: 'setup',
    state: { settings: makeSettings({ source: serial }) },
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
    race: { cards: ['Ah', 'Kc'], voids: 1 },
    state: {
      source: { kind: 'serial', path: '/dev/ttyUSB0', state: 'reconnecting', code: 'unplugged', message: 'Waiting for /dev/ttyUSB0 to come back (retrying up to every 5000 ms)', said: { key: 'hardware.port.waiting', params: { path: '/dev/ttyUSB0', ms: 5000 } } },
      lastInput: { type: 'unknown', raw: 'X9', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } },
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
    state: { lastInput: { type: 'device', message: 'new-shoe', raw: 'NEW' } },
  },
  { name: 'result', race: { cards: FINNISH_CARDS } },
  {
    name: 'result with protection and corrections',
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
  {
    name: 'result of the round rule',
    race: {
      rules: 'round',
      counts: [
        { seat: 1, chips: 3, hasOther: true },
        { seat: 2, chips: 1, hasOther: true },
      ],
    },
  },
  {
    name: 'history',
    view: 'history',
    // The exports' links (browser mode) are there from the start.
    history: [makeHistoryEntry({ id: 'a', corrections: 1 }), makeHistoryEntry({ id: 'b', rules: 'tda', confirmedAt: '2024-05-04T19:00:00.000Z' })],
  },
  { name: 'empty history', view: 'history' },
  {
    name: "a race's record, the chain broken",
    view: 'history',
    history: [RECORDED],
    records: { 'race-1': RECORD },
    state: { journal: { ...makeState().journal, chain: 'broken', findings: RECORD.findings } },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="history-open-record"]').trigger('click');
      await settle();
    },
  },
  {
    name: "a race's record with late-found chips, more being entered",
    view: 'history',
    history: [RECORDED],
    records: { 'race-1': RECORD_LATE_FOUND },
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
    state: makeTournamentState({ atBreakAfter: 6 }),
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
  {
    name: 'a card held for the dealer, read while the line was noisy',
    race: { cards: ['Ah'] },
    state: {
      held: [
        { id: 1, target: 'race-1', card: 'Kd', raw: 'KD', why: 'noise' },
        { id: 2, target: 'race-1', card: '2c', raw: '2C', why: 'queued' },
      ],
    },
  },
  {
    name: 'dealing, a scan refused (the headline says so)',
    race: { cards: ['Ah'] },
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('AH');
      await settle();
    },
  },
  {
    name: 'dealing, a scan that is no card',
    race: { cards: ['Ah'] },
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
    race: { cards: ['Ah'] },
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
    race: { cards: FINNISH_CARDS },
    act: async (_wrapper, _store, scans) => {
      await scans.scanned('Kc');
      await settle();
    },
  },
  { name: 'history with points games', view: 'history', state: { games: GAMES_PLAYED } },
  {
    name: 'points game start, refused',
    view: 'points',
    state: { games: GAMES_PLAYED },
    race: {},
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
    game: [startEvent(), { type: 'card', card: '5h' }],
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
    game: [startEvent('chicago'), ...seedDealing()],
    act: async (wrapper) => {
      await wrapper.get('[data-testid="hand-1"] [data-card="5h"] button').trigger('click');
      await wrapper.get('[data-testid="hand-1"] [data-card="6h"] button').trigger('click');
      await settle();
    },
  },
  { name: 'points game, drawing', game: [startEvent(), ...seedDealing(), { type: 'discard', cards: ['5h', '6h'] }] },
  {
    name: 'points game, an illegal card refused',
    game: [startEvent(), ...seedDealing(), ...standPat(), ...seedPlays(1)],
    act: async (wrapper) => {
      await wrapper.get('[data-testid="hand-2"] [data-card="Ks"] button').trigger('click');
      await settle();
    },
  },
  { name: 'points game, deal over', game: seedDealEvents() },
  { name: 'points game, next deal', game: [...seedDealEvents(), { type: 'next-deal' }, ...seedDealing().slice(0, 4)] },
  {
    name: 'points game, won',
    game: WON_GAME,
    act: async (wrapper) => {
      await wrapper.get('[data-testid="close-game"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'settings with live input',
    view: 'settings',
    state: { settings: makeSettings({ source: serial }), source: { kind: 'serial', path: '/dev/ttyUSB0', state: 'error', code: 'permission-denied' } },
    act: async (wrapper, store) => {
      const base = store.state as ConsoleState;
      const reads = [
        { id: 1, event: { type: 'card', card: 'Qd', raw: 'D12' } },
        { id: 2, event: { type: 'unknown', raw: '99', reason: 'card number out of range 1–52', said: { key: 'hardware.decoder.outOfRange', params: { range: '1–52' } } } },
        { id: 3, event: { type: 'status', state: 'disconnected' } },
      ] as const;
      for (const [index, read] of reads.entries()) store.receive({ ...base, lastInput: read.event, inputs: reads.slice(0, index + 1) });
      await settle();
      await wrapper.get('[data-testid="list-ports"]').trigger('click');
      await settle();
    },
  },
  {
    name: 'settings, a stored profile with its line settings changed, a file that is not JSON',
    view: 'settings',
    state: { profiles: STORED_PROFILES, settings: makeSettings({ source: { ...serial, decoder: 'vendor-x', stopBits: 2, rtscts: true } }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'broken.json', '{ "name": ');
    },
  },
  {
    name: 'settings, a profile file imported and chosen',
    view: 'settings',
    state: { settings: makeSettings({ source: serial }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'vendor-x.json', JSON.stringify(VENDOR_PROFILE));
    },
  },
  {
    name: 'table setup, a profile file the service refuses',
    view: 'setup',
    state: { settings: makeSettings({ source: serial }) },
    act: async (wrapper) => {
      await chooseFile(wrapper, 'source-import', 'vendor-x.json', JSON.stringify({ ...VENDOR_PROFILE, framing: { kind: 'morse' } }));
    },
  },
  { name: 'settings, a profile the data folder lacks', view: 'settings', state: { settings: makeSettings({ source: { ...serial, decoder: 'gone' } }) } },
  {
    name: 'settings, a deck being registered, a repeated tag',
    view: 'settings',
    state: { settings: makeSettings({ source: rfid }), registration: { name: 'deck-1', registered: 13, total: 52, next: 'Ah', problem: 'tag 04A210C4 is already registered as As' } },
  },
  {
    name: 'settings, a deck registered',
    view: 'settings',
    state: { settings: makeSettings({ source: rfid }), registration: { name: 'deck-1', registered: 51, total: 52, next: 'Kc', problem: null } },
    act: async (_wrapper, store) => {
      const base = store.state as ConsoleState;
      store.receive({ ...base, registration: null, profiles: [...base.profiles, DECK_PROFILE_INFO], settings: { ...base.settings, source: { ...rfid, decoder: 'deck-1' } } });
      await settle();
    },
  },
  {
    name: 'settings, register deck refused (no port), the form edited',
    view: 'settings',
    state: { settings: makeSettings({ source: { ...rfid, path: '' } }) },
    act: async (wrapper) => {
      await wrapper.get('[data-testid="register-start"]').trigger('click');
      await settle();
      await wrapper.get('[data-testid="source-parity"]').setValue('mark');
      await settle();
    },
  },
  { name: 'player display, idle', mode: 'display' },
  { name: 'player display, dealing', mode: 'display', race: { cards: ['Ah'] } },
  { name: 'player display, result', mode: 'display', race: { cards: FINNISH_CARDS } },
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

async function render(scenario: Scenario, locale: Locale): Promise<{ texts: string[]; missing: string[] }> {
  localStorage.clear(); // the colour-up progress this station remembers
  const state = makeState({ settings: makeSettings({ language: locale }), ...scenario.state });
  const settings = { ...state.settings, language: locale };
  const api = createFakeApi({ state: { ...state, settings }, race: scenario.race, game: scenario.game, ports: [], history: scenario.history, records: scenario.records });
  const prepared = await prepare({ api, locale });
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
