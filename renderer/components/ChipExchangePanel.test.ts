// @vitest-environment happy-dom
// Chips exchanged outside a race: late-found chips from a confirmed race's record (its chips), a
// colour-up of a player at a break (the break's chips, a reason required). What the exchange gives
// is shown before it is recorded; no key in a field records it; the record and the counts screen
// say what was recorded.
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createKernelApi, type KernelApi } from '../testing/kernelApi';
import { createStubApi, type StubApi } from '../testing/stubApi';
import { FINNISH_CARDS, FINNISH_COUNTS, makeHistory, makeHistoryEntry, makeState, makeTournamentState } from '../testing/fixtures';
import type { RaceRecord } from '../../protocol/contract';
import { prepare, settle } from '../testing/setup';
import type { Locale } from '../i18n';
import HistoryView from '../views/HistoryView.vue';
import RaceScreen from '../views/RaceScreen.vue';

/** The record of the one race in the history, open: the Finnish example confirmed, on the real kernel. */
async function recordOpen(locale: Locale = 'en') {
  return opened(await createKernelApi({ history: [{ cards: FINNISH_CARDS }] }), locale);
}

/**
 * An abandoned race's record opened from the history: a history entry whose record says abandoned,
 * which the service's history does not list (it lists races confirmed) — a state-only stub's.
 */
async function abandonedRecordOpen() {
  const entry = makeHistoryEntry({ id: 'race-1' });
  const record: RaceRecord = {
    id: 'race-1', status: 'abandoned', startedAt: entry.startedAt, counts: FINNISH_COUNTS, names: entry.names, summary: entry.summary,
    events: [], seqs: { first: 1, last: 9 }, lastSeal: null, chain: 'intact', findings: [],
  };
  const state = makeState({ history: makeHistory([entry]) });
  return opened(createStubApi({ state, answers: { historyPage: { ok: true, value: { total: 1, start: 0, entries: [entry] } }, raceRecord: { ok: true, value: record } } }), 'en');
}

async function opened(api: KernelApi | StubApi, locale: Locale) {
  const prepared = await prepare({ api, locale });
  const wrapper = mount(HistoryView, { global: { plugins: prepared.plugins }, attachTo: document.body });
  await settle();
  await wrapper.get('[data-testid="history-open-record"]').trigger('click');
  await settle();
  return { ...prepared, wrapper };
}

const recordDisabled = (wrapper: Awaited<ReturnType<typeof opened>>['wrapper']) => wrapper.get('[data-testid="chip-exchange-record"]').attributes('disabled') !== undefined;

