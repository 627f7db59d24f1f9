// The console's own refusals speak in keys, as the engine's do: every refusal of the service, of the
// settings checks and of the argument checks a call goes through carries `said` (a Message), whose
// keys have a template in English, Finnish and Russian, and whose English is the refusal's message.
// Each row provokes one refusal through ConsoleService (or dispatch, or the settings reader); a last
// check proves every key of the service.*, settings.* and command.* families is provoked here.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError, isInputError } from '../../engine/errors';
import { ENGINE_CATALOGS, englishText, formatMessage, type Catalog, type Message, type MessageKey } from '../../engine/messages';
import { en } from '../../engine/messages/en';
import { expectSaid } from '../../engine/messages/testing';
import type { StructureInput } from '../../engine/plan/csv';
import type { ChipExchange } from '../../engine/race/exchange';
import type { ShoeEvent } from '../../hardware/events';
import { wallClock } from '../../protocol/colorUp';
import type { CommandError, CommandResult, ConsoleSettings } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { storedName } from './profiles';
import { ConsoleService } from './service';
import type { ServiceOptions } from './serviceOptions';
import { MAX_HELD_CARDS } from './cardInputs';
import { DEFAULT_SETTINGS, readSettings } from './settings';

const clock = () => new Date('2026-11-29T12:00:00Z');
const services: ConsoleService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
const LATE_FOUND: ChipExchange = { reason: 'late-found', raceId: 'race-1', seat: null, removed: 25, count: 5, next: 100, note: '' };
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
/** A serial source reading tag IDs (rfid), on a port the fake card source below stands for. */
const RFID: ConsoleSettings = { ...TABLE, source: { ...TABLE.source, kind: 'serial', path: '/dev/ttyFAKE', decoder: 'rfid' } };
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 300, bb: 600, ante: 100 }, { sb: 500, bb: 1000 }, { break: 15 },
    { sb: 1000, bb: 2000 }, { sb: 2000, bb: 4000 },
  ],
};
const GAME = ['chicago', ['Anna', 'Ville']] as const;

interface Console {
  readonly service: ConsoleService;
  readonly dataDir: string;
  /** A shoe event from the (fake) serial card source. */
  readonly emit: (event: ShoeEvent) => void;
}

/** A console with the table saved; its serial card source is a fake whose events the test sends. */
async function consoleWith(settings: ConsoleSettings = TABLE, chooseExportFile?: ServiceOptions['chooseExportFile']): Promise<Console> {
  const dataDir = mkdtempSync(join(tmpdir(), 'said-'));
  let emit: (event: ShoeEvent) => void = () => undefined;
  const service = await ConsoleService.start({
    dataDir,
    clock,
    ...(chooseExportFile === undefined ? {} : { chooseExportFile }),
    cardSources: (_request, sink) => {
      emit = sink;
      return { stop: async () => undefined };
    },
  });
  services.push(service);
  expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
  return { service, dataDir, emit: (event) => emit(event) };
}

async function raceOpen(): Promise<Console> {
  const at = await consoleWith();
  expect(await at.service.startRace(COUNTS)).toEqual({ ok: true, value: null });
  return at;
}

async function gameOpen(): Promise<Console> {
  const at = await consoleWith();
  expect(await at.service.startGame(...GAME)).toEqual({ ok: true, value: null });
  return at;
}

async function onBreak(level: number): Promise<Console> {
  const at = await consoleWith();
  expect(await at.service.saveStructure(STRUCTURE)).toEqual({ ok: true, value: null });
  expect(await at.service.markBreak(level)).toEqual({ ok: true, value: null });
  return at;
}

/** A structure whose levels have minutes: the clock can run on it. */
const TIMED: StructureInput = { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { break: 10 }, { sb: 50, bb: 100, minutes: 20 }] };

async function timedClock(): Promise<ConsoleService> {
  const { service } = await consoleWith();
  expect(await service.saveStructure(TIMED)).toEqual({ ok: true, value: null });
  return service;
}

/** The service's answer to commands it settles in turn (held cards wait for the queue). */
const settled = async (service: ConsoleService) => service.listPorts();

/** The refusal a command answered, or that the settings reader threw. */
type Refusal = CommandError;

function refusalOf(result: unknown): Refusal {
  const answer = result as CommandResult<unknown>;
  if (answer.ok) throw new Error('the command was not refused');
  return answer.error;
}

function thrown(read: () => unknown): Refusal {
  try {
    read();
  } catch (error) {
    if (!isInputError(error)) throw error;
    return error.said === undefined ? { field: error.field, message: error.reason } : { field: error.field, message: error.reason, said: error.said };
  }
  throw new Error('nothing was refused');
}

/** Why a console with the floor CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE give does not start. */
async function floorStartRefusal(floor: { url: string; table: string }): Promise<Refusal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'said-floor-'));
  try {
    const service = await ConsoleService.start({ dataDir, clock, floor });
    services.push(service);
  } catch (error) {
    return thrown(() => {
      throw error;
    });
  }
  throw new Error('the console started');
}

/** [the key said, how it is provoked, the exact English message]. */
type Row = [string, () => Promise<Refusal> | Refusal, string];

const STALE = 'this screen was out of date, so nothing was done; look again';

