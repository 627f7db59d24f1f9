import { describe, expect, it } from 'vitest';
import { RULE_SET_NAMES, SETTING_NAMES, SETTING_OPTIONS } from '../../engine/race/rules';
import { HAND_CATEGORIES } from '../../engine/poker/hands';
import { GAMES } from '../../engine/poker/rules';
import { PARITY_CHOICES } from '../composables/deviceProfiles';
import { SOURCE_KINDS } from '../../protocol/constants';
import { FLOOR_OFFLINE_REASONS, FLOOR_REFUSAL_REASONS } from '../../protocol/contract';
import { CHAIN_STATUSES, DAMAGE_FORMS, FINDING_KEYS } from '../composables/journalText';
import { LOCALE_MESSAGES } from '../i18n';
import screensEn from './en.json';

// Each language as the screens have it: the locale file with the engine's catalog merged in.
const { en, fi, ru } = LOCALE_MESSAGES;

/** Dotted paths of every leaf ('app.name'), sorted. */
function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages)
    .flatMap(([key, value]: [string, unknown]) =>
      typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
    )
    .sort();
}

/** Every leaf value. */
function leaves(messages: object): unknown[] {
  return Object.values(messages).flatMap((value: unknown) =>
    typeof value === 'object' && value !== null ? leaves(value) : [value],
  );
}

