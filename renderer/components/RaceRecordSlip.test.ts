// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { raceSummary } from '../../engine/race/summary';
import { whatOtherRulesSay } from '../../engine/race/whatIf';
import type { RaceRecord } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { FINNISH_CARDS, FINNISH_COUNTS, FINNISH_SEATS, makeEngineRace } from '../testing/fixtures';
import { prepare } from '../testing/setup';
import RaceRecordSlip from './RaceRecordSlip.vue';

/** The Finnish example's record, confirmed: classic, tda and Robert's Rules give what it gave; round (no race) gives everyone a 100. */
function finnishRecord(): RaceRecord {
  const state = makeEngineRace({ cards: FINNISH_CARDS });
  return {
    id: 'race-1',
    status: 'confirmed',
    startedAt: '2024-05-04T18:30:00.000Z',
    counts: FINNISH_COUNTS,
    names: Object.fromEntries(FINNISH_SEATS.map(({ seat, name }) => [seat, name])),
    summary: raceSummary(state),
    whatIf: whatOtherRulesSay(state),
    events: [{ seq: 1, at: '2024-05-04T18:30:00.000Z', type: 'start' }],
    seqs: { first: 1, last: 1 },
    lastSeal: null,
    chain: 'intact',
    findings: [],
  } as unknown as RaceRecord;
}

async function whatIfLines(locale: Locale): Promise<{ lines: string[]; missing: string[] }> {
  const prepared = await prepare({ locale });
  const wrapper = mount(RaceRecordSlip, { props: { record: finnishRecord() }, global: { plugins: prepared.plugins } });
  const lines = wrapper.findAll('[data-testid="record-what-if"] li').map((item) => item.text());
  wrapper.unmount();
  return { lines, missing: prepared.missing };
}

describe("the record's what the other rules would have said (issue 41: `round`, race chips and unused cards under the rule set that has no race)", () => {
  it.each([
    ['en', ['Round (no race): 3 chips rounded up (+125) — differs', 'The same result: Classic (home game, Wikipedia), TDA rule, Robert\'s Rules (DD Poker)']],
    ['fi', ['Pyöristys (ei arvontaa): 3 pelimerkkiä pyöristämällä (+125) — eroaa', 'Sama tulos: Klassinen (kotipelit, Wikipedia), TDA-sääntö, Robert\'s Rules (DD Poker)']],
    ['ru', ['Округление (без чип-рейса): 3 фишки округлением (+125) — иначе', 'Тот же результат: Классические (домашние игры, Википедия), Правило TDA, Правила Роберта (DD Poker)']],
  ] as const)('%s: each rule set by its own name, and the no-race one by what its rounding gives', async (locale, expected) => {
    const { lines, missing } = await whatIfLines(locale);
    expect(lines).toEqual(expected);
    expect(missing).toEqual([]);
    expect(lines.join('\n')).not.toMatch(/\bround\b|\bclassic\b|race chip|not used|arvotut|käyttämättä|разыгранн|не использ/);
  });
});

describe("the record says which of the floor's facts the race ran under (issue 43)", () => {
  const floorFacts = { tournament: { seq: 14, at: '2024-05-04T18:02:00.000Z' }, seating: { seq: 20, version: 7 } };
  it.each([
    ['en', /^Floor's tournament of .*(18:02|6:02 PM).* \(record 14\) · floor's seating version 7$/, "The station's own tournament · floor's seating version 7"],
    ['fi', /^Salin turnaus .*18\.02.* \(kirjaus 14\) · salin istumajärjestys, versio 7$/, 'Aseman oma turnaus · salin istumajärjestys, versio 7'],
    ['ru', /^Турнир зала от .*18:02.* \(запись 14\) · рассадка зала, версия 7$/, 'Собственный турнир станции · рассадка зала, версия 7'],
  ] as const)('%s: the tournament journaled and the seating version; none said under the station’s own', async (locale, linked, seatsOnly) => {
    const prepared = await prepare({ locale });
    const line = (record: RaceRecord) => {
      const wrapper = mount(RaceRecordSlip, { props: { record }, global: { plugins: prepared.plugins } });
      const found = wrapper.find('[data-testid="record-floor-facts"]');
      const text = found.exists() ? found.text() : null;
      wrapper.unmount();
      return text;
    };
    expect(line({ ...finnishRecord(), floorFacts })).toMatch(linked);
    expect(line({ ...finnishRecord(), floorFacts: { ...floorFacts, tournament: null } })).toBe(seatsOnly);
    expect(line(finnishRecord())).toBeNull();
    expect(prepared.missing).toEqual([]);
  });
});
