import { describeValue, formatCard, isCard } from '../cardCodes';
import type { Catalog } from './catalog';
import type { MessageKey } from './keys';

/**
 * What the engine says — a refusal, the next step, a line of a race's explanation — as a stable key
 * and its parameters, never as finished text. The screens render it in the dealer's language and the
 * command line in English, both from the catalogs beside this file (`en.ts`, `fi.ts`, `ru.ts`), which
 * the screens merge into their own locales. Templates use the screens' syntax (vue-i18n): `{name}`
 * placeholders, and `one | other` (Russian `one | few | many`) plural forms chosen by the number `n`.
 * `Key` is the engine's keys; a part with words of its own says its messages with a wider one
 * (the floor's: floor/page/words.ts), through the same formatter.
 */
export interface Message<Key extends string = MessageKey> {
  /** Stable: tools and tests match on it; the wording may change, the key does not. */
  readonly key: Key;
  readonly params?: Readonly<Record<string, MessageParam<Key>>>;
}

/** A card code, shown as a card (A♥). */
export interface CardParam {
  readonly card: string;
}

/** Several cards, shown as cards. */
export interface CardsParam {
  readonly cards: readonly string[];
}

/** A seat, with its player's name when there is one: "seat 3 — Matti" ("Seat 3 — Matti" at the `start` of a sentence). */
export interface SeatParam {
  readonly seat: number;
  readonly name?: string;
  readonly start?: boolean;
}

/** Several seats, joined as the language joins a list: "seat 3 and seat 7". */
export interface SeatsParam {
  readonly seats: readonly SeatParam[];
}

/** A message inside another (a reason inside a sentence). */
export interface NestedParam<Key extends string = MessageKey> {
  readonly message: Message<Key>;
}

/** Several messages in a row: joined as the language joins a list (`and`), or by `,` or `;`. */
export interface ListParam<Key extends string = MessageKey> {
  readonly items: readonly Message<Key>[];
  readonly join: 'and' | ',' | ';';
}

export type MessageParam<Key extends string = MessageKey> = string | number | CardParam | CardsParam | SeatParam | SeatsParam | NestedParam<Key> | ListParam<Key>;

export type { Catalog } from './catalog';

export type MessageLanguage = 'en' | 'fi' | 'ru';

/**
 * Russian plural forms, messages written `one | few | many`: 1, 21 карта; 2–4, 22 карты; 0, 5–20 карт.
 * English and Finnish: `one | other`, or vue-i18n's `zero | one | other` with three forms.
 */
export function pluralIndex(language: string, choice: number, forms: number): number {
  const n = Math.abs(choice);
  if (language === 'ru') {
    if (forms < 3) return n === 1 ? 0 : 1;
    const lastTwo = n % 100;
    const last = n % 10;
    if (lastTwo >= 11 && lastTwo <= 14) return 2;
    if (last === 1) return 0;
    if (last >= 2 && last <= 4) return 1;
    return 2;
  }
  if (forms === 2) return n === 1 ? 0 : 1;
  return Math.min(n, forms - 1);
}

/** The template of `key` (dotted: `race.refused.duplicate`) in `catalog`, or undefined. */
export function templateOf(catalog: Catalog, key: string): string | undefined {
  let node: string | Catalog | undefined = catalog;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A template's text cut at its placeholders: literal text at even places, placeholder names at odd ones. */
type TemplateParts = readonly string[];

/** A template as formatMessage uses it: its plural forms, each cut at its placeholders. */
interface CompiledTemplate {
  readonly forms: readonly TemplateParts[];
}

/**
 * Templates cut up once per catalog and key. The console says a race's next step and explanation
 * after every card, and cutting a template with a regular expression each time was most of the
 * cost of saying it. A cache of what the catalogs already hold: the same answer, computed once.
 */
const COMPILED = new WeakMap<Catalog, Map<string, CompiledTemplate | null>>();

function partsOf(template: string): TemplateParts {
  return template.split(/\{(\w+)\}/);
}

function compiledTemplate(catalog: Catalog, key: string): CompiledTemplate | null {
  let byKey = COMPILED.get(catalog);
  if (byKey === undefined) {
    byKey = new Map();
    COMPILED.set(catalog, byKey);
  }
  let compiled = byKey.get(key);
  if (compiled === undefined) {
    const template = templateOf(catalog, key);
    compiled = template === undefined ? null : { forms: template.split(' | ').map(partsOf) };
    byKey.set(key, compiled);
  }
  return compiled;
}

/** The parts filled in: a placeholder with no value stays as written. */
function fill(parts: TemplateParts, values: Readonly<Record<string, string | number>>): string {
  let text = parts[0] as string;
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index] as string;
    text += (name in values ? String(values[name]) : `{${name}}`) + (parts[index + 1] as string);
  }
  return text;
}

