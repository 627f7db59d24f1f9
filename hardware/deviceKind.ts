import type { Message, MessageParam } from '../engine/messages';
import { custom, is, isRecord, isWhole, object, refuse, whenGiven, type Schema } from '../engine/schema';

/**
 * One kind of framer or decoder as the registry (`registry.ts`) lists it: the name a profile
 * gives it (`kind`), the schema of its own options, the maker of the working object and the
 * English words for a configuration of it. Each framer and decoder module exports its own beside
 * itself, so a new kind is one module and one registry line.
 */
export interface DeviceKind<Config extends { readonly kind: string }, Made> {
  readonly kind: Config['kind'];
  /** What the kind reads, in English (the registry gives it the key the screens translate it by). */
  readonly summary: string;
  /**
   * This kind's options out of a profile's `framing` or `decoder` object (whose `kind` names
   * this one), every default filled in; a bad value is refused at its field (`checksum`, `base` …:
   * the registry's variant and the profile add `framing.` or `decoder.`). Each kind's config type
   * is this schema's Infer.
   */
  readonly schema: Schema<Config>;
  create(config: Config): Made;
  /** A configuration in words, for the profile's one-sentence summary. */
  describe(config: Config): string;
}

/** Names as a list ending in "or", in keys (`a, b or c`; the "or" in the reader's language). */
export function orSaid(names: readonly string[]): MessageParam {
  if (names.length < 2) return names.join('');
  return { message: { key: 'poker.or', params: { list: names.slice(0, -1).join(', '), last: names.at(-1) as string } } };
}

/** A value as a refusal quotes it. */
const got = (value: unknown) => String(JSON.stringify(value));

/** The options object of one kind (the registry's variant has refused anything but an object before). */
export const kindOptions = <S extends Readonly<Record<string, Schema<unknown>>>>(shape: S) => object(shape, { key: 'hardware.profile.notObject' });

// What a profile's fields are read by. As the profile reader always has: a field left out
// (undefined) takes its default, and a null is refused like any other value of the wrong kind
// (except where a null always meant the default too: `withDefault` there).

/** A whole number from `min` to `max`, `fallback` when left out. */
export const wholeIn = (min: number, max: number, fallback: number): Schema<number> =>
  whenGiven(
    is((value): value is number => isWhole(value, min, max), (value) => ({ key: 'hardware.profile.whole', params: { min, max, got: got(value) } })),
    fallback,
  );

/** true or false, in the settings' words (a line setting of the settings file is read here too). */
export const BOOLEAN: Schema<boolean> = is((value): value is boolean => typeof value === 'boolean', (value) => ({ key: 'settings.notBoolean', params: { got: got(value) } }));

/** true or false, or left out of what is read. */
export const flag: Schema<boolean | undefined> = whenGiven(BOOLEAN, undefined);

/** One of `choices` (in the settings' words: numbers as "a, b or c", texts as a list), `fallback` when left out. */
export function choiceOf<T extends string | number, F extends T | undefined>(choices: readonly T[], fallback: F): Schema<T | F> {
  const listed = choices.map(String);
  const said = (value: unknown): Message =>
    typeof choices[0] === 'number'
      ? { key: 'settings.mustBe', params: { got: got(value), choices: { message: { key: 'poker.or', params: { list: listed.slice(0, -1).join(', '), last: listed.at(-1) ?? '' } } } } }
      : { key: 'settings.oneOf', params: { got: got(value), options: listed.join(', ') } };
  return whenGiven(
    is((value): value is T => (choices as readonly unknown[]).includes(value), said),
    fallback,
  );
}

/** An object of texts (`{"01": "A"}`), or left out. */
export const textTable: Schema<Readonly<Record<string, string>> | undefined> = whenGiven(
  is(
    (value): value is Record<string, string> => isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string'),
    { key: 'hardware.profile.textTable', params: { example: '{"01": "A"}' } },
  ),
  undefined,
);

/** A regular expression given as text, with the named groups it must have (one of `needs`; `help` says which). */
export const regexOf = (needs: readonly (readonly string[])[], help: Message): Schema<string> =>
  custom((value) => {
    if (typeof value !== 'string') refuse({ key: 'hardware.profile.regexText' });
    try {
      new RegExp(value, 'u');
    } catch (error) {
      // `why`: the JavaScript engine's own words.
      refuse({ key: 'hardware.profile.regexInvalid', params: { why: (error as Error).message } });
    }
    const groups = [...value.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((match) => match[1] as string);
    if (!needs.some((names) => names.every((name) => groups.includes(name)))) refuse(help);
    return value;
  });
