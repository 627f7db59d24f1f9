// The bad input catalogue: every way a user or a device can get it wrong, with the exact message
// each one gets. For every entry: nothing crashes (the answer is a refusal naming the field, never
// an "unexpected error", and the console goes on working), and nothing already recorded is lost
// (the state on screen is unchanged, and a restart on the same data dir reads the same back).
//
// Commands go through dispatch(), the validation every IPC and browser-bridge call passes; the
// device rows go through a real pseudo-terminal (socat); the full disk is a real tmpfs filled to
// the last byte, in a mount namespace of the service's own (see testing/serviceChild.ts).
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { englishText, type Message } from '../../engine/messages';
import type { ShoeEvent } from '../../hardware/events';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import '../../hardware/testing/saidInEnglish';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { findingText } from '../../journal/findings';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';
import { bundleServiceProcess, canMountPrivateTmpfs, ServiceChild } from './testing/serviceChild';

const clock = () => new Date('2026-11-29T12:00:00Z');
const services: ConsoleService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

async function serviceIn(dataDir: string, serial = false): Promise<ConsoleService> {
  const service = await ConsoleService.start({ dataDir, clock, ...(serial ? { cardSources: serialCardSources } : {}) });
  services.push(service);
  return service;
}

async function restart(service: ConsoleService, dataDir: string): Promise<ConsoleService> {
  services.splice(services.indexOf(service), 1);
  await service.close();
  return serviceIn(dataDir);
}

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const table = (changes: object): ConsoleSettings => ({ ...TABLE, table: { ...TABLE.table, ...changes } });
const source = (changes: object): ConsoleSettings => ({ ...TABLE, source: { ...TABLE.source, ...changes } });

/** What is recorded (as opposed to passing, like the last input): it must survive everything. */
function recorded(state: ConsoleState) {
  return { settings: state.settings, race: state.race, history: state.history, game: state.game, games: state.games };
}