function seatText(seat: SeatParam, catalog: Catalog, options: FormatOptions): string {
  const named = seat.name !== undefined && seat.name !== '' && options.names !== false;
  const key = seat.start === true ? (named ? 'common.seatNamed' : 'common.seat') : named ? 'common.seatNamedInText' : 'common.seatInText';
  return fill(compiledTemplate(catalog, key)?.forms[0] ?? ['', 'seat', ''], { seat: seat.seat, name: seat.name ?? '' });
}

function listText(items: readonly string[], catalog: Catalog): string {
  if (items.length <= 1) return items.join('');
  const and = compiledTemplate(catalog, 'common.and')?.forms[0] ?? partsOf('{list} and {last}');
  return fill(and, { list: items.slice(0, -1).join(', '), last: items[items.length - 1] as string });
}

/**
 * The parameters as the templates take them: cards as cards, seats and lists in the language of
 * `catalog`, nested messages rendered. The screens hand the result to vue-i18n.
 */
export function formatParams<Key extends string>(params: Message<Key>['params'], language: string, catalog: Catalog, options: FormatOptions = {}): Record<string, string | number> {
  const style = options.cards ?? 'pips';
  const cardText = (card: string) => (isCard(card) ? formatCard(card, style) : card);
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === 'number') out[name] = options.numbers === 'grouped' ? groupedNumber(value, language) : value;
    else if (typeof value === 'string') out[name] = value;
    else if ('card' in value) out[name] = cardText(value.card);
    else if ('cards' in value) out[name] = value.cards.map(cardText).join(' ');
    else if ('seats' in value) out[name] = listText(value.seats.map((seat) => seatText(seat, catalog, options)), catalog);
    else if ('seat' in value) out[name] = seatText(value, catalog, options);
    else if ('items' in value) {
      const items = value.items.map((item) => formatMessage(item, language, catalog, options));
      out[name] = value.join === 'and' ? listText(items, catalog) : items.join(`${value.join} `);
    }
    else out[name] = formatMessage(value.message, language, catalog, options);
  }
  return out;
}

const NUMBER_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * A number as the language writes it: `2,500` in English, `2 500` (a no-break space) in Finnish and
 * Russian, the decimal sign the language's. Intl's rules, not the station's clock or files: pure.
 */
export function groupedNumber(value: number, language: string): string {
  let format = NUMBER_FORMATS.get(language);
  if (format === undefined) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 20 });
    NUMBER_FORMATS.set(language, format);
  }
  return format.format(value);
}

/** A value created or removed, signed: `+25`, `−2 500`, `0` (the sign of a negative is the language's). */
export function groupedDelta(value: number, language: string): string {
  return value > 0 ? `+${groupedNumber(value, language)}` : groupedNumber(value, language);
}

export interface FormatOptions {
  /** `pips` (A♥, the screens) by default; `code` (Ah) where the command line has always printed codes. */
  readonly cards?: 'code' | 'pips';
  /** Players' names beside their seats (the default); false where a text has always named seats only. */
  readonly names?: boolean;
  /**
   * `plain` (2500, the default: the record, the command line and the journal's English stay as they
   * always were) or `grouped` (the screens: `2,500`, `2 500`, as the station's language writes it).
   */
  readonly numbers?: 'plain' | 'grouped';
}

/** The message in the language of `catalog`; an unknown key is shown as the key itself (a test proves none is). */
export function formatMessage<Key extends string>(message: Message<Key>, language: string, catalog: Catalog, options: FormatOptions = {}): string {
  const template = compiledTemplate(catalog, message.key);
  if (template === null) return message.key;
  const values = formatParams(message.params, language, catalog, options);
  const { forms } = template;
  const n = message.params?.n;
  const chosen = forms.length > 1 && typeof n === 'number' ? (forms[pluralIndex(language, n, forms.length)] ?? forms[0]) : forms[0];
  return fill(chosen as TemplateParts, values);
}

/** A value the input held, as a refusal quotes it: `"Xx"`, `12`, or the language's word for nothing. */
export function valueParam(value: unknown): string | NestedParam {
  return value === undefined ? { message: { key: 'common.nothing' } } : describeValue(value);
}
