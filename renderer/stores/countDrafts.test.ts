import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import type { ConsoleApi } from '../../protocol/commands';
import { createKernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS, FINNISH_COUNTS, makeTournamentState } from '../testing/fixtures';
import { settle } from '../testing/setup';
import { connectStores } from './connect';

describe('count drafts store', () => {
  it('runs a whole race: preview, start, deal, confirm → history', async () => {
    const api = await createKernelApi();
    const { store, drafts } = connectStores(api, createPinia());
    await settle();
    const preview = await drafts.previewRace(FINNISH_COUNTS);
    expect(preview.ok && preview.value.raceChips).toBe(2);
    expect(drafts.preview?.cardsNeeded).toBe(7);
    await drafts.startRace(FINNISH_COUNTS);
    expect(store.view).toBe('race');
    for (const card of FINNISH_CARDS) await store.run('dealCard', card);
    expect(store.race?.summary.status).toBe('complete');
    expect(store.race?.summary.awards).toEqual([1, 2]);
    await store.run('confirmRace');
    expect(api.callsOf('confirmRace')).toEqual([['race-1']]);
    expect(store.race).toBeNull();
    expect(store.state?.history).toMatchObject({ total: 1, latest: { id: 'race-1' } });
    expect(store.view).toBe('history');
    expect(store.notice).toBe('raceSaved');
  });
  it('keeps only the latest preview when answers overtake each other', async () => {
    const api = await createKernelApi();
    const { store, drafts } = connectStores(api, createPinia());
    await settle();
    const resolvers: Array<(value: unknown) => void> = [];
    const slow = { ...api, previewRace: () => new Promise((resolve) => resolvers.push(resolve as (value: unknown) => void)) } as ConsoleApi;
    store.connect(slow);
    await settle();
    const first = drafts.previewRace([{ seat: 1, chips: 1, hasOther: true }]);
    const second = drafts.previewRace(FINNISH_COUNTS);
    const answer = await api.previewRace(FINNISH_COUNTS);
    resolvers[1]?.(answer);
    await second;
    resolvers[0]?.({ ok: false, error: { field: 'seats', message: 'stale' } });
    await first;
    expect(drafts.preview?.raceChips).toBe(2);
    expect(store.errors.previewRace).toBeNull();
  });
  it('builds counts from the drafts of the seats in play', async () => {
    const { drafts } = connectStores(await createKernelApi(), createPinia());
    await settle();
    drafts.ensureCounts();
    expect(drafts.countsFromDrafts().complete).toBe(false);
    Object.assign(drafts.counts[1] ?? {}, { chips: 7 });
    Object.assign(drafts.counts[2] ?? {}, { chips: 2, hasOther: false });
    Object.assign(drafts.counts[3] ?? {}, { chips: 0 });
    expect(drafts.countsFromDrafts()).toEqual({
      complete: true,
      counts: [
        { seat: 1, chips: 7, hasOther: true },
        { seat: 2, chips: 2, hasOther: false },
        { seat: 3, chips: 0, hasOther: true },
      ],
    });
  });

  it('clears the counts typed once the race they were for is confirmed, and when a colour-up sets the next race', async () => {
    const { store, drafts } = connectStores(await createKernelApi({ settings: makeTournamentState().settings, markBreak: 6 }), createPinia());
    await settle();
    drafts.ensureCounts();
    drafts.setCount(1, { chips: 7 });
    expect(drafts.counts[1]?.chips).toBe(7);
    const [first] = store.plan?.proposal?.races ?? [];
    expect((await store.run('startColorUp', 6, first?.removed ?? 0)).ok).toBe(true);
    expect(drafts.counts[1]?.chips).toBe('');
    drafts.setCount(1, { chips: 3 });
    // A refused command clears nothing.
    expect((await store.run('startColorUp', 6, 1)).ok).toBe(false);
    expect(drafts.counts[1]?.chips).toBe(3);
  });

  it("keeps the counts typed while the colour-up's command was on its way (the dealer types on at once), and clears the rest", async () => {
    // e2e/break-ends on CI: Start colour-up tapped on the counts screen, the counts filled at once,
    // and the command's answer, coming after them, emptied every field: Start race stayed disabled.
    const api = await createKernelApi({ settings: makeTournamentState().settings, markBreak: 6 });
    const { store, drafts } = connectStores(api, createPinia());
    await settle();
    drafts.ensureCounts();
    for (const seat of [1, 2, 3]) drafts.setCount(seat, { chips: 9 });
    let answer: (value: unknown) => void = () => undefined;
    store.connect({ ...api, startColorUp: (...args: Parameters<ConsoleApi['startColorUp']>) => new Promise((resolve) => (answer = () => resolve(api.startColorUp(...args)))) } as ConsoleApi);
    await settle();
    const [first] = store.plan?.proposal?.races ?? [];
    const started = store.run('startColorUp', 6, first?.removed ?? 0);
    drafts.setCount(1, { chips: 4 });
    drafts.setCount(2, { hasOther: false });
    answer(undefined);
    expect((await started).ok).toBe(true);
    expect(drafts.counts[1]).toEqual({ chips: 4, hasOther: true });
    expect(drafts.counts[2]).toEqual({ chips: 9, hasOther: false });
    // Seat 3 was not touched after the tap: its count was for the race before.
    expect(drafts.counts[3]).toEqual({ chips: '', hasOther: true });
  });
});