function lookup(messages: object, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function placeholders(message: string): string[] {
  return [...new Set([...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string))].sort();
}

/** The screens' sources (not tests, fixtures or these files), as text. */
const SOURCES: Readonly<Record<string, string>> = import.meta.glob(['../**/*.vue', '../**/*.ts', '!../**/*.test.ts', '!../testing/**', '!../locales/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Keys written literally in the screens: t('a.b'), key: 'a.b', prefix="a.b", lead="a.b", and both arms of t(x ? 'a.b' : 'c.d'). */
function literalKeys(): string[] {
  const found = new Set<string>();
  const patterns = [/\bt\(\s*'([a-zA-Z]+(?:\.[a-zA-Z-]+)+)'/g, /\b(?:key|none|some): '([a-zA-Z]+(?:\.[a-zA-Z-]+)+)'/g, /\bprefix="([a-zA-Z]+(?:\.[a-zA-Z-]+)+)"/g, /\blead="([a-zA-Z]+(?:\.[a-zA-Z-]+)+)"/g, /\? '([a-z]+\.[a-zA-Z.]+)' : '([a-z]+\.[a-zA-Z.]+)'/g];
  for (const text of Object.values(SOURCES)) {
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) for (const key of match.slice(1)) if (key) found.add(key);
  }
  return [...found].sort();
}

/** Keys the screens build from data (`rules.${name}.name` …), expanded over every value. */
const DYNAMIC_KEYS = [
  ...RULE_SET_NAMES.flatMap((name: string) => [`rules.${name}.name`, `rules.${name}.summary`]),
  // Each race setting, its label and every value, as the setup and counts screens say them.
  ...SETTING_NAMES.flatMap((name) => [`raceSettings.${name}.label`, ...SETTING_OPTIONS[name].map((value: string) => `raceSettings.${name}.${value}`)]),
  ...['s', 'h', 'd', 'c'].map((suit) => `cards.suits.${suit}`),
  // A refused read's words by where it came from (composables/scanText.ts REFUSED_KEYS).
  ...['card', 'cardWhy', 'text', 'shoeCard', 'shoeCardWhy', 'shoeText', 'typedCard', 'typedCardWhy', 'typedText'].map((key) => `scan.refused.${key}`),
  ...SOURCE_KINDS.flatMap((kind: string) => [`source.kinds.${kind}`, `source.kindShort.${kind}`]),
  ...['idle', 'connecting', 'connected', 'disconnected', 'reconnecting', 'error'].map((state) => `source.states.${state}`),
  ...['no-such-port', 'permission-denied', 'port-busy', 'wrong-baud', 'unplugged', 'open-failed', 'io-error'].map((code) => `source.codes.${code}`),
  // Every built-in profile (hardware/profile.ts's ALL_BUILT_IN_PROFILES: system/builtInProfileWords.test.ts holds the two lists together).
  ...['text', 'suit-number', 'index1', 'index0', 'stx-text', 'stx-sum', 'barcode', 'rfid', 'stx-plain', 'rdm6300', 'id12la', 'zebra-ssi', 'pn532-uart', 'uhf-r200', 'uhf-a0'].flatMap((name) => [`source.decoders.${name}`, `source.profileNames.${name}`]),
  ...PARITY_CHOICES.map((parity) => `source.line.parities.${parity}`),
  ...['shoe-empty', 'new-shoe'].map((message) => `input.device.${message}`),
  ...['setup', 'structure', 'points', 'history', 'settings'].map((view) => `nav.${view}`),
  ...HAND_CATEGORIES.map((category) => `poker.hands.${category}`),
  ...GAMES.flatMap((game) => [`poker.games.${game}.name`, `poker.games.${game}.summary`]),
  ...CHAIN_STATUSES.map((status) => `journal.chain.${status}`),
  ...Object.values(FINDING_KEYS).map((key) => `journal.findings.${key}`),
  ...['open', 'confirmed', 'abandoned'].map((status) => `record.status.${status}`),
  // What a damaged line did to a race or a game (journalText's damageText).
  ...DAMAGE_FORMS.flatMap((form) => [`record.damaged.${form}`, `games.damaged.${form}`]),
  ...['manual', 'shoe', 'scanner', 'held'].map((source) => `record.source.${source}`),
  ...['connecting', 'connected'].map((state) => `floorLink.${state}`),
  ...FLOOR_OFFLINE_REASONS.map((reason) => `floorLink.reasons.${reason}`),
  ...FLOOR_REFUSAL_REASONS.map((reason) => `floorLink.chain.${reason}`),
  // Reader health's table (components/ReaderHealthTable.vue): its columns.
  ...['frames', 'unknown', 'checksum', 'repeats', 'held'].map((column) => `readerHealth.columns.${column}`),
];

describe('locale files', () => {
  it.each([
    ['fi', fi],
    ['ru', ru],
  ] as const)('%s has exactly the keys of en', (_name, messages) => {
    expect(keys(messages)).toEqual(keys(en));
  });

  it.each([
    ['en', en],
    ['fi', fi],
    ['ru', ru],
  ] as const)('%s has only non-empty string messages', (_name, messages) => {
    for (const value of leaves(messages)) {
      expect(typeof value).toBe('string');
      expect((value as string).trim()).not.toBe('');
    }
  });

  it.each([
    ['fi', fi],
    ['ru', ru],
  ] as const)('%s uses the same placeholders as en in every message', (_name, messages) => {
    for (const key of keys(en)) {
      expect([key, placeholders(lookup(messages, key) ?? '')]).toEqual([key, placeholders(lookup(en, key) ?? '')]);
    }
  });

  it('gives plural messages two forms in English and Finnish and three in Russian', () => {
    for (const key of keys(en)) {
      const forms = (lookup(en, key) ?? '').split(' | ').length;
      expect([key, (lookup(fi, key) ?? '').split(' | ').length]).toEqual([key, forms]);
      expect([key, (lookup(ru, key) ?? '').split(' | ').length]).toEqual([key, forms === 1 ? 1 : 3]);
    }
  });

  it('avoids the characters vue-i18n reads as syntax', () => {
    for (const messages of [en, fi, ru]) {
      for (const value of leaves(messages) as string[]) {
        expect([value, /[@$]|\{(?!\w+\})/.test(value)]).toEqual([value, false]);
      }
    }
  });

  it('holds every key the screens use', () => {
    const used = [...literalKeys(), ...DYNAMIC_KEYS];
    expect(used.length).toBeGreaterThan(100);
    const known = new Set(keys(en));
    expect(used.filter((key) => !known.has(key))).toEqual([]);
  });

  it('holds no key the screens never use (the engine\'s catalog aside: the engine says those)', () => {
    const used = new Set([...literalKeys(), ...DYNAMIC_KEYS]);
    expect(keys(screensEn).filter((key) => !used.has(key))).toEqual([]);
  });
});
