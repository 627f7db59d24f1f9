import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_CATALOGS, formatMessage, formatParams, templateOf, type Catalog, type Message, type MessageKey, type MessageParam } from '../../engine/messages';
import { en } from '../../engine/messages/en';
import { createConsoleI18n, LOCALES } from '../i18n';

/** Every key of the engine's catalog, dotted. */
function keysOf(catalog: Catalog, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([name, value]) => (typeof value === 'string' ? [`${prefix}${name}`] : keysOf(value, `${prefix}${name}.`)));
}

const KEYS = keysOf(en) as MessageKey[];
const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 ]{0,12}$/);
const param: fc.Arbitrary<MessageParam> = fc.oneof(
  fc.integer({ min: 0, max: 125 }),
  word,
  fc.constantFrom('Ah', 'Ts', '9c').map((card) => ({ card })),
  fc.record({ seat: fc.integer({ min: 1, max: 10 }), name: word }),
  fc.array(fc.record({ seat: fc.integer({ min: 1, max: 10 }) }), { minLength: 1, maxLength: 3 }).map((seats) => ({ seats })),
  fc.constantFrom('common.nothing', 'race.explain.tie.allStillTied').map((key) => ({ message: { key } })),
);

describe('the screens say an engine message as the engine formats it', () => {
  it('vue-i18n t() and formatMessage render every catalog message alike, in every language, for any parameters', () => {
    const i18n = LOCALES.map((locale) => [locale, createConsoleI18n(locale).global] as const);
    fc.assert(
      fc.property(fc.constantFrom(...KEYS), fc.dictionary(fc.constantFrom('card', 'seat', 'seats', 'n', 'value', 'next', 'removed', 'reason', 'why'), param), fc.integer({ min: 0, max: 125 }), (key, params, n) => {
        // Every placeholder of the English template gets a value, so neither side leaves one unfilled.
        const names = [...new Set([...(templateOf(en, key) ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string))];
        const full: Record<string, MessageParam> = Object.fromEntries(names.map((name) => [name, params[name] ?? name]));
        full.n = n;
        const message: Message = { key, params: full };
        for (const [locale, global] of i18n) {
          const catalog = ENGINE_CATALOGS[locale];
          const plural = (templateOf(catalog, key) ?? '').includes(' | ');
          const values = formatParams(message.params, locale, catalog);
          const said = plural ? global.t(key, values, n) : global.t(key, values);
          expect(said).toBe(formatMessage(message, locale, catalog));
        }
      }),
      { numRuns: 400 },
    );
  });
});