/** A console whose card source reads an RFID table with its own stored profile (a reader per seat, issue 26). */
async function onTable(): Promise<ConsoleService> {
  const { service } = await consoleWith(RFID);
  expect(await service.importProfile({ name: 'table-4', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>.+)$' } })).toMatchObject({ ok: true });
  expect(await service.saveSettings({ ...RFID, source: { ...RFID.source, decoder: 'table-4' } })).toEqual({ ok: true, value: null });
  return service;
}

const ROWS: Row[] = [
  // ConsoleService's own refusals.
  ['service.seatNotAtTable', async () => refusalOf(await (await consoleWith()).service.startRace([{ seat: 4, chips: 7, hasOther: true }])), 'seat 4 is not at the table (seats 1, 2, 3): add it in the settings first'],
  ['service.noProfile', async () => refusalOf(await (await consoleWith()).service.saveSettings({ ...TABLE, source: { ...TABLE.source, decoder: 'morse' } })), 'there is no device profile "morse": choose a built-in one, or import the profile file first'],
  ['service.registering', async () => {
    const { service } = await consoleWith(RFID);
    expect(await service.registerDeck('deck-1')).toEqual({ ok: true, value: null });
    // Nothing that needs the reader's reads starts meanwhile (the set-up would take a race's cards).
    expect(refusalOf(await service.startRace(COUNTS)).field).toBe('registration');
    expect(refusalOf(await service.startGame(...GAME)).field).toBe('registration');
    expect(refusalOf(await service.detectReader(true)).field).toBe('source');
    return refusalOf(await service.saveSettings(TABLE));
  }, 'a deck is being registered on this card source: finish or stop the registration first'],
  ['service.noStructure', async () => refusalOf(await (await consoleWith()).service.markBreak(2)), 'no tournament structure is saved: save the structure first'],
  ['service.colorUp.notOnBreak', async () => {
    const { service } = await consoleWith();
    expect(await service.saveStructure(STRUCTURE)).toEqual({ ok: true, value: null });
    return refusalOf(await service.startColorUp(6, 100));
  }, `the tournament is not on a break, not the one after level 6: ${STALE}`],
  ['service.colorUp.otherBreak', async () => refusalOf(await (await onBreak(6)).service.startColorUp(2, 25)), `the tournament is on the break after level 6, not the one after level 2: ${STALE}`],
  ['service.colorUp.noRace', async () => refusalOf(await (await onBreak(6)).service.startColorUp(6, 25)), 'the colour-up after level 6 has no race taking 25 off'],
  ['service.colorUp.racedOff', async () => {
    const { service } = await onBreak(6);
    expect(await service.startColorUp(6, 100)).toEqual({ ok: true, value: null });
    expect(await service.startRace([{ seat: 1, chips: 5, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }])).toEqual({ ok: true, value: null });
    expect(await service.confirmRace('race-1')).toEqual({ ok: true, value: null });
    return refusalOf(await service.startColorUp(6, 100));
  }, `the 100 chips were already raced off at this break (after level 6), in race-1 confirmed at ${wallClock(clock().toISOString())}: they cannot be raced a second time at this break`],
  // Chips exchanged outside a race (station/service/exchangeCommands.ts).
  ['service.exchange.notConfirmed', async () => refusalOf(await (await consoleWith()).service.recordChipExchange(LATE_FOUND)), 'race-1 is not a race this station confirmed (an abandoned race, or one not run here): late-found chips are recorded against the confirmed race they belong to'],
  ['service.exchange.raceOpen', async () => refusalOf(await (await raceOpen()).service.recordChipExchange(LATE_FOUND)), 'race-1 is still being dealt: late-found chips are recorded against it once it is confirmed'],
  ['service.exchange.otherChips', async () => {
    const { service } = await consoleWith();
    // One player with odd chips: settled without cards, confirmed at once.
    expect(await service.startRace([{ seat: 1, chips: 5, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }])).toEqual({ ok: true, value: null });
    expect(await service.confirmRace('race-1')).toEqual({ ok: true, value: null });
    return refusalOf(await service.recordChipExchange({ ...LATE_FOUND, removed: 5, next: 25 }));
  }, 'race-1 took the 25 chips off into 100: its late-found chips are 25 chips exchanged for 100 (not 5 for 25)'],
  ['service.exchange.raceDealing', async () => refusalOf(await (await raceOpen()).service.recordChipExchange({ ...LATE_FOUND, reason: 'discretionary', raceId: null, note: 'table broken' })), 'race-1 is being dealt: colour a player up once it is confirmed or abandoned'],
  ['service.raceStillOpen', async () => refusalOf(await (await raceOpen()).service.startGame(...GAME)), 'race race-1 is still open: confirm or abandon it first'],
  ['service.gameStillOpen', async () => refusalOf(await (await gameOpen()).service.startRace(COUNTS)), 'game game-1 is still open: close it first'],
  ['service.noRace', async () => refusalOf(await (await consoleWith()).service.confirmRace('race-1')), 'no race is open'],
  ['service.noRaceStart', async () => refusalOf(await (await consoleWith()).service.voidCards('race-1', 1, 'misread')), 'no race is open: start one from the counts screen'],
  ['service.notOpenRace', async () => refusalOf(await (await raceOpen()).service.abandonRace('race-7', 'wrong table')), `race-7 is not the open race (race-1 is): ${STALE} before you repeat it`],
  ['service.noGame', async () => refusalOf(await (await consoleWith()).service.closeGame('game-1', 'bye')), 'no game is open: start one first'],
  ['service.notOpenGame', async () => refusalOf(await (await gameOpen()).service.gameAction('game-3', { type: 'next-deal' })), `game-3 is not the open game (game-1 is): ${STALE} before you repeat it`],
  ['service.notOpen', async () => refusalOf(await (await gameOpen()).service.dealCard('race-2', 'As')), 'race-2 is not open (game-1 is): this screen was out of date, so the card was not dealt; look again before you repeat it'],
  ['service.notComplete', async () => refusalOf(await (await raceOpen()).service.confirmRace('race-1')), 'race race-1 is not complete yet: Deal 3 cards to seat 1 — Matti'],
  ['service.scan.refused', async () => refusalOf(await (await raceOpen()).service.dealScan('race-1', 'X?')), '"X?": not a card code (decoder text)'],
  ['service.held.none', async () => refusalOf(await (await raceOpen()).service.takeHeldCard('race-1', 1)), 'no card is waiting for your say'],
  ['service.held.notFirst', async () => {
    const { service, emit } = await consoleWith({ ...RFID, source: { ...RFID.source, decoder: 'text' } });
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    emit({ type: 'card', card: 'Ah', raw: 'Ah', suspect: true });
    await settled(service);
    expect(service.getState().held).toHaveLength(1);
    return refusalOf(await service.discardHeldCard('race-1', 2));
  }, `that card is not the first one waiting any more: ${STALE}`],
  ['service.held.tooMany', async () => {
    const { service, emit } = await consoleWith({ ...RFID, source: { ...RFID.source, decoder: 'text' } });
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    const cards = ['Ah', 'Kh', 'Qh', 'Jh', 'Th', '9h', '8h', '7h', '6h', '5h', '4h'] as const;
    expect(cards).toHaveLength(MAX_HELD_CARDS + 1);
    for (const card of cards) emit({ type: 'card', card, raw: card, suspect: true });
    await settled(service);
    const refusal = service.getState().shoeRefusal;
    if (refusal === null) throw new Error('no shoe refusal');
    return refusal;
  }, 'read while the line was noisy, with 10 cards already waiting for your say: not dealt'],
  ['service.history.before', async () => refusalOf(await (await consoleWith()).service.historyPage(3, 10)), 'must be a race number from 0 to 0 (got 3)'],
  ['command.wholeRange', async () => refusalOf(await (await consoleWith()).service.historyPage(null, 0)), 'must be a whole number from 1 to 100'],
  ['service.notInJournal', async () => refusalOf(await (await consoleWith()).service.raceRecord('race-4')), 'race-4 is not in the journal'],
  ['service.history.exportNoDialog', async () => refusalOf(await (await consoleWith()).service.exportHistory('csv')), 'this console has no save dialog: in the browser, the history downloads from the links on the History screen'],
  [
    'service.history.exportRefused',
    async () => refusalOf(await (await consoleWith(TABLE, async () => '/nonexistent-folder/races.csv')).service.exportHistory('csv')),
    "the export could not be saved to /nonexistent-folder/races.csv: ENOENT: no such file or directory, open '/nonexistent-folder/races.csv.tmp'",
  ],
  ['service.register.raceOpen', async () => {
    const { service } = await consoleWith(RFID);
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    return refusalOf(await service.registerDeck('deck-1'));
  }, 'race race-1 is open: register the deck between races'],
  ['service.register.gameOpen', async () => {
    const { service } = await consoleWith(RFID);
    expect(await service.startGame(...GAME)).toEqual({ ok: true, value: null });
    return refusalOf(await service.registerDeck('deck-1'));
  }, 'game game-1 is open: register the deck between games'],
  ['service.register.noReader', async () => refusalOf(await (await consoleWith()).service.registerDeck('deck-1')), 'register the deck with the reader connected: choose the serial card source and its port first'],
  ['service.register.notRfid', async () => refusalOf(await (await consoleWith({ ...RFID, source: { ...RFID.source, decoder: 'text' } })).service.registerDeck('deck-1')), 'the profile text does not read RFID tags: choose rfid (or a profile that reads tag IDs) first'],
  // Mapping the antennas to seats (issue 26): on a stored profile that reads tag IDs (seatMap.pty.test.ts maps one through a pty).
  ['service.seatMap.open', async () => {
    const service = await onTable();
    expect(await service.startGame(...GAME)).toEqual({ ok: true, value: null });
    return refusalOf(await service.mapSeats(true));
  }, 'game-1 is open: map the antennas between races and games'],
  ['service.noSerialPort', async () => refusalOf(await (await consoleWith()).service.mapSeats(true)), 'choose the serial card source and its port first'],
  // While the card reader is being set up, nothing that needs its reads starts (issue 26's review: a race's shoe cards went to the set-up).
  ['service.detecting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'said-'));
    // A search that listens until it is stopped.
    const service = await ConsoleService.start({
      dataDir,
      clock,
      cardSources: () => ({ stop: async () => undefined }),
      detectReader: ({ signal }) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ ok: true, found: [], tried: 0, total: 24 }))),
    });
    services.push(service);
    expect(await service.saveSettings(RFID)).toEqual({ ok: true, value: null });
    expect(await service.detectReader(true)).toEqual({ ok: true, value: null });
    expect(refusalOf(await service.startGame(...GAME)).field).toBe('detection');
    expect(refusalOf(await service.registerDeck('deck-1')).field).toBe('detection');
    return refusalOf(await service.startRace(COUNTS));
  }, "the reader's settings are being found on this card source: wait for the search to end or stop it first"],
  // Finding a reader's settings (issue 26): between races and games (readerDetection.pty.test.ts listens through a pty).
  ['service.detect.open', async () => {
    const service = await onTable();
    expect(await service.startGame(...GAME)).toEqual({ ok: true, value: null });
    return refusalOf(await service.detectReader(true));
  }, "game-1 is open: find the reader's settings between races and games"],
  ['service.seatMap.notDeck', async () => refusalOf(await (await consoleWith(RFID)).service.mapSeats(true)), 'the profile rfid is no registered deck: register the deck first'],
  ['service.seatMap.mapping', async () => {
    const service = await onTable();
    expect(await service.mapSeats(true)).toEqual({ ok: true, value: null });
    expect(refusalOf(await service.registerDeck('deck-1')).field).toBe('seatMapping');
    expect(refusalOf(await service.startRace(COUNTS)).field).toBe('seatMapping');
    expect(refusalOf(await service.startGame(...GAME)).field).toBe('seatMapping');
    expect(refusalOf(await service.detectReader(true)).field).toBe('source');
    return refusalOf(await service.saveSettings(TABLE));
  }, 'the antennas are being mapped to seats: finish or stop that first'],
  ['service.profile.badName', async () => refusalOf(await (await consoleWith(RFID)).service.registerDeck('my deck')), 'must be 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit (got "my deck")'],
  ['service.profile.builtIn', async () => refusalOf(await (await consoleWith()).service.importProfile({ name: 'rfid', framing: { kind: 'lines' }, decoder: { kind: 'uid' } })), '"rfid" is the name of a built-in profile: give yours another'],
  ['service.draftsRaceOpen', async () => {
    const { service } = await consoleWith();
    await service.startRace(COUNTS);
    return refusalOf(await service.saveCountDrafts([{ seat: 1, chips: null, hasOther: true }]));
  }, 'race race-1 is open: the counts typed are for the next race, and were not kept'],
  ['service.save.settingsRefused', async () => {
    const { service, dataDir } = await consoleWith();
    // Where the settings file goes there is a folder: the write is refused, whatever the user.
    rmSync(join(dataDir, 'settings.json'));
    mkdirSync(join(dataDir, 'settings.json', 'x'), { recursive: true });
    return refusalOf(await service.setLanguage('fi'));
  }, 'could not save the settings: the disk refused the write ({why}). The previous settings stay in use; check the disk, then try again.'],

  // The tournament clock's refusals: the station's own clock, and the floor's handed to it.
  ['clock.noMinutes', async () => {
    const { service } = await consoleWith();
    expect(await service.saveStructure({ chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100 }] })).toEqual({ ok: true, value: null });
    return refusalOf(await service.clockStart());
  }, 'level 2 has no length in minutes: give every level its minutes in the structure to run the clock'],
  ['service.noStructure', async () => refusalOf(await (await consoleWith()).service.clockStart()), 'no tournament structure is saved: save the structure first'],
  ['clock.order.notStarted', async () => refusalOf(await (await timedClock()).clockPause()), 'the clock has not been started: start it first'],
  ['clock.order.started', async () => {
    const service = await timedClock();
    expect(await service.clockStart()).toEqual({ ok: true, value: null });
    return refusalOf(await service.clockStart());
  }, 'the clock is already running: pause it or adjust it instead'],
  ['clock.order.running', async () => {
    const service = await timedClock();
    expect(await service.clockStart()).toEqual({ ok: true, value: null });
    return refusalOf(await service.clockResume());
  }, 'the clock is running, not paused'],
  ['clock.order.paused', async () => {
    const service = await timedClock();
    expect(await service.clockStart()).toEqual({ ok: true, value: null });
    expect(await service.clockPause()).toEqual({ ok: true, value: null });
    return refusalOf(await service.clockPause());
  }, 'the clock is already paused'],
  ['clock.floor', async () => {
    const service = await timedClock();
    expect(await service.followFloorClock({ structure: TIMED, events: [] })).toEqual({ ok: true, value: null });
    return refusalOf(await service.clockStart());
  }, 'the floor runs the clock: start, pause and adjust it on the floor console'],
  ['service.fromFloor.tournament', async () => {
    const service = await timedClock();
    expect(await service.followFloorClock({ structure: TIMED, events: [], house: { rules: 'tda' } })).toEqual({ ok: true, value: null });
    return refusalOf(await service.saveStructure(TIMED));
  }, "the tournament's structure, chip set and house rules are the floor's while this station is linked to it: change them on the floor"],
  ['service.fromFloor.seats', async () => {
    const { service } = await consoleWith();
    expect(await service.followFloorSeats({ version: 1, broken: false, seats: [{ seat: 2, player: 'Anna' }] })).toEqual({ ok: true, value: null });
    const held = service.getState().settings;
    return refusalOf(await service.saveSettings({ table: { ...held.table, seats: [{ seat: 1, name: 'Matti' }] }, source: held.source }));
  }, "the seats in play and the players' names are the floor's seating while this station is linked to it: a player out or moved is changed on the floor"],
  ['clock.order.before', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [{ type: 'start', at: 2000 }, { type: 'pause', at: 1000 }] })), "an event cannot come before the one before it: the clock's events are in time order"],
  ['clock.events.notList', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: 'start' as unknown as [] })), 'must be a list of clock events (got "start")'],
  ['clock.events.tooMany', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: Array.from({ length: 5001 }, () => ({ type: 'adjust', at: 1, by: 1 })) })), 'at most 5000 clock events (got 5001)'],
  ['clock.event.notObject', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [7] as unknown as [] })), 'a clock event must be an object like {"type": "start", "at": 1764547200000} (got 7)'],
  ['clock.event.type', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [{ type: 'stop', at: 1 }] as unknown as [] })), 'a clock event is start, pause, resume or adjust (got "stop")'],
  ['clock.event.unknownKey', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [{ type: 'start', at: 1, by: 5 }] as unknown as [] })), '"by" is not part of a start event'],
  ['clock.event.at', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [{ type: 'start', at: -5 }] })), 'must be a time in milliseconds since 1970 (got -5)'],
  ['clock.event.by', async () => refusalOf(await (await timedClock()).followFloorClock({ structure: TIMED, events: [{ type: 'start', at: 1 }, { type: 'adjust', at: 2, by: 0 }] })), 'must be a whole number of milliseconds from -36000000 to 36000000, not 0 (got 0)'],
  ['clock.adjustMinutes', async () => refusalOf(await dispatch((await consoleWith()).service, 'clockAdjust', [0])), 'must be a whole number of minutes from -600 to 600, not 0'],

  // The settings checks (saved from the screen, or read from the settings file).
  ['command.notObject', async () => refusalOf(await (await consoleWith()).service.saveSettings({ ...TABLE, table: undefined } as unknown as ConsoleSettings)), 'must be an object'],
  // A table saved with no seat in play (only a console never set up has none).
  ['command.seatCount', async () => refusalOf(await (await consoleWith()).service.saveSettings({ ...TABLE, table: { ...TABLE.table, seats: [] } })), 'must list 1 to 10 seats'],
  ['settings.wholeRange', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, decks: 9 } })), 'must be a whole number from 1 to 8 (got 9)'],
  ['settings.oneOf', () => thrown(() => readSettings({ ...TABLE, language: 'de' })), 'choose one of en, fi, ru (got "de")'],
  ['settings.mustBe', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, dataBits: 9 } })), 'must be 5, 6, 7 or 8 (got 9)'],
  ['settings.notBoolean', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, rtscts: 'yes' } })), 'must be true or false (got "yes")'],
  ['settings.mustBe', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, stopBits: 3 } })), 'must be 1, 1.5 or 2 (got 3)'],
  ['settings.oneOf', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, parity: 'evn' } })), 'choose one of none, even, odd, mark, space (got "evn")'],
  ['command.notText', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, seats: [{ seat: 1, name: 42 }] } })), 'must be text'],
  ['command.tooLong', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, dealer: 'D'.repeat(41) } })), 'at most 40 characters'],
  ['settings.tableName', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, name: 'T'.repeat(33) } })), 'the table name must be text of at most 32 characters, with no control or invisible formatting characters, or empty when the table has no name'],
  ['settings.floorUrl', () => thrown(() => readSettings({ ...TABLE, floor: { on: false, url: 'http://floor.local/chips' } })), "the floor database must be a PostgreSQL URL: postgres:// with the station's login, the floor's host and port, and the database"],
  ['settings.floorUrlHost', () => thrown(() => readSettings({ ...TABLE, floor: { on: false, url: 'postgres://t:pw@floor.local,,standby.local/chip_race' } })), "host 2 of the floor's list is not a host name or address (got ): write the hosts as host:port, separated by commas, the floor's first"],
  ['settings.floorUrlPort', () => thrown(() => readSettings({ ...TABLE, floor: { on: false, url: 'postgres://t:pw@floor.local:5432,standby.local:99999/chip_race' } })), "the port of host 2 of the floor's list must be a number from 1 to 65535 (got 99999)"],
  ['settings.floorUrlHosts', () => thrown(() => readSettings({ ...TABLE, floor: { on: false, url: `postgres://t:pw@${Array.from({ length: 9 }, (_, i) => `h${i}`).join(',')}/chip_race` } })), "the floor's list may name at most 8 hosts (got 9)"],
  ['settings.floorUrlSession', () => thrown(() => readSettings({ ...TABLE, floor: { on: false, url: 'postgres://t:pw@floor.local,standby.local/chip_race?target_session_attrs=read-only' } })), 'target_session_attrs must be read-write: the station writes to the floor (got read-only)'],
  ['settings.floorUrlNeeded', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, name: '7' }, floor: { on: true, url: '' } })), 'the floor link needs the floor database’s URL'],
  ['settings.floorTableName', () => thrown(() => readSettings({ ...TABLE, floor: { on: true, url: 'postgres://station@floor.local/chips' } })), 'the floor knows each table by its name: name the table before turning the floor link on'],
  ['settings.floorEnvTable', () => floorStartRefusal({ url: 'postgres://station@floor.local/chips', table: ' 7' }), 'CHIP_RACE_TABLE must be the table’s name: 1 to 32 characters, no control or invisible formatting characters, no spaces around it'],
  ['settings.seatTwice', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, seats: [{ seat: 1, name: '' }, { seat: 1, name: '' }] } })), 'seat 1 appears twice'],
  ['settings.serialPathPosix', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, kind: 'serial', path: 'ttyUSB0' } }, 'linux')), 'must be the full path of the port, starting with /, e.g. /dev/ttyUSB0 or /dev/serial/by-id/… (got "ttyUSB0")'],
  ['settings.serialPathWindows', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, kind: 'serial', path: '/dev/ttyS0' } }, 'win32')), 'must be a port name, e.g. COM3 or \\\\.\\COM3 (got "/dev/ttyS0")'],
  ['settings.profileName', () => thrown(() => readSettings({ ...TABLE, source: { ...TABLE.source, decoder: '../x' } })), 'choose one of text, suit-number, index1, index0, stx-text, stx-sum, barcode, rfid, or a profile imported in the settings (got "../x")'],
  ['settings.chipSetSize', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, chipSet: [25] } })), 'must list 2 to 12 denominations'],
  ['settings.chipSetOrder', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, chipSet: [100, 25] } })), 'must be in ascending order without repeats'],
  ['settings.removedNotInSet', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, removed: 50 } })), '50 is not in the chip set'],
  ['settings.nextNotLarger', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, next: 25 } })), 'must be a chip of the set larger than 25'],
  ['settings.nextNotMultiple', () => thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, chipSet: [25, 110], next: 110 } })), '110 is not a whole multiple of 25'],
  ['settings.structureChips', () => thrown(() => readSettings({ ...TABLE, tournament: { structure: { ...STRUCTURE, chips: [25, 100, 500] }, atBreakAfter: null } })), "the structure plays with the table's chip set (25, 100, 500, 1000, 5000), not 25, 100, 500: save the structure to change the table's chips with it"],
  ['settings.noBreak', async () => {
    const { service } = await consoleWith();
    expect(await service.saveStructure(STRUCTURE)).toEqual({ ok: true, value: null });
    return refusalOf(await service.markBreak(3));
  }, 'level 3 is not followed by a break in the structure'],

  // The argument checks every call goes through (station/ipc/validate.ts, protocol/commands.ts).
  ['command.unknown', async () => refusalOf(await dispatch((await consoleWith()).service, 'deleteEverything', [])), 'unknown command "deleteEverything"'],
  ['command.argsNotList', async () => refusalOf(await dispatch((await consoleWith()).service, 'dealCard', 'As')), 'must be a list'],
  ['command.arity', async () => refusalOf(await dispatch((await consoleWith()).service, 'confirmRace', ['race-1', 2])), 'confirmRace takes 1 argument, got 2'],
  ['command.notBoolean', async () => refusalOf(await dispatch((await consoleWith()).service, 'startRace', [[{ seat: 1, chips: 7 }]])), 'must be true or false'],
  ['command.oneOf', async () => refusalOf(await dispatch((await consoleWith()).service, 'setLanguage', ['de'])), 'choose one of en, fi, ru'],
  ['command.seatRange', async () => refusalOf(await dispatch((await consoleWith()).service, 'startRace', [[{ seat: 0, chips: 7, hasOther: true }]])), 'must be a seat from 1 to 10'],
  ['command.chipCount', async () => refusalOf(await dispatch((await consoleWith()).service, 'previewRace', [[{ seat: 2, chips: 2.5, hasOther: true }]])), 'seat 2: the chip count must be a whole number from 0 to 100000'],
  ['command.seatTwice', async () => refusalOf(await dispatch((await consoleWith()).service, 'startRace', [[{ seat: 1, chips: 7, hasOther: true }, { seat: 1, chips: 2, hasOther: true }]])), 'seat 1 appears twice'],
  ['command.target', async () => refusalOf(await dispatch((await consoleWith()).service, 'dealCard', ['Kc'])), 'must name the race or game it is for (race-N or game-N): this screen may be out of date; reload it'],
  ['command.playerCount', async () => refusalOf(await dispatch((await consoleWith()).service, 'startGame', ['chicago', ['A']])), 'must list 2 to 6 players'],
  ['command.playerName', async () => refusalOf(await dispatch((await consoleWith()).service, 'startGame', ['chicago', ['A', 7]])), 'each player is a name of at most 40 characters'],
  ['command.action', async () => refusalOf(await dispatch((await consoleWith()).service, 'gameAction', ['game-1', null])), 'must be an object with a type'],
  ['command.discards', async () => refusalOf(await dispatch((await consoleWith()).service, 'gameAction', ['game-1', { type: 'discard', cards: ['2c', '3c', '4c', '5c', '6c', '7c'] }])), 'must list at most 5 card codes'],
  ['command.callPlayer', async () => refusalOf(await dispatch((await consoleWith()).service, 'gameAction', ['game-1', { type: 'call' }])), 'must be a player name'],
  ['command.actionType', async () => refusalOf(await dispatch((await consoleWith()).service, 'gameAction', ['game-1', { type: 'fold' }])), 'must be discard, end-exchanges, call or next-deal'],
  ['command.heldId', async () => refusalOf(await dispatch((await consoleWith()).service, 'takeHeldCard', ['race-1', '1'])), 'must name the held card'],
  ['command.breakLevel', async () => refusalOf(await dispatch((await consoleWith()).service, 'markBreak', ['6'])), 'must be the level the break follows, or null when the tournament is playing'],
  ['command.colorUpLevel', async () => refusalOf(await dispatch((await consoleWith()).service, 'startColorUp', [0, 25])), 'must be the level the break follows: this screen may be out of date; reload it'],
  ['command.colorUpChip', async () => refusalOf(await dispatch((await consoleWith()).service, 'startColorUp', [6])), 'must be the chip the race takes off'],
  ['command.structure', async () => refusalOf(await dispatch((await consoleWith()).service, 'saveStructure', [[1, 2]])), 'must be a tournament structure: a JSON object of at most 256 KB'],
  ['command.abandonReason', async () => refusalOf(await dispatch((await raceOpen()).service, 'abandonRace', ['race-1', '  '])), 'say why the race is abandoned: a reason is needed for the record'],
  ['command.voidCount', async () => refusalOf(await dispatch((await consoleWith()).service, 'voidCards', ['race-1', 0, 'x'])), 'the number of cards to void must be a whole number of at least 1'],
  ['command.game', async () => refusalOf(await dispatch((await consoleWith()).service, 'startGame', ['poker', ['A', 'B']])), 'must be pistepokeri or chicago'],
  ['command.format', async () => refusalOf(await dispatch((await consoleWith()).service, 'exportHistory', ['xml'])), 'must be csv or json'],
  ['command.before', async () => refusalOf(await dispatch((await consoleWith()).service, 'historyPage', [-1, 10])), 'must be a race number, or null for the latest'],
  ['command.profile', async () => refusalOf(await dispatch((await consoleWith()).service, 'importProfile', ['rfid'])), 'must be a device profile: a JSON object of at most 64 KB'],
  ['command.draftSeats', async () => refusalOf(await dispatch((await consoleWith()).service, 'saveCountDrafts', [{ seat: 1 }])), 'must list at most 10 seats'],
];

