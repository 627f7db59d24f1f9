// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { FloorLinkState } from '../../protocol/contract';
import type { Locale } from '../i18n';
import { prepare } from '../testing/setup';
import FloorLinkStatus from './FloorLinkStatus.vue';

const FLOOR = { host: 'floor.local:5432', database: 'tournament', table: '7', from: 'settings' } as const;
const SINCE = '2026-12-01T21:04:00Z';

async function pill(link: FloorLinkState, locale: Locale = 'en') {
  const prepared = await prepare({ locale });
  const wrapper = mount(FloorLinkStatus, { props: { link }, global: { plugins: prepared.plugins } });
  return { wrapper, missing: prepared.missing };
}

const timeIn = (locale: Locale) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(SINCE));

const STATES: readonly FloorLinkState[] = [
  { state: 'connecting', floor: FLOOR },
  { state: 'connected', floor: FLOOR },
  { state: 'behind', floor: FLOOR, records: 12 },
  { state: 'behind', floor: FLOOR, records: 1 },
  { state: 'offline', floor: FLOOR, since: SINCE, reason: 'unreachable', detail: 'ECONNREFUSED', records: 40 },
  { state: 'refused', floor: FLOOR, seq: 5, reason: 'bad-seal', records: 9 },
];

describe('the floor link pill', () => {
  it('shows nothing while no floor is set up', async () => {
    const { wrapper } = await pill({ state: 'off' });
    expect(wrapper.find('[data-testid="floor-link"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says in English how the link is: connected, records to send, offline since when and why, the record refused', async () => {
    const texts: string[] = [];
    for (const state of STATES) {
      const { wrapper } = await pill(state);
      texts.push(wrapper.get('[data-testid="floor-link"]').text());
      expect(wrapper.get('[data-testid="floor-link"]').attributes('title')).toBe('floor.local:5432, database tournament, table 7');
      wrapper.unmount();
    }
    expect(texts).toEqual([
      'Floor: connecting…',
      'Floor: connected',
      'Floor: 12 records to send',
      'Floor: 1 record to send',
      `Floor: offline since ${timeIn('en')}the database cannot be reached (ECONNREFUSED) · 40 records to send`,
      'Floor refused record 5: the chain is brokenWhy: the record was changed after it was written. Nothing after it is stored on the floor; the journal here keeps everything.',
    ]);
  });

  it('says it in Finnish and Russian, every word there (plurals too)', async () => {
    const said: Record<string, string[]> = { fi: [], ru: [] };
    for (const locale of ['fi', 'ru'] as const) {
      for (const state of [...STATES, { state: 'behind', floor: FLOOR, records: 3 } as const]) {
        const { wrapper, missing } = await pill(state, locale);
        said[locale]?.push(wrapper.get('[data-testid="floor-link-text"]').text());
        expect(missing).toEqual([]);
        wrapper.unmount();
      }
    }
    expect(said.fi).toEqual([
      'Sali: yhdistetään…',
      'Sali: yhteys kunnossa',
      'Sali: 12 kirjausta lähettämättä',
      'Sali: 1 kirjaus lähettämättä',
      `Sali: ei yhteyttä ${timeIn('fi')} lähtien`,
      'Sali hylkäsi kirjauksen 5: ketju on katki',
      'Sali: 3 kirjausta lähettämättä',
    ]);
    expect(said.ru).toEqual([
      'Зал: подключение…',
      'Зал: на связи',
      'Зал: 12 записей к отправке',
      'Зал: 1 запись к отправке',
      `Зал: нет связи с ${timeIn('ru')}`,
      'Зал отклонил запись 5: цепочка нарушена',
      'Зал: 3 записи к отправке',
    ]);
  });

  it('keeps to one line on the dealing screens, the why in its title', async () => {
    const prepared = await prepare();
    const link: FloorLinkState = { state: 'offline', floor: FLOOR, since: SINCE, reason: 'unreachable', detail: 'ECONNREFUSED', records: 40 };
    const wrapper = mount(FloorLinkStatus, { props: { link, compact: true }, global: { plugins: prepared.plugins } });
    expect(wrapper.get('[data-testid="floor-link"]').text()).toBe(`Floor: offline since ${timeIn('en')}`);
    expect(wrapper.find('[data-testid="floor-link-detail"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="floor-link"]').attributes('title')).toBe('the database cannot be reached (ECONNREFUSED) · 40 records to send — floor.local:5432, database tournament, table 7');
    wrapper.unmount();
  });

  it("says a refused password as such, not as offline; a floor lacking the station's records, and a request for the password in clear text, each in its words (en, fi, ru)", async () => {
    const states: readonly FloorLinkState[] = [
      { state: 'offline', floor: FLOOR, since: SINCE, reason: 'login', detail: '28P01', records: 4 },
      { state: 'refused', floor: FLOOR, seq: 1, reason: 'floor-ahead', records: 24 },
      { state: 'offline', floor: FLOOR, since: SINCE, reason: 'cleartext', detail: 'CLEARTEXT-REFUSED', records: 4 },
    ];
    const said: Record<'en' | 'fi' | 'ru', string[]> = { en: [], fi: [], ru: [] };
    for (const locale of ['en', 'fi', 'ru'] as const) {
      for (const state of states) {
        const { wrapper, missing } = await pill(state, locale);
        said[locale].push(wrapper.get('[data-testid="floor-link"]').text());
        expect(missing).toEqual([]);
        wrapper.unmount();
      }
    }
    expect(said.en).toEqual([
      "Floor refused this station's password: ask the floor for a new loginthe floor refused the station's login (28P01) · 4 records to send",
      "Floor: its records for this table are not this station's (from record 1)The floor holds records this station never wrote, or lacks records it has: nothing is sent until the floor supervisor puts the table right. The journal here keeps everything.",
      `Floor: offline since ${timeIn('en')}the floor asked for the password in clear text, so it was not sent (the floor's server must ask for scram-sha-256) (CLEARTEXT-REFUSED) · 4 records to send`,
    ]);
    expect(said.fi[0]).toMatch(/^Sali hylkäsi tämän aseman salasanan: pyydä salilta uudet kirjautumistiedot/);
    expect(said.ru[0]).toMatch(/^Зал отклонил пароль этой станции: попросите в зале новый вход/);
    expect(said.fi[1]).toMatch(/^Sali: sen kirjaukset tälle pöydälle eivät ole tämän aseman \(kirjauksesta 1 alkaen\)/);
    expect(said.ru[1]).toMatch(/^Зал: его записи этого стола — не записи этой станции \(с записи 1\)/);
  });

  it("says why the floor's clock row was not taken while the link stays connected, in en, fi and ru (the records still go)", async () => {
    const said: string[] = [];
    for (const locale of ['en', 'fi', 'ru'] as const) {
      const { wrapper, missing } = await pill({ state: 'connected', floor: FLOOR, clockRefused: { key: 'clock.floorRow.malformed', params: { part: 'events' } } }, locale);
      expect(wrapper.get('[data-testid="floor-link"]').classes()).toContain('floor-link--trouble');
      said.push(wrapper.get('[data-testid="floor-link-detail"]').text());
      expect(missing).toEqual([]);
      wrapper.unmount();
    }
    expect(said).toEqual([
      "the floor's clock row is not as the floor writes it (its events): not taken, the clock stays as it was",
      'salin kellorivi ei ole sellainen kuin sali sen kirjoittaa (kohta events): sitä ei oteta, kello pysyy ennallaan',
      'строка часов зала не такова, как её пишет зал (поле events): не принята, часы остаются как были',
    ]);
    const { wrapper } = await pill({ state: 'behind', floor: FLOOR, records: 3, clockRefused: { key: 'value.tooDeep', params: { n: 64 } } });
    expect(wrapper.get('[data-testid="floor-link-detail"]').text()).toMatch(/64/);
    wrapper.unmount();
  });

  it('shows a refusal code a newer floor adds as it comes', async () => {
    const { wrapper } = await pill({ state: 'refused', floor: FLOOR, seq: 8, reason: 'from-the-future', records: 0 });
    expect(wrapper.get('[data-testid="floor-link-detail"]').text()).toContain('Why: from-the-future.');
    wrapper.unmount();
  });
});
