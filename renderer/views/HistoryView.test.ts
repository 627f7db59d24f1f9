// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStubApi } from '../testing/stubApi';
import type { CommandName } from '../../protocol/commands';
import type { HistoryEntry, RaceRecord } from '../../protocol/contract';
import { createKernelApi } from '../testing/kernelApi';
import { FINNISH_CARDS, FINNISH_COUNTS, makeHistory, makeHistoryEntry, makeState } from '../testing/fixtures';
import { gameHistoryOf, playMatch, startEvent } from '../testing/gameFixtures';
import { prepare, settle } from '../testing/setup';
import HistoryView from './HistoryView.vue';

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * The state-only stub holding these history entries (oldest first; fewer than a page): the state's
 * history part and the page historyPage answers, and the record raceRecord answers, as given.
 */
function historyStub(entries: readonly HistoryEntry[], record?: RaceRecord) {
  return createStubApi({
    state: makeState({ history: makeHistory(entries) }),
    answers: { historyPage: { ok: true, value: { total: entries.length, start: 0, entries } }, ...(record === undefined ? {} : { raceRecord: { ok: true, value: record } }) },
  });
}

describe('history', () => {
  it('lists confirmed races newest first with chips, rules, winners, value and corrections', async () => {
    // The Finnish example confirmed at 18:30; again half an hour later on the TDA's rules, two cards voided first.
    const api = await createKernelApi({ history: [{ cards: FINNISH_CARDS }] });
    const run = async (method: CommandName, ...args: unknown[]) => expect(await api.station.run(method, ...args)).toEqual({ ok: true, value: null });
    api.station.advance(30 * 60_000);
    const { language, tournament: _tournament, display: _display, ...input } = api.current.settings;
    await run('saveSettings', { ...input, language, table: { ...input.table, rules: 'tda' } });
    await run('startRace', FINNISH_COUNTS);
    const id = api.current.race?.id ?? '';
    for (const card of ['Ks', 'Qs']) await run('dealCard', id, card);
    await run('voidCards', id, 2, 'manual correction');
    for (const card of FINNISH_CARDS) await run('dealCard', id, card);
    await run('confirmRace', id);
    const { plugins } = await prepare({ api });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    const rows = wrapper.findAll('[data-testid="history-row"]');
    expect(rows.map((row) => row.attributes('data-id'))).toEqual(['race-2', 'race-1']);
    const first = rows[0];
    expect(first?.text()).toContain('25 → 100');
    expect(first?.text()).toContain('TDA rule');
    expect(first?.get('[data-testid="history-winners"]').text()).toBe('Seat 1 — Matti (A♥), Seat 2 — Teppo (10♠)');
    expect(first?.get('[data-testid="history-value"]').text()).toBe('+25');
    expect(first?.get('[data-testid="history-corrections"]').text()).toBe('2');
    expect(first?.get('time').attributes('datetime')).toBe('2024-05-04T19:00:00.000Z');
    wrapper.unmount();
  });

  it('says so when there is no history', async () => {
    const { plugins } = await prepare({ api: await createKernelApi() });
    const wrapper = mount(HistoryView, { global: { plugins } });
    expect(wrapper.get('[data-testid="history-empty"]').text()).toBe('No races confirmed yet.');
    wrapper.unmount();
  });

  it('in the browser, offers the exports as links to the station’s streamed download, making no Blob and calling no command', async () => {
    const created = vi.spyOn(URL, 'createObjectURL');
    const { plugins, api } = await prepare({ api: await createKernelApi({ history: [{ cards: FINNISH_CARDS }] }) });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    const csv = wrapper.get('[data-testid="export-csv"]');
    expect(csv.element.tagName).toBe('A');
    expect(csv.attributes('href')).toBe('/export/history.csv');
    expect(csv.attributes('download')).toMatch(/^chip-races-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.text()).toBe('Export CSV');
    const json = wrapper.get('[data-testid="export-json"]');
    expect(json.attributes('href')).toBe('/export/history.json');
    expect(json.attributes('download')).toMatch(/^chip-races-\d{4}-\d{2}-\d{2}\.json$/);
    expect(json.text()).toBe('Export JSON');
    expect(api.callsOf('exportHistory')).toEqual([]);
    expect(created).not.toHaveBeenCalled();
    wrapper.unmount();
  });

  /** The Electron window: its preload is there (the screens still talk to the stand-in API). */
  function inElectron(): () => void {
    window.chipRace = {} as NonNullable<typeof window.chipRace>;
    return () => {
      delete window.chipRace;
    };
  }

  it('in the Electron window, has the station save each export where the dealer picks, and says where', async () => {
    const leave = inElectron();
    try {
      const created = vi.spyOn(URL, 'createObjectURL');
      // The dealer's save dialog answers a file in a folder of the test's.
      const folder = mkdtempSync(join(tmpdir(), 'chip-races-export-'));
      const saved = join(folder, 'chip-races.csv');
      const { plugins, api } = await prepare({ api: await createKernelApi({ history: [{ cards: FINNISH_CARDS }], chooseExportFile: () => Promise.resolve(saved) }) });
      const wrapper = mount(HistoryView, { global: { plugins } });
      await settle();
      expect(wrapper.get('[data-testid="export-csv"]').element.tagName).toBe('BUTTON');
      expect(wrapper.find('[data-testid="export-saved"]').exists()).toBe(false);
      await wrapper.get('[data-testid="export-csv"]').trigger('click');
      await settle();
      expect(api.callsOf('exportHistory')).toEqual([['csv']]);
      expect(wrapper.get('[data-testid="export-saved"]').text()).toBe(`Saved to ${saved}`);
      expect(readFileSync(saved, 'utf8')).toContain('race-1');
      // The dialog closed without a file: nothing said.
      api.cann('exportHistory', { ok: true, value: null });
      await wrapper.get('[data-testid="export-json"]').trigger('click');
      await settle();
      expect(api.callsOf('exportHistory')).toEqual([['csv'], ['json']]);
      expect(wrapper.find('[data-testid="export-saved"]').exists()).toBe(false);
      expect(created).not.toHaveBeenCalled();
      wrapper.unmount();
      rmSync(folder, { recursive: true, force: true });
    } finally {
      leave();
    }
  });

  it('fetches the history a page at a time: the latest page first, older ones on request, a new race added as it is confirmed', async () => {
    // Thirty races of the Finnish example raced and confirmed, the thirty-first dealt but its last card.
    const api = await createKernelApi({ history: Array.from({ length: 30 }, () => ({ cards: FINNISH_CARDS })), race: { cards: ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td'] } });
    const { plugins } = await prepare({ api });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    expect(api.callsOf('historyPage')).toEqual([[null, 25]]);
    const ids = () => wrapper.findAll('[data-testid="history-row"]').map((row) => row.attributes('data-id'));
    expect(ids()).toHaveLength(25);
    expect(ids()[0]).toBe('race-30');
    expect(wrapper.get('[data-testid="history-total"]').text()).toContain('30 races confirmed, value +750');
    await wrapper.get('[data-testid="history-older"]').trigger('click');
    await settle();
    expect(api.callsOf('historyPage')).toEqual([[null, 25], [5, 25]]);
    expect(ids()).toHaveLength(30);
    expect(wrapper.find('[data-testid="history-older"]').exists()).toBe(false);
    // A race confirmed while the page is open arrives as the state's latest: added, no page fetched.
    await api.dealCard('race-31', 'Tc');
    await api.confirmRace('race-31');
    await settle();
    expect(ids()).toHaveLength(31);
    expect(api.callsOf('historyPage')).toHaveLength(2);
    wrapper.unmount();
  });

  it("opens a race's record: counts, every card with its seat, voids with reasons, refusals, the chain's verdict; prints as a slip", async () => {
    const entry = makeHistoryEntry({ id: 'race-1' });
    const record = {
      id: 'race-1', status: 'confirmed' as const, startedAt: '2024-05-04T18:30:00.000Z', counts: entry.summary.exchange.map(({ seat }) => ({ seat, chips: 2, hasOther: true })),
      names: entry.names, summary: entry.summary, seqs: { first: 1, last: 12 }, lastSeal: 'ab'.repeat(32), chain: 'broken' as const,
      findings: [{ code: 'altered' as const, seq: 5, skipped: false }],
      events: [
        { seq: 1, at: '2024-05-04T18:30:00.000Z', type: 'start' as const },
        { seq: 2, at: '2024-05-04T18:30:05.000Z', type: 'card' as const, card: 'Ah', seat: 1, round: 0, source: 'shoe' as const, held: false },
        { seq: 3, at: '2024-05-04T18:30:06.000Z', type: 'card' as const, card: 'Qs', seat: 1, round: 0, source: 'shoe' as const, held: true },
        { seq: 4, at: '2024-05-04T18:30:09.000Z', type: 'void' as const, voided: [{ card: 'Qs', seat: 1, round: 0, reason: 'dealt face up' }, { card: 'Kd', seat: 2, round: 0, reason: 'manual correction' }] },
        // An older station's refusal, in English only; a scan refused and recorded in keys.
        { seq: 5, at: '2024-05-04T18:30:10.000Z', type: 'refused' as const, input: 'Ah', reason: 'Ah was already dealt', source: 'shoe' as const, count: 40 },
        { seq: 6, at: '2024-05-04T18:30:11.000Z', type: 'refused' as const, input: 'X9', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } as const, source: 'scanner' as const, count: 1 },
        { seq: 12, at: '2024-05-04T18:34:00.000Z', type: 'confirm' as const },
      ],
    };
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { plugins } = await prepare({ api: historyStub([entry], record), locale: 'fi' });
    const wrapper = mount(HistoryView, { global: { plugins }, attachTo: document.body });
    await settle();
    await wrapper.get('[data-testid="history-open-record"]').trigger('click');
    await settle();
    const slip = wrapper.get('[data-testid="race-record"]');
    expect(slip.attributes('data-chain')).toBe('broken');
    expect(slip.get('[data-testid="record-chain"]').text()).toBe('Kirjanpitoa on muutettu jälkikäteen: katso havainnot. Kerro salivalvojalle.');
    expect(slip.get('[data-testid="record-findings"]').text()).toBe('Kirjausta 5 on muutettu kirjoittamisen jälkeen: sen sinetti ei täsmää.');
    const events = slip.findAll('[data-testid="record-event"]').map((row) => row.findAll('td').map((cell) => cell.text()));
    expect(events.map((cells) => [cells[0], cells[2], cells[3]])).toEqual([
      ['1', 'Arvonta aloitettu', ''],
      ['2', 'A♥ → Paikka 1 — Matti', 'kenkä'],
      ['3', 'Q♠ → Paikka 1 — Matti', 'kenkä, jakajan hyväksymä häiriöisen lukeman jälkeen'],
      // The dealer's reason as typed; the console's own (the void button's) in the reader's language.
      ['4', 'Mitätöity: Q♠, Paikka 1 — Matti (dealt face up); K♦, Paikka 2 — Teppo (käsin korjattu)', ''],
      ['5', 'Hylätty Ah 40 kertaa: Ah was already dealt', 'kenkä'],
      ['6', 'Hylätty X9: ei ole korttikoodi', 'viivakoodinlukija'],
      ['12', 'Vahvistettu', ''],
    ]);
    // Only the reason recorded in English is marked so.
    expect(slip.findAll('[data-testid="record-refused-why"]').map((why) => why.attributes('lang') ?? null)).toEqual(['en', null]);
    expect(slip.get('[data-testid="record-seal"]').text()).toContain('ab'.repeat(32));
    expect(document.activeElement?.id).toBe('record-title');
    await slip.get('[data-testid="record-print"]').trigger('click');
    expect(print).toHaveBeenCalledOnce();
    await slip.get('[data-testid="record-close"]').trigger('click');
    await settle();
    expect(wrapper.find('[data-testid="race-record"]').exists()).toBe(false);
    wrapper.unmount();
    vi.unstubAllGlobals();
  });

  it('shows a refused export (the Electron window: a file the disk would not take)', async () => {
    window.chipRace = {} as NonNullable<typeof window.chipRace>;
    try {
      const api = createStubApi();
      api.cann('exportHistory', { ok: false, error: { field: 'format', message: 'cannot write' } });
      const { plugins } = await prepare({ api });
      const wrapper = mount(HistoryView, { global: { plugins } });
      await wrapper.get('[data-testid="export-json"]').trigger('click');
      await settle();
      expect(wrapper.get('[data-testid="export-error"]').text()).toBe('Not done: cannot write');
      expect(wrapper.find('[data-testid="export-saved"]').exists()).toBe(false);
      wrapper.unmount();
    } finally {
      delete window.chipRace;
    }
  });
});

describe('history: table, level, station, running total', () => {
  it('shows each race’s table, colour-up level and station, and the running total of value created, in the screen’s language', async () => {
    const entries = [
      { ...makeHistoryEntry({ id: 'race-1', confirmedAt: '2024-05-04T18:00:00.000Z', seq: 1 }), table: 'Table 7', station: 'table-pc-1', level: 4 },
      { ...makeHistoryEntry({ id: 'race-2', confirmedAt: '2024-05-04T19:00:00.000Z', seq: 21 }), table: 'Table 7', station: 'table-pc-1' },
      { ...makeHistoryEntry({ id: 'race-3', confirmedAt: '2024-05-04T20:00:00.000Z', seq: 41 }), summary: { ...makeHistoryEntry().summary, valueDelta: -1250 } },
    ];
    const { plugins, i18n } = await prepare({ api: historyStub(entries) });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    const headings = wrapper.findAll('th').map((cell) => cell.text());
    expect(headings).toEqual(expect.arrayContaining(['Table', 'Level', 'Station', 'Running total']));
    const rows = wrapper.findAll('[data-testid="history-row"]');
    const cells = (testid: string) => rows.map((row) => row.get(`[data-testid="${testid}"]`).text());
    expect(cells('history-table-name')).toEqual(['—', 'Table 7', 'Table 7']);
    expect(cells('history-level')).toEqual(['—', '—', 'after level 4']);
    expect(cells('history-station')).toEqual(['—', 'table-pc-1', 'table-pc-1']);
    // Newest first: all three (+25 +25 −1,250), then the two before it, then the first.
    expect(cells('history-running')).toEqual(['-1,200', '+50', '+25']);
    expect(cells('history-value')).toEqual(['-1,250', '+25', '+25']);
    // In Finnish: the Finnish minus sign and grouping, the Finnish date.
    i18n.global.locale.value = 'fi';
    await settle();
    expect(cells('history-running')[0]).toBe(new Intl.NumberFormat('fi', { signDisplay: 'exceptZero' }).format(-1200));
    expect(cells('history-running')[0]).toMatch(/^\u2212/);
    expect(rows[0]?.get('time').text()).toBe(new Intl.DateTimeFormat('fi', { dateStyle: 'short', timeStyle: 'short' }).format(new Date('2024-05-04T20:00:00.000Z')));
    expect(cells('history-level')[2]).toBe('tason 4 jälkeen');
    wrapper.unmount();
  });

  it('leaves the level column out without a structure or a colour-up race', async () => {
    const { plugins } = await prepare({ api: await createKernelApi({ history: [{ cards: FINNISH_CARDS }] }) });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    expect(wrapper.findAll('[data-testid="history-row"]')).toHaveLength(1);
    expect(wrapper.findAll('th').map((cell) => cell.text())).not.toContain('Level');
    expect(wrapper.find('[data-testid="history-level"]').exists()).toBe(false);
    wrapper.unmount();
  });
});

describe('a race’s record slip: where the race ran', () => {
  it('prints the table, the colour-up level and the station when the record has them', async () => {
    const entry = { ...makeHistoryEntry({ id: 'race-1' }), table: 'Table 7', station: 'table-pc-1', level: 4 };
    const record = {
      id: 'race-1', status: 'confirmed' as const, startedAt: '2024-05-04T18:30:00.000Z', counts: [], names: entry.names, summary: entry.summary,
      seqs: { first: 1, last: 2 }, lastSeal: null, chain: 'intact' as const, findings: [], table: 'Table 7', station: 'table-pc-1', level: 4,
      events: [{ seq: 1, at: '2024-05-04T18:30:00.000Z', type: 'start' as const }, { seq: 2, at: '2024-05-04T18:34:00.000Z', type: 'confirm' as const }],
    };
    const { plugins } = await prepare({ api: historyStub([entry], record), locale: 'ru' });
    const wrapper = mount(HistoryView, { global: { plugins }, attachTo: document.body });
    await settle();
    await wrapper.get('[data-testid="history-open-record"]').trigger('click');
    await settle();
    const slip = wrapper.get('[data-testid="race-record"]');
    expect(slip.get('[data-testid="record-table"]').text()).toBe('Стол: Table 7');
    expect(slip.get('[data-testid="record-level"]').text()).toBe('Смена номиналов после уровня 4');
    expect(slip.get('[data-testid="record-station"]').text()).toBe('Станция: table-pc-1');
    wrapper.unmount();
  });
});

describe('history: the rules a race ran (issue 41: the house settings were left out)', () => {
  /** The Finnish example as a house ran it: classic, with the deal from seat 1 and high card takes all. */
  function houseRace() {
    const entry = makeHistoryEntry({ id: 'h', confirmedAt: '2024-05-04T19:00:00.000Z' });
    return { ...entry, summary: { ...entry.summary, settings: { ...entry.summary.settings, dealStart: 'seat-1', award: 'high-card-takes-all' } } } as typeof entry;
  }

  it.each([
    ['en', 'Classic (home game, Wikipedia)', 'house rules: deal from seat 1; high card takes all the chips (more than one a player)'],
    ['fi', 'Klassinen (kotipelit, Wikipedia)', 'talon säännöt: '],
    ['ru', 'Классические (домашние игры, Википедия)', 'правила стола: '],
  ] as const)('%s: beside the rule set, the settings it ran on its own; none beside a race run by the rule set as it is', async (locale, rules, house) => {
    const plain = makeHistoryEntry({ id: 'p', confirmedAt: '2024-05-04T18:00:00.000Z' });
    const { plugins, missing } = await prepare({ api: historyStub([plain, houseRace()]), locale });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    const [ran, asIs] = wrapper.findAll('[data-testid="history-row"]');
    expect(ran?.get('[data-testid="history-rules"]').text()).toContain(rules);
    expect(ran?.get('[data-testid="history-house"]').text()).toContain(house);
    expect(ran?.get('[data-testid="history-house"]').text().split('; ')).toHaveLength(2);
    expect(asIs?.get('[data-testid="history-rules"]').text()).toBe(rules);
    expect(asIs?.find('[data-testid="history-house"]').exists()).toBe(false);
    expect(missing).toEqual([]);
    wrapper.unmount();
  });
});

describe('history: a race a damaged journal line belongs to (issue 44)', () => {
  /** Race 1 whole; race 2 cut short by a damaged line (its end lost at record 812: not confirmed); race 3 confirmed, its record 900 damaged. */
  function damagedHistory() {
    const base = makeHistoryEntry();
    return [
      makeHistoryEntry({ id: 'race-1', confirmedAt: '2024-05-04T18:00:00.000Z', seq: 1 }),
      { ...makeHistoryEntry({ id: 'race-2', confirmedAt: '2024-05-04T19:00:00.000Z', seq: 800 }), damaged: { seq: 812, confirmed: false } },
      { ...makeHistoryEntry({ id: 'race-3', confirmedAt: '2024-05-04T20:00:00.000Z', seq: 890 }), summary: { ...base.summary, valueDelta: null }, damaged: { seq: 900, confirmed: true } },
    ];
  }

  it.each([
    ['en', 'Damaged at record 812: not confirmed — its end could not be read', 'Confirmed; record 900 of it damaged', '+25, not counted', '2 races confirmed, value +25 · 1 damaged race not confirmed, not counted', 'What is shown is what its readable records make.'],
    ['fi', 'Vaurioitunut kirjauksessa 812: ei vahvistettu — sen loppua ei voitu lukea', 'Vahvistettu; sen kirjaus 900 vaurioitunut', '+25, ei laskettu mukaan', '2 vahvistettua arvontaa, arvo +25 · 1 vaurioitunut arvonta vahvistamatta, ei laskettu mukaan', 'Näkyvissä on se, mitä sen luettavista kirjauksista saadaan.'],
    ['ru', 'Повреждена запись 812: не подтверждён — его конец не удалось прочитать', 'Подтверждён; его запись 900 повреждена', '+25, не учтено', 'Подтверждено 2 чип-рейса, стоимость +25 · 1 повреждённый чип-рейс не подтверждён и не учтён', 'Показано то, что дают его читаемые записи.'],
  ] as const)('%s: the row says it, the race cut short counts neither as confirmed nor in the value, and its record slip says it was not confirmed', async (locale, cut, confirmed, notCounted, total, shown) => {
    const entries = damagedHistory();
    const cutShort = entries[1] as HistoryEntry;
    // Its record as the journal's lines make it: started, dealt, no end (the confirmation is the damaged line).
    const record = {
      id: 'race-2', status: 'open' as const, startedAt: cutShort.startedAt, counts: [], names: cutShort.names, summary: cutShort.summary,
      seqs: { first: 800, last: 811 }, lastSeal: null, chain: 'damaged' as const, findings: [], events: [{ seq: 800, at: cutShort.startedAt, type: 'start' as const }],
    };
    const { plugins, missing } = await prepare({ api: historyStub(entries, record), locale });
    const wrapper = mount(HistoryView, { global: { plugins }, attachTo: document.body });
    await settle();
    const rows = wrapper.findAll('[data-testid="history-row"]');
    expect(rows.map((row) => row.attributes('data-id'))).toEqual(['race-3', 'race-2', 'race-1']);
    const damage = rows.map((row) => row.find('[data-testid="history-damaged"]'));
    expect(damage.map((said) => (said.exists() ? said.text() : null))).toEqual([confirmed, cut, null]);
    expect(rows[1]?.get('[data-testid="history-value"]').text()).toBe(notCounted);
    expect(rows[0]?.get('[data-testid="history-value"]').text()).toBe('—');
    // The total and the running total: race 1's value only (race 3's is not known, race 2's not counted).
    expect(wrapper.get('[data-testid="history-total"]').text().replace(/\s+/g, ' ')).toBe(`${total} · ${wrapper.get('[data-testid="history-chain"]').text()}`);
    expect(rows.map((row) => row.get('[data-testid="history-running"]').text())).toEqual(['+25', '+25', '+25']);

    await rows[1]?.get('[data-testid="history-open-record"]').trigger('click');
    await settle();
    const slip = wrapper.get('[data-testid="race-record"]');
    expect(slip.get('[data-testid="record-status"]').text()).toBe(cut);
    expect(slip.get('[data-testid="record-damaged"]').text()).toBe(shown);
    expect(slip.find('[data-testid="record-late-found"]').exists()).toBe(false);
    expect(missing).toEqual([]);
    wrapper.unmount();
  });

  it('a record the journal alone shows damaged (a confirmation of a race its readable cards do not complete): its slip says so', async () => {
    const entry = makeHistoryEntry({ id: 'race-1' });
    const record = {
      id: 'race-1', status: 'confirmed' as const, startedAt: entry.startedAt, counts: [], names: entry.names, summary: entry.summary, damaged: { seq: 5, confirmed: true },
      seqs: { first: 1, last: 9 }, lastSeal: null, chain: 'damaged' as const, findings: [], events: [{ seq: 1, at: entry.startedAt, type: 'start' as const }, { seq: 9, at: entry.confirmedAt, type: 'confirm' as const }],
    };
    const { plugins } = await prepare({ api: historyStub([entry], record) });
    const wrapper = mount(HistoryView, { global: { plugins }, attachTo: document.body });
    await settle();
    await wrapper.get('[data-testid="history-open-record"]').trigger('click');
    await settle();
    expect(wrapper.get('[data-testid="record-status"]').text()).toBe('Confirmed; record 5 of it damaged');
    wrapper.unmount();
  });
});

describe('history: a points game a damaged journal line belongs to (issue 44)', () => {
  it.each([
    ['en', 'Damaged at record 70: not closed — its end could not be read', 'Closed; a record of it damaged'],
    ['fi', 'Vaurioitunut kirjauksessa 70: ei päätetty — sen loppua ei voitu lukea', 'Päätetty; yksi sen kirjauksista vaurioitunut'],
    ['ru', 'Повреждена запись 70: не завершена — её конец не удалось прочитать', 'Завершена; одна из её записей повреждена'],
  ] as const)('%s: the games played say it beside the winner', async (locale, cut, closed) => {
    const early = playMatch([startEvent('chicago', ['Matti', 'Teppo'])]);
    const games = [
      gameHistoryOf(early, 'game-1', '2024-05-04T20:00:00.000Z'),
      { ...gameHistoryOf(early, 'game-2', '2024-05-04T21:00:00.000Z'), damaged: { seq: 70, confirmed: false } },
      { ...gameHistoryOf(early, 'game-3', '2024-05-04T22:00:00.000Z'), damaged: { seq: null, confirmed: true } },
    ];
    const { plugins, missing } = await prepare({ api: createStubApi({ state: makeState({ games }) }), locale });
    const wrapper = mount(HistoryView, { global: { plugins } });
    await settle();
    const said = wrapper.findAll('[data-testid="games-row"]').map((row) => {
      const damage = row.find('[data-testid="games-damaged"]');
      return [row.attributes('data-id'), damage.exists() ? damage.text() : null];
    });
    expect(said).toEqual([['game-3', closed], ['game-2', cut], ['game-1', null]]);
    expect(missing).toEqual([]);
    wrapper.unmount();
  });
});