/** The refusal's said checked as the engine's are (expectSaid), and returned. */
function saidOf(refusal: Refusal): Message {
  if (refusal.said === undefined) throw new Error(`${refusal.field}: ${refusal.message} carries no message key`);
  expectSaid(new InputError(refusal.field, refusal.said));
  expect(englishText(refusal.said)).toBe(refusal.message);
  return refusal.said;
}

/** Dotted keys of every leaf under `prefix` in the English catalog. */
function leafKeys(catalog: Catalog, prefix: string): string[] {
  return Object.entries(catalog).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`)));
}

describe("the console's own refusals carry said, in every language, their English the message", () => {
  it.each(ROWS)('%s', async (key, provoke, message) => {
    const refusal = await provoke();
    const said = saidOf(refusal);
    expect(said.key).toBe(key);
    // `{why}`: the system's own words for a refused write, different on every machine.
    if (message.includes('{why}')) expect(refusal.message).toMatch(new RegExp(`^${message.replace(/[.()]/g, '\\$&').replace('\\({why}\\)', '\\(.+\\)')}$`));
    else expect(refusal.message).toBe(message);
  });

  /**
   * Keys of these families that are no refusal: what the service writes into a refusal's record
   * (service.held.discarded …, service.refusals.*), what reading the settings file finds
   * (settings.file.*, settings.test.ts), and the clock's words the screens and the floor page show
   * (TournamentClock.test.ts, floor/page).
   */
  const CLOCK_WORDS = ['label', 'level', 'break', 'levelShort', 'breakShort', 'idle', 'finished', 'left', 'nextBreak', 'paused', 'floorClock', 'start', 'pause', 'resume', 'back', 'forward', 'minutesHint'];
  const isNoRefusal = (key: string): boolean =>
    /^service\.held\.(discarded|undecidedRace|undecidedGame)$|^service\.seatMap\.(discarded|undecided|noAntenna|antennaTaken)$|^service\.refusals\.|^settings\.file\./.test(key) || CLOCK_WORDS.some((word) => key === `clock.${word}`);

  it('provokes every key of the service.*, settings.*, command.* and clock.* families but those no test can reach by a command', () => {
    // A full disk is provoked in badInput.test.ts (a tmpfs of its own, which checks the journal's and
    // the settings' keys); the journal refusing a write otherwise, the journal read-only with no
    // finding, a decoder giving no event at all and an unexpected error have no command that makes them.
    const unprovoked: readonly MessageKey[] = ['service.unexpected', 'service.save.journalFull', 'service.save.journalRefused', 'service.save.settingsFull', 'service.readOnly',
      // A journal from a newer console, or sealed with a key not given: integrity.test.ts provokes readOnlyUnknown and readOnlyKeyMissing on real journals.
      'service.readOnlyNewer', 'service.readOnlyUnknown', 'service.readOnlyKeyMissing', 'service.readOnlyKeyWrong',
      'service.scan.notACard', 'command.unknownCommand',
      // The floor's clock row refused by the station's link: system/floorClockRow.test.ts provokes both on a real floor.
      'clock.floorRow.tooLarge', 'clock.floorRow.malformed'];
    const families = ['service', 'settings', 'command', 'clock'].flatMap((family) => leafKeys((en as unknown as Record<string, Catalog>)[family] as Catalog, `${family}.`));
    const provoked = new Set(ROWS.map(([key]) => key));
    expect(families.filter((key) => !provoked.has(key) && !(unprovoked as readonly string[]).includes(key) && !isNoRefusal(key))).toEqual([]);
    for (const key of unprovoked) {
      const said: Message = { key, params: { message: 'x', code: 'ENOSPC', why: 'EIO', name: '"x"', version: 3, seq: 10, kind: 'race-dispute', keyId: 'k1', kb: 2048, part: 'events' } };
      for (const [language, catalog] of Object.entries(ENGINE_CATALOGS)) expect(formatMessage(said, language, catalog), `${language} ${key}`).not.toMatch(/\{\w+\}|^[a-z]+\.[a-zA-Z.]+$/);
    }
  });

  it('a stored profile name that is no name is refused in keys by the profile store too', () => {
    const refusal = thrown(() => storedName('../evil'));
    expect(saidOf(refusal).key).toBe('service.profile.badName');
  });
});

/** English words: the English catalog's, less those the Finnish and Russian catalogs use as well (names, codes). */
function words(texts: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) for (const word of text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z][A-Za-z'’]+/g) ?? []) found.add(word.toLowerCase());
  return found;
}
const leaves = (catalog: Catalog): string[] => Object.values(catalog).flatMap((value) => (typeof value === 'string' ? [value] : leaves(value)));
const SHARED = words([...leaves(ENGINE_CATALOGS.fi), ...leaves(ENGINE_CATALOGS.ru)]);
const ENGLISH = new Set([...words(leaves(ENGINE_CATALOGS.en))].filter((word) => !SHARED.has(word)));

describe('in Finnish and Russian the refusals hold no English word', () => {
  const stale = async () => saidOf(refusalOf(await (await raceOpen()).service.abandonRace('race-7', 'wrong table')));
  const notComplete = async () => saidOf(refusalOf(await (await raceOpen()).service.confirmRace('race-1')));
  const chips = async () => saidOf(refusalOf(await dispatch((await consoleWith()).service, 'startRace', [[{ seat: 1, chips: -1, hasOther: true }]])));
  const tooLong = () => saidOf(thrown(() => readSettings({ ...TABLE, table: { ...TABLE.table, dealer: 'D'.repeat(41) } })));

  it('says them in Finnish', async () => {
    const say = (message: Message) => formatMessage(message, 'fi', ENGINE_CATALOGS.fi);
    // Ids are the console's (race-7), as every screen shows them.
    expect(say(await stale())).toBe('race-7 ei ole avoin arvonta (avoinna on race-1): tämä näyttö oli vanhentunut, joten mitään ei tehty; katso uudelleen ennen kuin toistat');
    expect(say(await notComplete())).toBe('arvonta race-1 ei ole vielä valmis: Jaa 3 korttia: paikka 1 — Matti');
    expect(say(await chips())).toBe('paikka 1: pelimerkkien määrän on oltava kokonaisluku väliltä 0–100000');
    expect(say(tooLong())).toBe('enintään 40 merkkiä');
    for (const text of [await stale(), await notComplete(), await chips(), tooLong()].map(say)) expect([text, [...words([text])].filter((word) => ENGLISH.has(word))]).toEqual([text, []]);
  });

  it('says them in Russian, counted things in their plural forms', async () => {
    const say = (message: Message) => formatMessage(message, 'ru', ENGINE_CATALOGS.ru);
    expect(say(await stale())).toBe('race-7 — не открытый чип-рейс (открыт race-1): этот экран устарел, поэтому ничего не сделано; посмотрите ещё раз, прежде чем повторять');
    expect(say(await notComplete())).toBe('чип-рейс race-1 ещё не завершён: Сдайте 3 карты: место 1 — Matti');
    expect(say(tooLong())).toBe('не более 40 символов');
    expect([1, 2, 5, 21].map((n) => say({ key: 'command.tooLong', params: { n } }))).toEqual(['не более 1 символа', 'не более 2 символов', 'не более 5 символов', 'не более 21 символа']);
    expect([1, 3, 10].map((n) => say({ key: 'service.held.tooMany', params: { n } }).split(':')[0])).toEqual([
      'прочитана при помехах на линии, когда вашего решения уже ждёт 1 карта',
      'прочитана при помехах на линии, когда вашего решения уже ждут 3 карты',
      'прочитана при помехах на линии, когда вашего решения уже ждут 10 карт',
    ]);
    for (const text of [await stale(), await notComplete(), await chips(), tooLong()].map(say)) expect([text, [...words([text])].filter((word) => ENGLISH.has(word))]).toEqual([text, []]);
  });
});
