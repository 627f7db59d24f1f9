import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../api';
import type { ConsoleApi } from '../../protocol/commands';
import type { CommandError } from '../../protocol/contract';
import { refusalOf } from '../../protocol/schema';
import type { RaceStep } from '../../engine/plan/planner';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { DECK_PROFILE_INFO, FINNISH_CARDS, makeSettings, makeState, makeTournamentState, TOURNAMENT_STRUCTURE, VENDOR_PROFILE } from '../testing/fixtures';
import { settle } from '../testing/setup';
import { MANUAL_VOID_REASON } from '../../engine/race/explain';
import { useConsoleStore } from './console';

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('console store', () => {
  it('takes the state from getState on connect and every pushed state after', async () => {
    // States given (pushed by the test), on the state-only stub.
    const api = createStubApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(api.callsOf('getState')).toHaveLength(1);
    expect(store.state?.settings.table.removed).toBe(25);
    expect(store.connection).toBe('connected');
    api.push(makeState({ settings: makeSettings({ table: { removed: 100, next: 500 } }) }));
    expect(store.settings?.table.removed).toBe(100);
  });

  it('opens on the race screen when the service resumes a race', async () => {
    const store = useConsoleStore();
    store.connect(await createKernelApi({ race: { cards: ['Ah'] } }));
    await settle();
    expect(store.view).toBe('race');
    expect(store.race?.summary.cards).toHaveLength(1);
  });

  it('stays on the setup screen when no race runs', async () => {
    const store = useConsoleStore();
    store.connect(await createKernelApi());
    await settle();
    expect(store.view).toBe('setup');
  });

  it('surfaces a refused command as the error of that action, and clears it on the next try', async () => {
    const api = await createKernelApi({ race: {} });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const refused = await store.run('dealCard', 'xx');
    expect(refused.ok).toBe(false);
    expect(store.errors.dealCard).toEqual({ field: 'card', message: expect.stringContaining('"xx" is not a card'), said: { key: 'cards.notACard', params: { text: 'xx' } } });
    const accepted = await store.run('dealCard', 'as');
    expect(accepted.ok).toBe(true);
    expect(store.errors.dealCard).toBeNull();
    expect(store.race?.summary.cards.map((card) => card.card)).toEqual(['As']);
  });

  it('passes canned CommandResult errors through unchanged', async () => {
    const api = await createKernelApi();
    api.cann('saveSettings', { ok: false, error: { field: 'table.decks', message: 'decks must be at least 1' } });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const outcome = await store.run('saveSettings', makeSettings());
    expect(outcome).toEqual({ ok: false, error: { field: 'table.decks', message: 'decks must be at least 1' } });
    expect(store.errors.saveSettings?.message).toBe('decks must be at least 1');
    expect(store.notice).toBeNull();
  });

  it('turns a lost connection into a translatable error', async () => {
    const api = await createKernelApi({ race: {} });
    const broken = { ...api, dealCard: () => Promise.reject(Object.assign(new Error('gone'), { name: 'ConnectionLostError' })) } as ConsoleApi;
    const store = useConsoleStore();
    store.connect(broken);
    await settle();
    const outcome = await store.run('dealCard', 'as');
    expect(outcome.ok).toBe(false);
    expect(store.errors.dealCard?.key).toBe('errors.connection');
  });

  it('refuses an answer that is not a CommandResult', async () => {
    const api = await createKernelApi({ race: { cards: FINNISH_CARDS } });
    api.cann('confirmRace', 'what');
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const outcome = await store.run('confirmRace');
    expect(outcome.ok).toBe(false);
    expect(store.errors.confirmRace?.key).toBe('errors.badAnswer');
  });

  it('names the open race for a command that acts on it: the screen gives only the rest', async () => {
    const api = await createKernelApi({ race: { cards: ['Ah', 'Kc'] } });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.run('voidCards', 1, MANUAL_VOID_REASON);
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, MANUAL_VOID_REASON]]);
    expect(store.race?.summary.cards).toHaveLength(1);
    expect(store.race?.corrections).toBe(1);
  });

  it('logs each input the service numbered once, by its id: two identical reads in a row are two entries', async () => {
    // The same inputs pushed again: states given, on the state-only stub.
    const api = createStubApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const card = { type: 'card', card: 'As', raw: 'AS' } as const;
    const unknown = { type: 'unknown', raw: '??', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } } as const;
    api.push(makeState({ lastInput: card, inputs: [{ id: 1, event: card }] }));
    // A state pushed again (another change) repeats the inputs: nothing new to log.
    api.push(makeState({ lastInput: card, inputs: [{ id: 1, event: card }] }));
    // The same card read again, and an unreadable code, both before the next state came.
    api.push(makeState({ lastInput: unknown, inputs: [{ id: 1, event: card }, { id: 2, event: { ...card } }, { id: 3, event: unknown }] }));
    expect(store.inputLog.map((entry) => entry.event.type)).toEqual(['unknown', 'card', 'card']);
    expect(new Set(store.inputLog.map((entry) => entry.id)).size).toBe(3);
    // A restarted service numbers from 1 again.
    api.push(makeState({ lastInput: card, inputs: [{ id: 1, event: card }] }));
    expect(store.inputLog.map((entry) => entry.event.type)).toEqual(['card', 'unknown', 'card', 'card']);
  });

  it('switches the language with a command of its own, sending nothing else of the settings', async () => {
    const api = await createKernelApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.run('setLanguage', 'fi');
    expect(api.callsOf('setLanguage')).toEqual([['fi']]);
    expect(api.callsOf('saveSettings')).toEqual([]);
    expect(store.settings).toEqual({ ...makeSettings(), language: 'fi', tournament: { structure: null, atBreakAfter: null } });
    await store.run('setLanguage', 'fi');
    expect(api.callsOf('setLanguage')).toHaveLength(1);
  });

  it('marks the break, starts the colour-up and saves the structure as commands of their own: a stale window undoes nothing', async () => {
    const api = await createKernelApi({ settings: makeTournamentState().settings, markBreak: null });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.run('markBreak', 6);
    expect(api.callsOf('markBreak')).toEqual([[6]]);
    await store.run('saveStructure', { ...TOURNAMENT_STRUCTURE, startingStack: 20000 });
    expect(api.callsOf('saveStructure')).toEqual([[{ ...TOURNAMENT_STRUCTURE, startingStack: 20000 }]]);
    expect(store.settings?.tournament).toEqual({ structure: { ...TOURNAMENT_STRUCTURE, startingStack: 20000 }, atBreakAfter: 6 });
    expect(store.notice).toBe('structureSaved');
    const [first] = store.plan?.proposal?.races ?? [];
    expect(await store.run('startColorUp', store.plan?.proposal?.afterLevel ?? 0, (first as RaceStep).removed)).toEqual({ ok: true, value: null });
    expect(api.callsOf('startColorUp')).toEqual([[6, 100]]);
    expect(store.settings?.table).toMatchObject({ removed: 100, next: 500 });
    expect(store.view).toBe('race');
    expect(api.callsOf('saveSettings')).toEqual([]);
  });

  it('takes the colour-up progress from the service state, not from the browser storage', async () => {
    // Progress of two breaks pushed by the test: states given, on the state-only stub.
    const api = createStubApi({ state: makeTournamentState({ atBreakAfter: 6 }) });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(store.colorUpDone).toEqual([]);
    api.push({ ...api.current, colorUp: { afterLevel: 6, done: [{ raceId: 'race-3', removed: 100, next: 500, confirmedAt: '2024-05-04T18:34:00.000Z' }], running: null } });
    expect(store.colorUpDone).toEqual([100]);
    // Progress of another break is not this one's.
    api.push({ ...api.current, colorUp: { afterLevel: 2, done: [{ raceId: 'race-1', removed: 25, next: 100, confirmedAt: '2024-05-04T18:34:00.000Z' }], running: null } });
    expect(store.colorUpDone).toEqual([]);
    expect(globalThis.localStorage?.getItem('chip-race-console:colour-ups-done') ?? null).toBeNull();
  });

  it('follows the bridge connection: banner state, and a fresh state after reconnecting', async () => {
    const api = await createKernelApi();
    let report: (status: ConnectionStatus) => void = () => {};
    const bridged = {
      ...api,
      onConnection(listener: (status: ConnectionStatus) => void) {
        report = listener;
        listener('connecting');
        return () => {};
      },
    } as ConsoleApi;
    const store = useConsoleStore();
    store.connect(bridged);
    await settle();
    expect(store.connection).toBe('connecting');
    expect(api.callsOf('getState')).toHaveLength(0);
    report('open');
    await settle();
    expect(store.connection).toBe('connected');
    expect(api.callsOf('getState')).toHaveLength(1);
    report('lost');
    expect(store.connection).toBe('lost');
    report('open');
    await settle();
    expect(api.callsOf('getState')).toHaveLength(2);
  });

  it('holds the state message the page refused last, as the API tells it', async () => {
    const api = await createKernelApi();
    let tell: (error: CommandError | null) => void = () => {};
    const refusing = {
      ...api,
      onStateRefusal(listener: (error: CommandError | null) => void) {
        tell = listener;
        listener(null);
        return () => {};
      },
    } as ConsoleApi;
    const store = useConsoleStore();
    store.connect(refusing);
    await settle();
    expect(store.stateRefusal).toBeNull();
    const refused = refusalOf('type', { key: 'stateMessage.type', params: { got: '"replace"' } });
    tell(refused);
    expect(store.stateRefusal).toEqual(refused);
    tell(null);
    expect(store.stateRefusal).toBeNull();
  });

  it('stops listening on disconnect', async () => {
    const api = await createKernelApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(api.listenerCount()).toBe(1);
    store.disconnect();
    expect(api.listenerCount()).toBe(0);
  });

  it('lists ports and exports history', async () => {
    // Saved where the dealer's save dialog says (Electron's), the history written there.
    const file = join(mkdtempSync(join(tmpdir(), 'chip-races-export-')), 'chip-races.json');
    const api = await createKernelApi({ ports: [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001' }], chooseExportFile: () => Promise.resolve(file) });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.run('listPorts');
    expect(store.ports.map((port) => port.path)).toEqual(['/dev/ttyUSB0']);
    const exported = await store.run('exportHistory', 'json');
    expect(exported).toEqual({ ok: true, value: { file } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toBeTruthy();
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('refuses a command on the open race or game when none is open, without asking the service', async () => {
    const api = await createKernelApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(await store.run('confirmRace')).toEqual({ ok: false, error: { field: 'race', message: 'no race is open', key: 'errors.nothingOpen' } });
    expect(store.errors.confirmRace?.key).toBe('errors.nothingOpen');
    expect((await store.run('closeGame', 'closed by the dealer')).ok).toBe(false);
    expect(store.errors.closeGame?.field).toBe('game');
    expect(api.callsOf('confirmRace')).toEqual([]);
    expect(api.callsOf('closeGame')).toEqual([]);
  });

  it('takes each command by the table’s name and arguments: a wrong one fails to compile', () => {
    const store = useConsoleStore();
    // Never called: the compiler's checks are the test (vue-tsc -p tsconfig.web.json).
    const wrong = (): void => {
      // @ts-expect-error a clock adjustment is a number of minutes
      void store.run('clockAdjust', '5');
      // @ts-expect-error the runner names the open race: confirming takes nothing more
      void store.run('confirmRace', 'race-1');
      // @ts-expect-error abandoning says why
      void store.run('abandonRace');
      // @ts-expect-error no such command
      void store.run('dealCards', 'As');
      // @ts-expect-error the state is not run: it arrives by itself
      void store.run('getState');
    };
    expect(typeof wrong).toBe('function');
  });
});

describe('console store: device profiles', () => {
  const rfid = makeSettings({ source: { kind: 'serial', path: '/dev/ttyUSB0', decoder: 'rfid' } });

  it('imports a profile file through the service: the profile it stored, or its refusal as the action’s error', async () => {
    const api = await createKernelApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const imported = await store.run('importProfile', { ...VENDOR_PROFILE });
    expect(imported).toMatchObject({ ok: true, value: { name: 'vendor-x', builtIn: false } });
    expect(store.state?.profiles.at(-1)?.name).toBe('vendor-x');
    const refused = await store.run('importProfile', { name: 'text', framing: { kind: 'lines' }, decoder: { kind: 'text' } });
    expect(refused.ok).toBe(false);
    expect(store.errors.importProfile).toEqual({ field: 'profile.name', message: '"text" is the name of a built-in profile: give yours another', said: { key: 'service.profile.builtIn', params: { name: 'text' } } });
  });

  it('tells a registration that finished (its profile stored and chosen) from one stopped: stopped, on the real kernel', async () => {
    const store = useConsoleStore();
    store.connect(await createKernelApi({ settings: rfid }));
    await settle();
    expect(await store.run('registerDeck', 'deck-1')).toEqual({ ok: true, value: null });
    await settle();
    expect(store.state?.registration).toMatchObject({ name: 'deck-1', registered: 0 });
    // Stopped: no notice.
    await store.run('registerDeck', null);
    await settle();
    expect(store.state?.registration).toBeNull();
    expect(store.notice).toBeNull();
    expect(store.registeredDeck).toBeNull();
  });

  it('tells a registration that finished (its profile stored and chosen) from one stopped: finished', async () => {
    // The registration's progress comes from the RFID reader's tags: states given, on the state-only stub.
    const api = createStubApi({ state: makeState({ settings: rfid, registration: { name: 'deck-1', registered: 0, total: 52, next: 'As', problem: null } }) });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    // Finished: the registration gone, its profile chosen.
    api.push({ ...api.current, registration: { name: 'deck-1', registered: 51, total: 52, next: 'Kc', problem: null } });
    api.push({ ...api.current, registration: null, profiles: [...api.current.profiles, DECK_PROFILE_INFO], settings: { ...rfid, source: { ...rfid.source, decoder: 'deck-1' } } });
    expect(store.notice).toBe('deckRegistered');
    expect(store.registeredDeck).toBe('deck-1');
    store.navigate('setup');
    expect(store.notice).toBeNull();
  });
});