describe('late-found chips on a race record', () => {
  it('are offered on a confirmed race only; Escape closes the dialog with nothing recorded', async () => {
    const abandoned = await abandonedRecordOpen();
    expect(abandoned.wrapper.find('[data-testid="record-late-found"]').exists()).toBe(false);
    abandoned.wrapper.unmount();
    const { wrapper, api } = await recordOpen();
    await wrapper.get('[data-testid="record-late-found"]').trigger('click');
    await wrapper.get('[data-testid="chip-exchange-count"]').setValue(4);
    await wrapper.get('[data-testid="chip-exchange"]').trigger('keydown', { key: 'Escape' });
    expect(wrapper.find('[data-testid="chip-exchange"]').exists()).toBe(false);
    expect(api.callsOf('recordChipExchange')).toEqual([]);
    wrapper.unmount();
  });

  it("show what they give before they are recorded, at the race's chips; no key records them; the record then lists them", async () => {
    const { wrapper, api } = await recordOpen();
    await wrapper.get('[data-testid="record-late-found"]').trigger('click');
    const panel = wrapper.get('[data-testid="chip-exchange"]');
    expect(panel.get('h3').text()).toBe('Late-found chips of race-1');
    expect(panel.get('[data-testid="chip-exchange-chips"]').text()).toBe('25 chips for 100');
    expect(recordDisabled(wrapper)).toBe(true);
    await panel.get('[data-testid="chip-exchange-count"]').setValue(5);
    expect(panel.get('[data-testid="chip-exchange-gives"]').text()).toBe('1 × 100 given, 1 × 25 taken off (-25)');
    await panel.get('[data-testid="chip-exchange-seat"]').setValue('3');
    await panel.get('[data-testid="chip-exchange-note"]').setValue(' under the chair ');
    // A stray Enter (a scanner's) in a field records nothing.
    await panel.get('[data-testid="chip-exchange-count"]').trigger('keydown', { key: 'Enter' });
    await panel.get('[data-testid="chip-exchange-note"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(api.callsOf('recordChipExchange')).toEqual([]);
    expect(recordDisabled(wrapper)).toBe(false);
    await panel.get('[data-testid="chip-exchange-record"]').trigger('click', { detail: 1 });
    await settle();
    expect(api.callsOf('recordChipExchange')).toEqual([[{ reason: 'late-found', raceId: 'race-1', seat: 3, removed: 25, next: 100, count: 5, note: 'under the chair' }]]);
    expect(wrapper.find('[data-testid="chip-exchange"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="record-late-found-chips"]').text()).toMatch(/^.+: 5 × 25 found — 1 × 100 given, 1 × 25 taken off \(-25\) · Seat 3 — Johanna · under the chair$/);
    wrapper.unmount();
  });

  // The value signed as the language writes it (engine/messages groupedDelta): a true minus in Finnish.
  it.each([
    ['fi', 'annettu 1 × 100, poistettu 1 × 25 (−25)'],
    ['ru', 'выдано 1 × 100, снято 1 × 25 (-25)'],
  ] as const)('say what they give in %s', async (locale, gives) => {
    const { wrapper } = await recordOpen(locale);
    await wrapper.get('[data-testid="record-late-found"]').trigger('click');
    await wrapper.get('[data-testid="chip-exchange-count"]').setValue(5);
    expect(wrapper.get('[data-testid="chip-exchange-gives"]').text()).toBe(gives);
    wrapper.unmount();
  });
});

describe('a colour-up of a player', () => {
  async function counts(atBreakAfter: number | null) {
    const prepared = await prepare({ api: await createKernelApi({ settings: makeTournamentState().settings, markBreak: atBreakAfter }) });
    const wrapper = mount(RaceScreen, { global: { plugins: prepared.plugins }, attachTo: document.body });
    await settle();
    return { ...prepared, wrapper };
  }

  it("is offered at any time (TDA 25B, issue 25: it was at a break only): outside a break with the table's own chips", async () => {
    const { wrapper, store } = await counts(null);
    await wrapper.get('[data-testid="colour-up-player"]').trigger('click');
    const table = store.settings?.table;
    expect(wrapper.get('[data-testid="chip-exchange-chips"]').text()).toContain(String(table?.removed));
    expect(wrapper.get('[data-testid="chip-exchange-chips"]').text()).toContain(String(table?.next));
    wrapper.unmount();
  });

  it("asks the reason, offers the break's chips, and says what was recorded", async () => {
    const { wrapper, api, store } = await counts(6);
    await wrapper.get('[data-testid="colour-up-player"]').trigger('click');
    const panel = wrapper.get('[data-testid="chip-exchange"]');
    const races = store.plan?.proposal?.races ?? [];
    expect(races.length).toBeGreaterThan(0);
    const first = races[0] as { removed: number; next: number };
    await panel.get('[data-testid="chip-exchange-count"]').setValue(3);
    expect(panel.get('[data-testid="chip-exchange-reason-needed"]').text()).toBe('A colour-up outside a race needs its reason: the floor announces it.');
    expect(recordDisabled(wrapper)).toBe(true);
    await panel.get('[data-testid="chip-exchange-note"]').setValue('table 4 broken');
    expect(recordDisabled(wrapper)).toBe(false);
    await panel.get('[data-testid="chip-exchange-record"]').trigger('click', { detail: 1 });
    await settle();
    expect(api.callsOf('recordChipExchange')).toEqual([[{ reason: 'discretionary', raceId: null, seat: null, removed: first.removed, next: first.next, count: 3, note: 'table 4 broken' }]]);
    expect(wrapper.find('[data-testid="chip-exchange"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="colour-up-player-done"]').text()).toContain(`Colour-up of a player recorded: 3 × ${first.removed}`);
    wrapper.unmount();
  });
});
