import { InputError } from '../engine/errors';
import type { Message, MessageParam } from '../engine/messages';

/**
 * One kind of framer or decoder as the registry (`registry.ts`) lists it: the name a profile
 * gives it (`kind`), the reader of its own options, the maker of the working object and the
 * English words for a configuration of it. Each framer and decoder module exports its own beside
 * itself, so a new kind is one module and one registry line.
 */
export interface DeviceKind<Config extends { readonly kind: string }, Made, Shared = void> {
  readonly kind: Config['kind'];
  /** What the kind reads, in English (the registry gives it the key the screens translate it by). */
  readonly summary: string;
  /**
   * This kind's options out of a profile's `framing` or `decoder` object (whose `kind` names
   * this one), every default filled in; a bad value is refused naming its field
   * (`framing.checksum`, `decoder.base` …). `shared`: the options every kind of its sort has,
   * read once by the registry (a framing's `maxLength`).
   */
  read(options: Options, shared: Shared): Config;
  create(config: Config): Made;
  /** A configuration in words, for the profile's one-sentence summary. */
  describe(config: Config): string;
}

/** A profile's `framing` or `decoder` object, or the profile itself. */
export type Options = Readonly<Record<string, unknown>>;

/** Names as a list ending in "or", in keys (`a, b or c`; the "or" in the reader's language). */
export function orSaid(names: readonly string[]): MessageParam {
  if (names.length < 2) return names.join('');
  return { message: { key: 'poker.or', params: { list: names.slice(0, -1).join(', '), last: names.at(-1) as string } } };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function wholeIn(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError(field, { key: 'hardware.profile.whole', params: { min, max, got: String(JSON.stringify(value)) } });
  }
  return value;
}

export function booleanOf(value: unknown, field: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  // The settings' words for the same refusal (a line setting of the settings file is read here too).
  throw new InputError(field, { key: 'settings.notBoolean', params: { got: String(JSON.stringify(value)) } });
}

export function oneOf<T extends string | number>(value: unknown, field: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (choices.includes(value as T)) return value as T;
  const listed = choices.map(String);
  const got = String(JSON.stringify(value));
  throw new InputError(
    field,
    typeof choices[0] === 'number'
      ? { key: 'settings.mustBe', params: { got, choices: { message: { key: 'poker.or', params: { list: listed.slice(0, -1).join(', '), last: listed.at(-1) ?? '' } } } } }
      : { key: 'settings.oneOf', params: { got, options: listed.join(', ') } },
  );
}

export function stringTable(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
    throw new InputError(field, { key: 'hardware.profile.textTable', params: { example: '{"01": "A"}' } });
  }
  return value as Record<string, string>;
}

/** A regular expression given as text, with the named groups it must have (one of `needs`). */
export function regexOf(value: unknown, field: string, needs: readonly (readonly string[])[], help: Message): string {
  if (typeof value !== 'string') throw new InputError(field, { key: 'hardware.profile.regexText' });
  try {
    new RegExp(value, 'u');
  } catch (error) {
    // `why`: the JavaScript engine's own words.
    throw new InputError(field, { key: 'hardware.profile.regexInvalid', params: { why: (error as Error).message } });
  }
  const groups = [...value.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((match) => match[1] as string);
  if (!needs.some((names) => names.every((name) => groups.includes(name)))) throw new InputError(field, help);
  return value;
}