function journalOf(dataDir: string): string[] {
  const path = join(dataDir, 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((line) => line !== '') : [];
}

type When = 'no race' | 'race open' | 'race complete';

/** A console with the worked example's table, and a race at the given point. */
async function consoleAt(when: When, dataDir = mkdtempSync(join(tmpdir(), 'bad-input-'))): Promise<{ service: ConsoleService; dataDir: string }> {
  const service = await serviceIn(dataDir);
  expect(await service.saveSettings(TABLE)).toEqual({ ok: true, value: null });
  if (when !== 'no race') {
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    for (const card of when === 'race open' ? CARDS.slice(0, 1) : CARDS) expect(await service.dealCard('race-1', card)).toEqual({ ok: true, value: null });
  }
  return { service, dataDir };
}

const CARD_HELP = 'is not a card; write rank then suit, e.g. "As", "10h", "Td", "K♠"';
const SERIAL_HELP = 'must be the full path of the port, starting with /, e.g. /dev/ttyUSB0 or /dev/serial/by-id/…';

/** [what, when, method, args, field, exact message, whether the refusal is journaled as evidence]. */
type CommandRow = [string, When, string, unknown, string, string, boolean?];

const COMMANDS: CommandRow[] = [
  // The table setup (settings screen).
  ['settings that are not an object', 'no race', 'saveSettings', ['settings'], 'settings', 'must be an object'],
  ['no table at all', 'no race', 'saveSettings', [{ ...TABLE, table: undefined }], 'table', 'must be an object'],
  ['no seats', 'no race', 'saveSettings', [table({ seats: [] })], 'table.seats', 'must list 1 to 10 seats'],
  ['eleven seats', 'no race', 'saveSettings', [table({ seats: Array.from({ length: 11 }, (_, index) => ({ seat: index + 1, name: '' })) })], 'table.seats', 'must list 1 to 10 seats'],
  ['a seat that is not an object', 'no race', 'saveSettings', [table({ seats: ['Matti'] })], 'table.seats[0]', 'must be an object'],
  ['seat number 11', 'no race', 'saveSettings', [table({ seats: [{ seat: 11, name: '' }] })], 'table.seats[0].seat', 'must be a whole number from 1 to 10 (got 11)'],
  ['the same seat twice', 'no race', 'saveSettings', [table({ seats: [{ seat: 1, name: 'Matti' }, { seat: 1, name: 'Teppo' }] })], 'table.seats', 'seat 1 appears twice'],
  ['a name of 41 characters', 'no race', 'saveSettings', [table({ seats: [{ seat: 1, name: 'M'.repeat(41) }] })], 'table.seats[0].name', 'at most 40 characters'],
  ['a name that is not text', 'no race', 'saveSettings', [table({ seats: [{ seat: 1, name: 42 }] })], 'table.seats[0].name', 'must be text'],
  ['a dealer name of 41 characters', 'no race', 'saveSettings', [table({ dealer: 'D'.repeat(41) })], 'table.dealer', 'at most 40 characters'],
  ['the button on seat 0', 'no race', 'saveSettings', [table({ button: 0 })], 'table.button', 'must be a whole number from 1 to 10 (got 0)'],
  ['a chip set of one denomination', 'no race', 'saveSettings', [table({ chipSet: [25] })], 'table.chipSet', 'must list 2 to 12 denominations'],
  ['a chip set out of order', 'no race', 'saveSettings', [table({ chipSet: [100, 25] })], 'table.chipSet', 'must be in ascending order without repeats'],
  ['a fractional denomination', 'no race', 'saveSettings', [table({ chipSet: [25, 100.5] })], 'table.chipSet[1]', 'must be a whole number from 1 to 100000000 (got 100.5)'],
  ['a denomination typed as text', 'no race', 'saveSettings', [table({ chipSet: [25, '100'] })], 'table.chipSet[1]', 'must be a whole number from 1 to 100000000 (got "100")'],
  ['a leaving chip not in the set', 'no race', 'saveSettings', [table({ removed: 50 })], 'table.removed', '50 is not in the chip set'],
  ['a next chip not larger', 'no race', 'saveSettings', [table({ next: 25 })], 'table.next', 'must be a chip of the set larger than 25'],
  ['a next chip not a multiple', 'no race', 'saveSettings', [table({ chipSet: [25, 110], next: 110 })], 'table.next', '110 is not a whole multiple of 25'],
  ['an unknown rule set', 'no race', 'saveSettings', [table({ rules: 'house' })], 'table.rules', 'choose one of classic, tda, roberts, round (got "house")'],
  ['no decks', 'no race', 'saveSettings', [table({ decks: 0 })], 'table.decks', 'must be a whole number from 1 to 8 (got 0)'],
  ['nine decks', 'no race', 'saveSettings', [table({ decks: 9 })], 'table.decks', 'must be a whole number from 1 to 8 (got 9)'],
  ['an unknown card source', 'no race', 'saveSettings', [source({ kind: 'bluetooth' })], 'source.kind', 'choose one of manual, serial, simulator (got "bluetooth")'],
  ['baud rate 0', 'no race', 'saveSettings', [source({ baud: 0 })], 'source.baud', 'must be a whole number from 50 to 4000000 (got 0)'],
  ['an unknown device profile', 'no race', 'saveSettings', [source({ decoder: 'morse' })], 'source.decoder', 'there is no device profile "morse": choose a built-in one, or import the profile file first'],
  ['a device profile name of no shape', 'no race', 'saveSettings', [source({ decoder: '../etc/passwd' })], 'source.decoder', 'choose one of text, suit-number, index1, index0, stx-text, stx-sum, barcode, rfid, or a profile imported in the settings (got "../etc/passwd")'],
  ['9 data bits', 'no race', 'saveSettings', [source({ dataBits: 9 })], 'source.dataBits', 'must be 5, 6, 7 or 8 (got 9)'],
  ['a parity of no kind', 'no race', 'saveSettings', [source({ parity: 'evn' })], 'source.parity', 'choose one of none, even, odd, mark, space (got "evn")'],
  ['a repeat window of an hour', 'no race', 'saveSettings', [source({ repeatMs: 3_600_000 })], 'source.repeatMs', 'must be a whole number from 0 to 60000 (got 3600000)'],
  ['a device profile that is no profile', 'no race', 'importProfile', [{ name: 'x', framing: { kind: 'morse' } }], 'profile.framing.kind', 'unknown framing "morse"; choose lines, stx-etx, silence or binary'],
  ['a device profile named as a built-in one', 'no race', 'importProfile', [{ name: 'rfid', framing: { kind: 'lines' }, decoder: { kind: 'uid' } }], 'profile.name', '"rfid" is the name of a built-in profile: give yours another'],
  ['registering a deck without a reader', 'no race', 'registerDeck', ['deck-1'], 'source', 'register the deck with the reader connected: choose the serial card source and its port first'],
  ['a port path of 4097 characters', 'no race', 'saveSettings', [source({ path: '/'.repeat(4097) })], 'source.path', 'at most 4096 characters'],
  ['a serial port by its bare name', 'no race', 'saveSettings', [source({ kind: 'serial', path: 'ttyUSB0' })], 'source.path', `${SERIAL_HELP} (got "ttyUSB0")`],
  ['a serial port path from here', 'no race', 'saveSettings', [source({ kind: 'serial', path: './x' })], 'source.path', `${SERIAL_HELP} (got "./x")`],
  ['a serial port path from the folder above', 'no race', 'saveSettings', [source({ kind: 'serial', path: '../dev/ttyS0' })], 'source.path', `${SERIAL_HELP} (got "../dev/ttyS0")`],
  ['an unknown language', 'no race', 'saveSettings', [{ ...TABLE, language: 'de' }], 'language', 'choose one of en, fi, ru (got "de")'],
  // Chip counts (counts screen).
  ['counts that are not a list', 'no race', 'startRace', [{}], 'counts', 'must list 1 to 10 seats'],
  ['no counts', 'no race', 'startRace', [[]], 'counts', 'must list 1 to 10 seats'],
  ['a count that is not an object', 'no race', 'startRace', [[null]], 'counts[0]', 'must be an object'],
  ['a negative chip count', 'no race', 'startRace', [[{ seat: 1, chips: -1, hasOther: true }]], 'counts[0].chips', 'seat 1: the chip count must be a whole number from 0 to 100000'],
  ['a fractional chip count', 'no race', 'previewRace', [[{ seat: 1, chips: 2.5, hasOther: true }]], 'counts[0].chips', 'seat 1: the chip count must be a whole number from 0 to 100000'],
  ['a chip count over 100000', 'no race', 'startRace', [[{ seat: 1, chips: 100001, hasOther: true }]], 'counts[0].chips', 'seat 1: the chip count must be a whole number from 0 to 100000'],
  ['a chip count typed as text', 'no race', 'startRace', [[{ seat: 1, chips: '7', hasOther: true }]], 'counts[0].chips', 'seat 1: the chip count must be a whole number from 0 to 100000'],
  ['seat 0', 'no race', 'startRace', [[{ seat: 0, chips: 7, hasOther: true }]], 'counts[0].seat', 'must be a seat from 1 to 10'],
  ['a seat counted twice', 'no race', 'startRace', [[{ seat: 1, chips: 7, hasOther: true }, { seat: 1, chips: 2, hasOther: true }]], 'counts[1].seat', 'seat 1 appears twice'],
  ['a seat not at the table', 'no race', 'startRace', [[{ seat: 4, chips: 7, hasOther: true }]], 'counts[0].seat', 'seat 4 is not at the table (seats 1, 2, 3): add it in the settings first'],
  ['other chips not said', 'no race', 'startRace', [[{ seat: 1, chips: 7 }]], 'counts[0].hasOther', 'must be true or false'],
  ['a race while one is open', 'race open', 'startRace', [COUNTS], 'race', 'race race-1 is still open: confirm or abandon it first'],
  // Cards and corrections (dealing screen, keyboard and card grid).
  ['a card with no race open', 'no race', 'dealCard', ['race-1', 'As'], 'race', 'no race is open: start one from the counts screen'],
  ['a code that is no card', 'race open', 'dealCard', ['race-1', '1x'], 'card', `"1x" ${CARD_HELP}`, true],
  ['an empty card', 'race open', 'dealCard', ['race-1', ''], 'card', `"" ${CARD_HELP}`, true],
  ['a card of spaces', 'race open', 'dealCard', ['race-1', '  '], 'card', `"  " ${CARD_HELP}`, true],
  ['a card with two suits', 'race open', 'dealCard', ['race-1', 'A♠♠'], 'card', `"A♠♠" ${CARD_HELP}`, true],
  ['a card dealt twice from one deck', 'race open', 'dealCard', ['race-1', 'ah'], 'card', 'Ah was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card', true],
  ['a card more than the race needs', 'race complete', 'dealCard', ['race-1', '2c'], 'card', '2c is one card more than the race needs: the race is complete (void a card first to correct one)', true],
  ['a card that is not text', 'race open', 'dealCard', ['race-1', 42], 'card', 'must be text'],
  ['a card of 33 characters', 'race open', 'dealCard', ['race-1', 'A'.repeat(33)], 'card', 'at most 32 characters'],
  ['no card at all', 'race open', 'dealCard', ['race-1'], 'card', 'must be text'],
  ['a card for a race that is not open (a stale screen)', 'race open', 'dealCard', ['race-7', 'Kc'], 'race', 'race-7 is not open (race-1 is): this screen was out of date, so the card was not dealt; look again before you repeat it'],
  ['a card that names no race', 'race open', 'dealCard', ['Kc'], 'target', 'must name the race or game it is for (race-N or game-N): this screen may be out of date; reload it'],
  ['voiding no cards', 'race open', 'voidCards', ['race-1', 0, 'misread'], 'count', 'the number of cards to void must be a whole number of at least 1'],
  ['voiding more cards than dealt', 'race open', 'voidCards', ['race-1', 5, 'misread'], 'count', 'cannot void 5 cards: only 1 dealt', true],
  ['voiding with no race open', 'no race', 'voidCards', ['race-1', 1, 'misread'], 'race', 'no race is open: start one from the counts screen'],
  ['voiding in a race that is not open (a stale screen)', 'race open', 'voidCards', ['race-2', 1, 'misread'], 'race', 'race-2 is not the open race (race-1 is): this screen was out of date, so nothing was done; look again before you repeat it'],
  ['a void reason of 201 characters', 'race open', 'voidCards', ['race-1', 1, 'r'.repeat(201)], 'reason', 'at most 200 characters'],
  ['confirming a race not complete', 'race open', 'confirmRace', ['race-1'], 'race', 'race race-1 is not complete yet: Deal 2 cards to seat 1 — Matti'],
  ['confirming with no race open', 'no race', 'confirmRace', ['race-1'], 'race', 'no race is open'],
  ['confirming another race (a stale screen)', 'race complete', 'confirmRace', ['race-3'], 'race', 'race-3 is not the open race (race-1 is): this screen was out of date, so nothing was done; look again before you repeat it'],
  ['abandoning with no race open', 'no race', 'abandonRace', ['race-1', 'wrong table'], 'race', 'no race is open'],
  ['abandoning another race (a stale screen)', 'race open', 'abandonRace', ['race-2', 'wrong table'], 'race', 'race-2 is not the open race (race-1 is): this screen was out of date, so nothing was done; look again before you repeat it'],
  ['an abandon reason that is not text', 'race open', 'abandonRace', ['race-1', {}], 'reason', 'must be text'],
  ['abandoning without a reason', 'race open', 'abandonRace', ['race-1'], 'reason', 'say why the race is abandoned: a reason is needed for the record'],
  ['abandoning with a blank reason', 'race open', 'abandonRace', ['race-1', ' \t '], 'reason', 'say why the race is abandoned: a reason is needed for the record'],
  ['an abandon reason of 201 characters', 'race open', 'abandonRace', ['race-1', 'r'.repeat(201)], 'reason', 'at most 200 characters'],
  ['taking a held card when none waits', 'race open', 'takeHeldCard', ['race-1', 1], 'held', 'no card is waiting for your say'],
  ['a history page of no races', 'no race', 'historyPage', [null, 0], 'count', 'must be a whole number from 1 to 100'],
  ['the record of a race never started', 'no race', 'raceRecord', ['race-4'], 'race', 'race-4 is not in the journal'],
  ['exporting as xml', 'no race', 'exportHistory', ['xml'], 'format', 'must be csv or json'],
  // Calls no screen makes (a compromised or buggy page).
  ['an unknown command', 'race open', 'deleteEverything', [], 'method', 'unknown command "deleteEverything"'],
  ['a prototype name as command', 'race open', '__proto__', [], 'method', 'unknown command "__proto__"'],
  ['arguments that are not a list', 'race open', 'dealCard', 'As', 'args', 'must be a list'],
  ['too many arguments', 'race open', 'getState', [1], 'args', 'getState takes 0 arguments, got 1'],
];

describe('bad input catalogue', () => {
  describe('commands from the screens: refused with a message naming the field; nothing recorded changes', () => {
    it.each(COMMANDS)('%s (%s)', async (_what, when, method, args, field, message, journaled = false) => {
      const { service, dataDir } = await consoleAt(when);
      const before = recorded(service.getState());
      const linesBefore = journalOf(dataDir);
      const result = (await dispatch(service, method, args)) as { ok: false; error: { field: string; message: string; said?: Message } };
      const { said, ...error } = result.error;
      expect({ ...result, error }).toEqual({ ok: false, error: { field, message } });
      // Every refusal is said as a key (engine/messages) and reads, in English, exactly as its message,
      // a device profile's (hardware/ reads it) too.
      expect(said, `${field}: ${message}`).toBeDefined();
      if (said !== undefined) expect(englishText(said)).toBe(message);
      expect(recorded(service.getState())).toEqual(before);
      // The journal is unchanged, except that a refused card or correction is kept as evidence.
      const added = journalOf(dataDir).slice(linesBefore.length).map((line) => JSON.parse(line).record);
      expect(added).toEqual(journaled ? [{ kind: 'refused', raceId: 'race-1', input: expect.any(String), reason: message, source: 'manual' }] : []);
      // Still working, and the same after a restart.
      const again = await restart(service, dataDir);
      expect(recorded(again.getState())).toEqual(before);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
      if (when === 'race open') expect(await again.dealCard('race-1', 'Kc')).toEqual({ ok: true, value: null });
    });
  });

  describe('serial noise from the shoe: shown as read, never guessed into a card, never crashing', () => {
    let pair: PtyPair;
    beforeAll(async () => {
      pair = await PtyPair.create('bad-input');
    });
    afterAll(async () => {
      await pair?.dispose();
    });

    /** [what, bytes sent, the events the dealer is shown, in order]. */
    const NOISE: Array<[string, string | Buffer, unknown[]]> = [
      ['a code that is no card', 'A?\r\n', [{ type: 'unknown', raw: 'A?', reason: 'not a card code' }]],
      ['a card in a language the decoder does not read', 'Ässä\n', [{ type: 'unknown', raw: 'Ässä', reason: 'not a card code' }]],
      ['control characters around a card', '\x07Kd\x07\r\n', [{ type: 'unknown', raw: '\x07Kd\x07', reason: 'not a card code' }]],
      ['blank lines, then a card', '\r\n\n\r\nKc\r\n', [{ type: 'card', card: 'Kc', raw: 'Kc' }]],
      ['the same card again (a misread)', 'KC\r\n', [{ type: 'card', card: 'Kc', raw: 'KC' }]],
      ['a line of 300 bytes', `${'A'.repeat(300)}\n`, [{ type: 'unknown', raw: 'A'.repeat(257), reason: 'no line end after 256 bytes' }, { type: 'unknown', raw: 'A'.repeat(43), reason: 'not a card code' }]],
      ['a device message', 'EMPTY\r\n', [{ type: 'device', message: 'shoe-empty', raw: 'EMPTY' }]],
      ['bytes at the wrong baud rate', Buffer.from('f8 80 fe 0a e6 98 1c 0a 80 80 f0 0a'.replace(/ /g, ''), 'hex'), [
        { type: 'unknown', raw: '\\xf8\\x80\\xfe', reason: 'not UTF-8 text' },
        { type: 'unknown', raw: '\\xe6\\x98\\x1c', reason: 'not UTF-8 text' },
        { type: 'unknown', raw: '\\x80\\x80\\xf0', reason: 'not UTF-8 text' },
      ]],
    ];

    it('every kind of noise, in one dealing session over a real port', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'bad-input-serial-'));
      const service = await serviceIn(dataDir, true);
      const shown: ShoeEvent[] = [];
      service.onState((state) => {
        if (state.lastInput !== null && JSON.stringify(state.lastInput) !== JSON.stringify(shown.at(-1))) shown.push(state.lastInput);
      });
      expect(await service.saveSettings({ ...TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } })).toEqual({ ok: true, value: null });
      expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
      expect(await service.dealCard('race-1', 'Ah')).toEqual({ ok: true, value: null });
      await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
      const shoe = await PtyWriter.open(pair.a);
      try {
        for (const [what, bytes, events] of NOISE) {
          const from = shown.length;
          await shoe.write(bytes);
          await waitFor(() => shown.length >= from + events.length, `${what}: ${events.length} event(s)`).catch(() => undefined);
          expect(shown.slice(from), what).toEqual(events);
          // A read that is no card is the headline's refusal until the next read (issue 24), in keys for the dealer's language.
          const last = events.at(-1) as ShoeEvent | undefined;
          if (last?.type === 'unknown') {
            await waitFor(() => service.getState().shoeRefusal?.card === last.raw, `${what}: said as refused`);
            expect(service.getState().shoeRefusal, what).toMatchObject({ card: last.raw, field: 'card', message: last.reason, said: { key: expect.any(String) } });
          }
        }
      } finally {
        await shoe.close();
      }
      // Three undecodable frames in a row: the likely cause is named.
      expect(service.getState().source).toMatchObject({
        state: 'error', code: 'wrong-baud',
        message: 'The device sends bytes that decode to nothing: check the baud rate (set to 9600), the parity and data bits (none, 8) and the decoder (text)',
      });
      // Of all that, only the one real new card reached the race; the misread and every read that is
      // no card were refused and kept as evidence (issue 24), a line too long for a record cut to fit.
      // The reads' records are written in turn with the commands: one more command has them all.
      await service.historyPage(null, 1);
      const race = service.getState().race;
      expect(race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
      const unreadable = (input: string, reason: string) => ({ kind: 'refused', raceId: 'race-1', input, reason, source: 'shoe' });
      expect(journalOf(dataDir).map((line) => JSON.parse(line).record).filter((record) => record?.kind === 'refused' || record?.kind === 'refused-again')).toEqual([
        unreadable('A?', 'not a card code'),
        unreadable('Ässä', 'not a card code'),
        unreadable('\x07Kd\x07', 'not a card code'),
        { kind: 'refused', raceId: 'race-1', input: 'Kc', reason: 'Kc was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card', source: 'shoe' },
        unreadable(`${'A'.repeat(255)}…`, 'no line end after 256 bytes'),
        unreadable('A'.repeat(43), 'not a card code'),
        unreadable('\\xf8\\x80\\xfe', 'not UTF-8 text'),
        unreadable('\\xe6\\x98\\x1c', 'not UTF-8 text'),
        unreadable('\\x80\\x80\\xf0', 'not UTF-8 text'),
      ]);
      const again = await restart(service, dataDir);
      expect(again.getState().race).toEqual(race);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
    }, 20_000);
  });

  describe('a damaged settings file: the defaults, a problem saying so, the old file kept; the journal untouched', () => {
    const jsonError = (text: string): string => {
      try {
        JSON.parse(text);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    const saved = `${JSON.stringify(TABLE, null, 2)}\n`;
    const damaged = (why: string) => `settings file was damaged (${why}); defaults are used and the old file was kept as settings.json.bad`;

    const SETTINGS_FILES: Array<[string, string, string]> = [
      ['cut off half-way by a crash in an older version', saved.slice(0, saved.length / 2), damaged(jsonError(saved.slice(0, saved.length / 2)))],
      ['empty', '', damaged(jsonError(''))],
      ['zeros (a power cut on some filesystems)', '\0'.repeat(64), damaged(jsonError('\0'.repeat(64)))],
      ['edited by hand into something else', '[1, 2, 3]', damaged('settings: must be an object')],
      ['edited by hand with a bad value', saved.replace('"decks": 1', '"decks": 0'), damaged('table.decks: must be a whole number from 1 to 8 (got 0)')],
    ];

    it.each(SETTINGS_FILES)('%s', async (_what, content, problem) => {
      const { service, dataDir } = await consoleAt('race open');
      const race = service.getState().race;
      services.splice(services.indexOf(service), 1);
      await service.close();
      writeFileSync(join(dataDir, 'settings.json'), content);
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([problem]);
      expect(again.getState().settings).toEqual(DEFAULT_SETTINGS);
      expect(again.getState().race).toEqual(race);
      expect(readFileSync(join(dataDir, 'settings.json.bad'), 'utf8')).toBe(content);
      // Saving the settings again repairs it for good.
      expect(await again.saveSettings(TABLE)).toEqual({ ok: true, value: null });
      const repaired = await restart(again, dataDir);
      expect(repaired.getState().journal.findings.map(findingText)).toEqual([]);
      expect(repaired.getState().settings).toEqual(TABLE);
    });

    it('damaged twice in a row: both old files kept, the second beside the first', async () => {
      const { service, dataDir } = await consoleAt('race open');
      const race = service.getState().race;
      services.splice(services.indexOf(service), 1);
      await service.close();
      writeFileSync(join(dataDir, 'settings.json'), '[1, 2, 3]');
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([damaged('settings: must be an object')]);
      services.splice(services.indexOf(again), 1);
      await again.close();
      writeFileSync(join(dataDir, 'settings.json'), saved.replace('"decks": 1', '"decks": 0'));
      const third = await serviceIn(dataDir);
      expect(third.getState().journal.findings.map(findingText)).toEqual([
        'settings file was damaged (table.decks: must be a whole number from 1 to 8 (got 0)); defaults are used and the old file was kept as settings.json.bad-2',
      ]);
      expect(third.getState().settings).toEqual(DEFAULT_SETTINGS);
      expect(third.getState().race).toEqual(race);
      expect(readFileSync(join(dataDir, 'settings.json.bad'), 'utf8')).toBe('[1, 2, 3]');
      expect(readFileSync(join(dataDir, 'settings.json.bad-2'), 'utf8')).toBe(saved.replace('"decks": 1', '"decks": 0'));
    });

    it('a byte-order mark before the text (Notepad) is no damage: the settings read as saved', async () => {
      const { service, dataDir } = await consoleAt('race open');
      services.splice(services.indexOf(service), 1);
      await service.close();
      writeFileSync(join(dataDir, 'settings.json'), `\uFEFF${saved}`);
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
      expect(again.getState().settings).toEqual(TABLE);
      expect(existsSync(join(dataDir, 'settings.json.bad'))).toBe(false);
    });

    it('a relative serial port path in the file (edited by hand): damage, the file kept', async () => {
      const { service, dataDir } = await consoleAt('race open');
      services.splice(services.indexOf(service), 1);
      await service.close();
      const content = saved.replace('"kind": "manual"', '"kind": "serial"').replace('"path": ""', '"path": "ttyUSB0"');
      writeFileSync(join(dataDir, 'settings.json'), content);
      const again = await serviceIn(dataDir, true);
      expect(again.getState().journal.findings.map(findingText)).toEqual([damaged(`source.path: ${SERIAL_HELP} (got "ttyUSB0")`)]);
      expect(again.getState().settings).toEqual(DEFAULT_SETTINGS);
      expect(again.getState().source).toEqual({ kind: 'manual', path: '', state: 'idle' });
      expect(readFileSync(join(dataDir, 'settings.json.bad'), 'utf8')).toBe(content);
    });

    it('a settings path that cannot be read at all (a folder in its place)', async () => {
      const { service, dataDir } = await consoleAt('race open');
      const race = service.getState().race;
      services.splice(services.indexOf(service), 1);
      await service.close();
      rmSync(join(dataDir, 'settings.json'));
      mkdirSync(join(dataDir, 'settings.json'));
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual(['settings could not be read (EISDIR: illegal operation on a directory, read); defaults are used']);
      expect(again.getState().race).toEqual(race);
      expect(await again.saveSettings(TABLE)).toMatchObject({ ok: false, error: { field: 'settings', message: expect.stringMatching(/^could not save the settings: the disk refused the write \(EISDIR[^)]*\)\. The previous settings stay in use; check the disk, then try again\.$/) } });
      expect(again.getState().settings).toEqual(DEFAULT_SETTINGS);
      expect(await again.dealCard('race-1', 'Kc')).toEqual({ ok: true, value: null });
    });
  });

  describe('a journal damaged in the middle: the bad record reported (and skipped when it cannot be used), every other record kept', () => {
    const ALTERED = 'record 3 was changed after it was written: its seal does not match its content';
    const DAMAGED = 'record 3 was damaged at the station (line 4 is not a readable record: bad bytes, not a change by hand); it was skipped and stays in the file as evidence, and the records after it are checked again from the next one';
    /** [what, how line 4 (record 3: the second card) is damaged, the problems reported]. */
    const DAMAGE: Array<[string, (line: string) => string, string[]]> = [
      // Among the sealed records, a line that is no record is damage at the station (a failing
      // disk, a crash), shown as such: the chain is checked again from the record after it.
      ['garbage in place of a record', () => '#$%garbage%$#', [DAMAGED]],
      ['a record cut short', (line) => line.slice(0, 30), [DAMAGED]],
      ['zeros in place of a record', (line) => '\0'.repeat(line.length), [DAMAGED]],
      ['JSON that is no journal line', () => '{"hello":"world"}', [DAMAGED]],
      ['a record of an unknown kind (edited by hand)', (line) => line.replace('"kind":"race-event"', '"kind":"race-teleport"'), [`${ALTERED}; it was skipped`]],
      ['a record that does not fit the race', (line) => line.replace('"card":"Kc"', '"card":"Ah"'), [ALTERED, 'record 3 (race-event) could not be applied and was skipped: card: Ah was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card']],
      ['a record of a race that never started', (line) => line.replaceAll('race-1', 'race-9'), [ALTERED, 'record 3 (race-event) could not be applied and was skipped: race-event for a race that is not open']],
    ];

    it.each(DAMAGE)('%s', async (_what, damage, problems) => {
      const { service, dataDir } = await consoleAt('race open');
      for (const card of CARDS.slice(1, 4)) expect(await service.dealCard('race-1', card)).toEqual({ ok: true, value: null });
      services.splice(services.indexOf(service), 1);
      await service.close();
      const path = join(dataDir, 'journal.jsonl');
      const lines = journalOf(dataDir);
      expect(lines[3]).toContain('"card":"Kc"');
      writeFileSync(path, `${lines.map((line, index) => (index === 3 ? damage(line) : line)).join('\n')}\n`);
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual(problems);
      // Every other record replayed: the race is there with the other cards, in order.
      expect(again.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', '2d', 'Ts']);
      // The damaged line stays in the file as evidence, and new records append after it.
      expect(readFileSync(path, 'utf8').split('\n')[3]).toBe(damage(lines[3] as string));
      expect(await again.dealCard('race-1', 'Kc')).toEqual({ ok: true, value: null });
      const third = await restart(again, dataDir);
      expect(third.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', '2d', 'Ts', 'Kc']);
      expect(third.getState().journal.findings.map(findingText)).toEqual(problems);
    });

    it('a journal that ends without its newline after a crash is the torn-tail case (crash.test.ts); a blank line is simply ignored', async () => {
      const { service, dataDir } = await consoleAt('race open');
      services.splice(services.indexOf(service), 1);
      await service.close();
      appendFileSync(join(dataDir, 'journal.jsonl'), '\n\n');
      const again = await serviceIn(dataDir);
      expect(again.getState().journal.findings.map(findingText)).toEqual([]);
      expect(await again.dealCard('race-1', 'Kc')).toEqual({ ok: true, value: null });
    });
  });

  describe('a full disk on write: the command gets "could not save", and memory stays what the disk holds', () => {
    let bundle: Awaited<ReturnType<typeof bundleServiceProcess>>;
    beforeAll(async () => {
      // A real full disk needs a filesystem small enough to fill: a tmpfs in a mount namespace
      // of the child's own (root, or an unprivileged user namespace). Fail, never skip, without one.
      expect(canMountPrivateTmpfs(), 'unshare cannot mount a private tmpfs here: the full-disk test needs root or unprivileged user namespaces').toBe(true);
      bundle = await bundleServiceProcess();
    }, 60_000);
    afterAll(() => bundle?.dispose());

    const FULL = 'could not save: the disk is full (ENOSPC). Nothing was recorded; free some disk space, then try again.';
    const SETTINGS_FULL = 'could not save the settings: the disk is full (ENOSPC). The previous settings stay in use; free some disk space, then try again.';

    it('settings, cards, corrections, confirmations: each refused whole, none half-written, all fine once space is freed', async () => {
      const mount = mkdtempSync(join(tmpdir(), 'bad-input-full-'));
      const child = new ServiceChild(bundle.path, mount, { tmpfsBytes: 64 * 1024 });
      await child.started;
      const okay = { ok: true, value: null };
      const seats = Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: `P${index + 1}` }));
      const bigTable = { ...TABLE, table: { ...TABLE.table, seats, button: 10 } };
      // Ten seats of three odd chips: 30 cards, enough to use up the last page the journal has.
      const counts = seats.map(({ seat }) => ({ seat, chips: 3, hasOther: true }));
      const shoe = ['As', 'Ks', 'Qs', 'Js', 'Ts', '9s', '8s', '7s', '6s', '5s', '4s', '3s', '2s', 'Ah', 'Kh', 'Qh', 'Jh', 'Th', '9h', '8h', '7h', '6h', '5h', '4h', '3h', '2h', 'Ad', 'Kd', 'Qd', 'Jd'];
      expect(await child.request('saveSettings', bigTable)).toEqual(okay);
      expect(await child.request('startRace', counts)).toEqual(okay);
      expect(await child.request('dealCard', 'race-1', shoe[0])).toEqual(okay);
      expect(await child.request('test:fill')).toBeGreaterThan(0);

      expect(await child.request('saveSettings', { ...bigTable, language: 'fi' })).toMatchObject({ ok: false, error: { field: 'settings', message: SETTINGS_FULL, said: { key: 'service.save.settingsFull', params: { code: 'ENOSPC' } } } });
      // Cards still fit in the journal's last, partly used page; deal until the disk refuses one.
      let dealt = 1;
      let refusal: unknown = okay;
      while (dealt < shoe.length) {
        refusal = await child.request('dealCard', 'race-1', shoe[dealt]);
        if (JSON.stringify(refusal) !== JSON.stringify(okay)) break;
        dealt += 1;
      }
      expect(refusal, `the disk filled up within ${shoe.length} cards`).toMatchObject({ ok: false, error: { field: 'journal', message: FULL, said: { key: 'service.save.journalFull', params: { code: 'ENOSPC' } } } });
      const memory = child.acks.at(-1) as ConsoleState;
      expect(memory.race?.summary.cards).toHaveLength(dealt);
      expect(memory.settings.language).toBe('en');
      // Everything else that writes is refused the same way, with nothing changed.
      expect(await child.request('voidCards', 'race-1', 1, 'misread')).toMatchObject({ ok: false, error: { field: 'journal', message: FULL, said: { key: 'service.save.journalFull', params: { code: 'ENOSPC' } } } });
      expect(await child.request('abandonRace', 'race-1', 'table closed')).toMatchObject({ ok: false, error: { field: 'journal', message: FULL, said: { key: 'service.save.journalFull', params: { code: 'ENOSPC' } } } });
      expect(await child.request('dealCard', 'race-1', 'As')).toMatchObject({ ok: false, error: { field: 'journal', message: FULL, said: { key: 'service.save.journalFull', params: { code: 'ENOSPC' } } } });
      expect(recorded((await child.request('getState')) as ConsoleState)).toEqual(recorded(memory));

      // What is in memory is exactly what is on disk: a restart (still on the full disk) reads it back, with no torn record.
      const reread = (await child.request('test:restart')) as ConsoleState;
      expect(reread.journal.findings.map(findingText)).toEqual([]);
      expect(recorded(reread)).toEqual(recorded(memory));

      // Space freed: the refused card and the settings go through, and survive a restart.
      expect(await child.request('test:free')).toBeNull();
      expect(await child.request('dealCard', 'race-1', shoe[dealt])).toEqual(okay);
      expect(await child.request('saveSettings', { ...bigTable, language: 'fi' })).toEqual(okay);
      const after = (await child.request('test:restart')) as ConsoleState;
      expect(after.journal.findings.map(findingText)).toEqual([]);
      expect(after.race?.summary.cards.map((card) => card.card)).toEqual(shoe.slice(0, dealt + 1));
      expect(after.settings.language).toBe('fi');
      await child.stop();
      expect(child.stderr).toBe('');
      expect(child.lines.some((line) => line.type === 'result' && typeof line.result === 'object' && line.result !== null && 'thrown' in line.result)).toBe(false);
    }, 30_000);

    it('a torn last line on a full disk: no room for its copy, so it is kept in place, ended by the next record; nothing else lost', async () => {
      const mount = mkdtempSync(join(tmpdir(), 'bad-input-full-torn-'));
      const child = new ServiceChild(bundle.path, mount, { tmpfsBytes: 64 * 1024 });
      await child.started;
      const okay = { ok: true, value: null };
      expect(await child.request('saveSettings', TABLE)).toEqual(okay);
      expect(await child.request('startRace', COUNTS)).toEqual(okay);
      expect(await child.request('dealCard', 'race-1', 'Ah')).toEqual(okay);
      expect(await child.request('test:tear')).toBeNull();
      expect(await child.request('test:fill')).toBeGreaterThan(0);
      const torn = (await child.request('test:start')) as ConsoleState;
      // The torn line is the next record's (seq 4), cut off as a crash inside its write would leave it.
      expect(torn.journal.findings).toEqual([{ code: 'torn-tail', bytes: 66, savedAs: null }]);
      expect(torn.race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
      // The journal's last page may still have room for a record; if not, the card waits for space.
      const first = await child.request('dealCard', 'race-1', 'Kc');
      if (JSON.stringify(first) !== JSON.stringify(okay)) expect(first).toMatchObject({ ok: false, error: { field: 'journal', message: FULL, said: { key: 'service.save.journalFull', params: { code: 'ENOSPC' } } } });
      expect(await child.request('test:free')).toBeNull();
      if (JSON.stringify(first) !== JSON.stringify(okay)) expect(await child.request('dealCard', 'race-1', 'Kc')).toEqual(okay);
      const after = (await child.request('test:restart')) as ConsoleState;
      // The torn bytes are now a line of their own (unreadable, reported); every record is there.
      expect(after.journal.findings.map(findingText)).toEqual([expect.stringMatching(/^line \d+ is not valid JSON and was skipped$/)]);
      expect(after.race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
      await child.stop();
      expect(child.stderr).toBe('');
    }, 30_000);
  });
});
