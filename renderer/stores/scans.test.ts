import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { MANUAL_VOID_REASON } from '../../engine/race/explain';
import { createStubApi } from '../testing/stubApi';
import { createKernelApi } from '../testing/kernelApi';
import { FINNISH_COUNTS, makeState } from '../testing/fixtures';
import { settle } from '../testing/setup';
import { connectStores } from './connect';

describe('scan store', () => {
  it('shows a card the shoe read and the service refused as the card entry’s error, once per refusal', async () => {
    // The shoe's refusal as the states pushed carry it (the same one pushed again): states given, on the state-only stub.
    const api = createStubApi();
    const { store, scans } = connectStores(api, createPinia());
    await settle();
    const shoeRefusal = { card: 'Ah', field: 'card', message: 'Ah was already dealt (to seat 1)' };
    api.push(makeState({ shoeRefusal }));
    expect(store.errors.dealCard).toEqual({ field: 'card', message: 'Ah was already dealt (to seat 1)' });
    // The headline says it too: the refusal is the latest read refused, from the shoe.
    expect(scans.scanRefused).toMatchObject({ raw: 'Ah', from: 'shoe' });
    // Cleared on screen (the dealer typed, or the next card came): the same refusal pushed again does not bring it back.
    store.clearError('dealCard');
    api.push(makeState({ shoeRefusal: { ...shoeRefusal } }));
    expect(store.errors.dealCard).toBeNull();
    expect(scans.scanRefused).toBeNull();
    api.push(makeState({ shoeRefusal: null }));
    api.push(makeState({ shoeRefusal }));
    expect(store.errors.dealCard?.message).toBe('Ah was already dealt (to seat 1)');
  });
  it('deals a scan on the race screen; on the counts screen keeps it as not dealt, to be scanned again', async () => {
    const api = await createKernelApi();
    const { store, drafts, scans } = connectStores(api, createPinia());
    await settle();
    store.navigate('race');
    expect(scans.scanPlace).toBe('counts');
    expect((await scans.scanned('Kc')).ok).toBe(false);
    expect(api.callsOf('dealScan')).toEqual([]);
    expect(scans.scanAway).toEqual({ raw: 'Kc', place: 'counts', card: 'Kc' });

    await drafts.startRace(FINNISH_COUNTS);
    expect(scans.scanPlace).toBe('deal');
    // Still waiting to be scanned again.
    expect(scans.scanAway).toEqual({ raw: 'Kc', place: 'counts', card: 'Kc' });
    expect((await scans.scanned(']E0KC')).ok).toBe(true);
    expect(api.callsOf('dealScan')).toEqual([['race-1', ']E0KC']]);
    expect(store.race?.summary.cards.map((card) => card.card)).toEqual(['Kc']);
    expect(scans.scanAway).toBeNull();
  });
  it('keeps a scan away from the deal on other screens, saying whether a race is open', async () => {
    const { store, scans } = connectStores(await createKernelApi({ race: { cards: ['Ah'] } }), createPinia());
    await settle();
    store.navigate('history');
    expect(scans.scanPlace).toBe('elsewhere');
    await scans.scanned('Kc');
    expect(scans.scanAway).toEqual({ raw: 'Kc', place: 'elsewhere', card: 'Kc' });
    expect(store.race?.summary.cards).toHaveLength(1);
    scans.dismissScanAway();
    expect(scans.scanAway).toBeNull();

    const { store: idle, scans: idleScans } = connectStores(await createKernelApi(), createPinia());
    await settle();
    idle.navigate('settings');
    expect(idleScans.scanPlace).toBe('closed');
    await idleScans.scanned('Kc');
    expect(idleScans.scanAway).toEqual({ raw: 'Kc', place: 'closed', card: 'Kc' });
  });
  it('names a scan away from the deal by the service’s reading (the scanner’s profile), never one of its own', async () => {
    const api = await createKernelApi();
    const { store, scans } = connectStores(api, createPinia());
    await settle();
    store.navigate('race');
    // The scanner on the suit-number profile: S11 is J♠ to the service, no card in the screen's notation.
    api.cann('readScan', { ok: true, value: { card: 'Js' } });
    await scans.scanned('S11');
    expect(api.callsOf('readScan')).toEqual([['S11']]);
    expect(scans.scanAway).toEqual({ raw: 'S11', place: 'counts', card: 'Js' });
    // Tc read as no card by that profile: no card named, though the screen's notation would read one.
    api.cann('readScan', { ok: true, value: { card: null } });
    await scans.scanned('Tc');
    expect(scans.scanAway).toEqual({ raw: 'Tc', place: 'counts', card: null });
    // The service not answering (the link lost): the scan is still kept, unnamed.
    api.cann('readScan', { ok: false, error: { field: 'connection', message: 'connection to the console service lost' } });
    await scans.scanned('Kc');
    expect(scans.scanAway).toEqual({ raw: 'Kc', place: 'counts', card: null });
  });
  it('remembers a refused scan while its refusal is the one shown, until the next card is taken or tried', async () => {
    const api = await createKernelApi({ race: { cards: ['Ah'] } });
    const { store, scans } = connectStores(api, createPinia());
    await settle();
    await scans.scanned('AH');
    expect(scans.scanRefused?.raw).toBe('AH');
    expect(store.errors.dealCard?.message).toContain('Ah was already dealt');
    await scans.scanned('X9');
    expect(scans.scanRefused?.raw).toBe('X9');
    expect(store.errors.dealCard).toMatchObject({ field: 'scan' });
    await store.run('dealCard', 'kc');
    expect(scans.scanRefused).toBeNull();
    await scans.scanned('zz');
    expect(scans.scanRefused?.raw).toBe('zz');
    await store.run('voidCards', 1, MANUAL_VOID_REASON);
    expect(scans.scanRefused).toBeNull();
  });
});
