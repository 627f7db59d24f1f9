import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../api';
import type { ConsoleApi } from '../../protocol/commands';
import type { ConsoleSettings } from '../../protocol/contract';
import type { RaceStep } from '../../engine/plan/planner';
import { createFakeApi } from '../testing/fakeApi';
import { DECK_PROFILE_INFO, FINNISH_CARDS, FINNISH_COUNTS, makeSettings, makeState, makeTournamentState, TOURNAMENT_STRUCTURE, VENDOR_PROFILE } from '../testing/fixtures';
import { settle } from '../testing/setup';
import { MANUAL_VOID_REASON } from '../../engine/race/explain';
import { useConsoleStore } from './console';

beforeEach(() => {
  setActivePinia(createPinia());
});

describe('console store', () => {
  it('takes the state from getState on connect and every pushed state after', async () => {
    const api = createFakeApi({ state: makeState() });
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
    store.connect(createFakeApi({ race: { cards: ['Ah'] } }));
    await settle();
    expect(store.view).toBe('race');
    expect(store.race?.summary.cards).toHaveLength(1);
  });

  it('stays on the setup screen when no race runs', async () => {
    const store = useConsoleStore();
    store.connect(createFakeApi());
    await settle();
    expect(store.view).toBe('setup');
  });

  it('surfaces a refused command as the error of that action, and clears it on the next try', async () => {
    const api = createFakeApi({ race: {} });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const refused = await store.dealCard('xx');
    expect(refused.ok).toBe(false);
    expect(store.errors.dealCard).toEqual({ field: 'card', message: expect.stringContaining('"xx" is not a card'), said: { key: 'cards.notACard', params: { text: 'xx' } } });
    const accepted = await store.dealCard('as');
    expect(accepted.ok).toBe(true);
    expect(store.errors.dealCard).toBeNull();
    expect(store.race?.summary.cards.map((card) => card.card)).toEqual(['As']);
  });

  it('passes canned CommandResult errors through unchanged', async () => {
    const api = createFakeApi();
    api.cann('saveSettings', { ok: false, error: { field: 'table.decks', message: 'decks must be at least 1' } });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const outcome = await store.saveSettings(makeSettings());
    expect(outcome).toEqual({ ok: false, error: { field: 'table.decks', message: 'decks must be at least 1' } });
    expect(store.errors.saveSettings?.message).toBe('decks must be at least 1');
    expect(store.notice).toBeNull();
  });

  it('turns a lost connection into a translatable error', async () => {
    const api = createFakeApi({ race: {} });
    const broken = { ...api, dealCard: () => Promise.reject(Object.assign(new Error('gone'), { name: 'ConnectionLostError' })) } as ConsoleApi;
    const store = useConsoleStore();
    store.connect(broken);
    await settle();
    const outcome = await store.dealCard('as');
    expect(outcome.ok).toBe(false);
    expect(store.errors.dealCard?.key).toBe('errors.connection');
  });

  it('refuses an answer that is not a CommandResult', async () => {
    const api = createFakeApi({ race: { cards: FINNISH_CARDS } });
    api.cann('confirmRace', 'what');
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const outcome = await store.confirmRace();
    expect(outcome.ok).toBe(false);
    expect(store.errors.confirmRace?.key).toBe('errors.badAnswer');
  });

  it('voids with the manual-correction reason by default', async () => {
    const api = createFakeApi({ race: { cards: ['Ah', 'Kc'] } });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.voidCards(1);
    expect(api.callsOf('voidCards')).toEqual([['race-1', 1, MANUAL_VOID_REASON]]);
    expect(store.race?.summary.cards).toHaveLength(1);
    expect(store.race?.corrections).toBe(1);
  });

  it('runs a whole race: preview, start, deal, confirm → history', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const preview = await store.previewRace(FINNISH_COUNTS);
    expect(preview.ok && preview.value.raceChips).toBe(2);
    expect(store.preview?.cardsNeeded).toBe(7);
    await store.startRace(FINNISH_COUNTS);
    expect(store.view).toBe('race');
    for (const card of FINNISH_CARDS) await store.dealCard(card);
    expect(store.race?.summary.status).toBe('complete');
    expect(store.race?.summary.awards).toEqual([1, 2]);
    await store.confirmRace();
    expect(api.callsOf('confirmRace')).toEqual([['race-1']]);
    expect(store.race).toBeNull();
    expect(store.state?.history).toMatchObject({ total: 1, latest: { id: 'race-1' } });
    expect(store.view).toBe('history');
    expect(store.notice).toBe('raceSaved');
  });

  it('keeps only the latest preview when answers overtake each other', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const resolvers: Array<(value: unknown) => void> = [];
    const slow = { ...api, previewRace: () => new Promise((resolve) => resolvers.push(resolve as (value: unknown) => void)) } as ConsoleApi;
    store.connect(slow);
    await settle();
    const first = store.previewRace([{ seat: 1, chips: 1, hasOther: true }]);
    const second = store.previewRace(FINNISH_COUNTS);
    const answer = await api.previewRace(FINNISH_COUNTS);
    resolvers[1]?.(answer);
    await second;
    resolvers[0]?.({ ok: false, error: { field: 'seats', message: 'stale' } });
    await first;
    expect(store.preview?.raceChips).toBe(2);
    expect(store.errors.previewRace).toBeNull();
  });

  it('builds counts from the drafts of the seats in play', async () => {
    const store = useConsoleStore();
    store.connect(createFakeApi());
    await settle();
    store.ensureCounts();
    expect(store.countsFromDrafts().complete).toBe(false);
    Object.assign(store.counts[1] ?? {}, { chips: 7 });
    Object.assign(store.counts[2] ?? {}, { chips: 2, hasOther: false });
    Object.assign(store.counts[3] ?? {}, { chips: 0 });
    expect(store.countsFromDrafts()).toEqual({
      complete: true,
      counts: [
        { seat: 1, chips: 7, hasOther: true },
        { seat: 2, chips: 2, hasOther: false },
        { seat: 3, chips: 0, hasOther: true },
      ],
    });
  });

  it('logs each input the service numbered once, by its id: two identical reads in a row are two entries', async () => {
    const api = createFakeApi();
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

  it('shows a card the shoe read and the service refused as the card entry’s error, once per refusal', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const shoeRefusal = { card: 'Ah', field: 'card', message: 'Ah was already dealt (to seat 1)' };
    api.push(makeState({ shoeRefusal }));
    expect(store.errors.dealCard).toEqual({ field: 'card', message: 'Ah was already dealt (to seat 1)' });
    // The headline says it too: the refusal is the latest read refused, from the shoe.
    expect(store.scanRefused).toMatchObject({ raw: 'Ah', from: 'shoe' });
    // Cleared on screen (the dealer typed, or the next card came): the same refusal pushed again does not bring it back.
    store.clearError('dealCard');
    api.push(makeState({ shoeRefusal: { ...shoeRefusal } }));
    expect(store.errors.dealCard).toBeNull();
    expect(store.scanRefused).toBeNull();
    api.push(makeState({ shoeRefusal: null }));
    api.push(makeState({ shoeRefusal }));
    expect(store.errors.dealCard?.message).toBe('Ah was already dealt (to seat 1)');
  });

  it('switches the language with a command of its own, sending nothing else of the settings', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.setLanguage('fi');
    expect(api.callsOf('setLanguage')).toEqual([['fi']]);
    expect(api.callsOf('saveSettings')).toEqual([]);
    expect(store.settings).toEqual({ ...makeSettings(), language: 'fi' });
    await store.setLanguage('fi');
    expect(api.callsOf('setLanguage')).toHaveLength(1);
  });

  it('marks the break, starts the colour-up and saves the structure as commands of their own: a stale window undoes nothing', async () => {
    const api = createFakeApi({ state: makeTournamentState({ atBreakAfter: null }) });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    // What a second window, behind this one, would still hold.
    const stale = store.settings as ConsoleSettings;
    await store.markBreak(6);
    expect(api.callsOf('markBreak')).toEqual([[6]]);
    await store.saveStructure({ ...stale, tournament: { structure: { ...TOURNAMENT_STRUCTURE, startingStack: 20000 }, atBreakAfter: null } });
    expect(api.callsOf('saveStructure')).toEqual([[{ ...TOURNAMENT_STRUCTURE, startingStack: 20000 }]]);
    expect(store.settings?.tournament).toEqual({ structure: { ...TOURNAMENT_STRUCTURE, startingStack: 20000 }, atBreakAfter: 6 });
    expect(store.notice).toBe('structureSaved');
    const [first] = store.plan?.proposal?.races ?? [];
    expect(await store.startColorUp(first as RaceStep)).toEqual({ ok: true, value: null });
    expect(api.callsOf('startColorUp')).toEqual([[6, 100]]);
    expect(store.settings?.table).toMatchObject({ removed: 100, next: 500 });
    expect(store.view).toBe('race');
    expect(api.callsOf('saveSettings')).toEqual([]);
  });

  it('takes the colour-up progress from the service state, not from the browser storage', async () => {
    const api = createFakeApi({ state: makeTournamentState({ atBreakAfter: 6 }) });
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
    const api = createFakeApi();
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

  it('stops listening on disconnect', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(api.listenerCount()).toBe(1);
    store.disconnect();
    expect(api.listenerCount()).toBe(0);
  });

  it('lists ports and exports history', async () => {
    const api = createFakeApi({ ports: [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001' }] });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.listPorts();
    expect(store.ports.map((port) => port.path)).toEqual(['/dev/ttyUSB0']);
    const exported = await store.exportHistory('json');
    expect(exported).toEqual({ ok: true, value: '[]' });
  });

  it('deals a scan on the race screen; on the counts screen keeps it as not dealt, to be scanned again', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    store.navigate('race');
    expect(store.scanPlace).toBe('counts');
    expect((await store.scanned('Kc')).ok).toBe(false);
    expect(api.callsOf('dealScan')).toEqual([]);
    expect(store.scanAway).toEqual({ raw: 'Kc', place: 'counts' });

    await store.startRace(FINNISH_COUNTS);
    expect(store.scanPlace).toBe('deal');
    // Still waiting to be scanned again.
    expect(store.scanAway).toEqual({ raw: 'Kc', place: 'counts' });
    expect((await store.scanned(']E0KC')).ok).toBe(true);
    expect(api.callsOf('dealScan')).toEqual([['race-1', ']E0KC']]);
    expect(store.race?.summary.cards.map((card) => card.card)).toEqual(['Kc']);
    expect(store.scanAway).toBeNull();
  });

  it('keeps a scan away from the deal on other screens, saying whether a race is open', async () => {
    const store = useConsoleStore();
    store.connect(createFakeApi({ race: { cards: ['Ah'] } }));
    await settle();
    store.navigate('history');
    expect(store.scanPlace).toBe('elsewhere');
    await store.scanned('Kc');
    expect(store.scanAway).toEqual({ raw: 'Kc', place: 'elsewhere' });
    expect(store.race?.summary.cards).toHaveLength(1);
    store.dismissScanAway();
    expect(store.scanAway).toBeNull();

    setActivePinia(createPinia());
    const idle = useConsoleStore();
    idle.connect(createFakeApi());
    await settle();
    idle.navigate('settings');
    expect(idle.scanPlace).toBe('closed');
    await idle.scanned('Kc');
    expect(idle.scanAway).toEqual({ raw: 'Kc', place: 'closed' });
  });

  it('remembers a refused scan while its refusal is the one shown, until the next card is taken or tried', async () => {
    const api = createFakeApi({ race: { cards: ['Ah'] } });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    await store.scanned('AH');
    expect(store.scanRefused?.raw).toBe('AH');
    expect(store.errors.dealCard?.message).toContain('Ah was already dealt');
    await store.scanned('X9');
    expect(store.scanRefused?.raw).toBe('X9');
    expect(store.errors.dealCard).toMatchObject({ field: 'scan' });
    await store.dealCard('kc');
    expect(store.scanRefused).toBeNull();
    await store.scanned('zz');
    expect(store.scanRefused?.raw).toBe('zz');
    await store.voidCards(1);
    expect(store.scanRefused).toBeNull();
  });
});

describe('console store: device profiles', () => {
  const rfid = makeSettings({ source: { kind: 'serial', path: '/dev/ttyUSB0', decoder: 'rfid' } });

  it('imports a profile file through the service: the profile it stored, or its refusal as the action’s error', async () => {
    const api = createFakeApi();
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    const imported = await store.importProfile({ ...VENDOR_PROFILE });
    expect(imported).toMatchObject({ ok: true, value: { name: 'vendor-x', builtIn: false } });
    expect(store.state?.profiles.at(-1)?.name).toBe('vendor-x');
    const refused = await store.importProfile({ name: 'text', framing: { kind: 'lines' }, decoder: { kind: 'text' } });
    expect(refused.ok).toBe(false);
    expect(store.errors.importProfile).toEqual({ field: 'profile.name', message: '"text" is the name of a built-in profile: give yours another' });
  });

  it('tells a registration that finished (its profile stored and chosen) from one stopped', async () => {
    const api = createFakeApi({ state: makeState({ settings: rfid }) });
    const store = useConsoleStore();
    store.connect(api);
    await settle();
    expect(await store.registerDeck('deck-1')).toEqual({ ok: true, value: null });
    expect(store.state?.registration).toMatchObject({ name: 'deck-1', registered: 0 });
    // Stopped: no notice.
    await store.registerDeck(null);
    expect(store.state?.registration).toBeNull();
    expect(store.notice).toBeNull();
    expect(store.registeredDeck).toBeNull();
    // Finished: the registration gone, its profile chosen.
    await store.registerDeck('deck-1');
    api.push({ ...api.current, registration: { name: 'deck-1', registered: 51, total: 52, next: 'Kc', problem: null } });
    api.push({ ...api.current, registration: null, profiles: [...api.current.profiles, DECK_PROFILE_INFO], settings: { ...rfid, source: { ...rfid.source, decoder: 'deck-1' } } });
    expect(store.notice).toBe('deckRegistered');
    expect(store.registeredDeck).toBe('deck-1');
    store.navigate('setup');
    expect(store.notice).toBeNull();
  });
});
