/**
 * The house schema builder: each boundary's shape (a command's arguments, the settings file, the
 * count-draft and outbox files, the floor's clock row, the bridge's requests and state messages,
 * a device profile file) is described once with these, and both its TypeScript type (`Infer`)
 * and its check come from that description. It lives in the engine, pure as the rest of it, so
 * hardware/ (which may import only the engine) describes its profile files with it too;
 * protocol/schema.ts re-exports it with the refusal as the screens get it (`refusalOf`).
 * Chosen over valibot, zod and typebox on measurement (docs/architecture.md, "Boundaries"): the
 * smallest addition to the renderer's JavaScript and the second fastest, and its refusals are the
 * keyed `{field, said}` the screens already translate, with no second mapping from a library's issues.
 *
 * A schema reads a value and returns what may pass on (unknown fields dropped, defaults filled
 * in), or throws the refusal. Where a value sits is added only on the way out of a refusal, so a
 * value that passes builds no field names. Pure: no I/O, no clock.
 */
import { InputError } from './errors';
import type { Message } from './messages';

/** A key or a list index, on the way from the value refused out to the value read. */
type Step = string | number;

/** A refusal found while reading, and the steps from the value refused up to the value read (innermost first). */
class Refusal {
  readonly steps: Step[] = [];
  constructor(readonly said: Message) {}
}

/**
 * What a refusal says: a message, or one made from the value refused and the object or argument
 * list it is in (a chip count's refusal names its seat).
 */
export type Said = Message | ((value: unknown, parent: unknown) => Message);

export interface Schema<Out> {
  /** `value` as it may pass on, read where `parent` (its object, list or argument list) holds it; throws a refusal. */
  readonly read: (value: unknown, parent: unknown) => Out;
}

/** The type a schema gives. */
export type Infer<S> = S extends Schema<infer Out> ? Out : never;

const say = (said: Said, value: unknown, parent: unknown): Message => (typeof said === 'function' ? said(value, parent) : said);

/** Refuses with `said` (for `custom` and `refine` readers). */
export function refuse(said: Message): never {
  throw new Refusal(said);
}

/** A refusal from inside `step` (a key, an index) passed out with the step added; anything else unchanged. */
function within(error: unknown, step: Step): unknown {
  if (error instanceof Refusal) error.steps.push(step);
  return error;
}

/** The field a refusal names: `root` then its steps (`counts[1].seat`, `table.seats[0].name`). */
function fieldOf(root: string, steps: readonly Step[]): string {
  let field = root;
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index] as Step;
    field = typeof step === 'number' ? `${field}[${step}]` : field === '' ? step : `${field}.${step}`;
  }
  return field;
}

/** A value that passes `test`, as it is; otherwise refused with `said`. */
export const is = <T>(test: (value: unknown) => value is T, said: Said): Schema<T> => ({
  read: (value, parent) => (test(value) ? value : refuse(say(said, value, parent))),
});

export function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** A whole number from `min` to `max`. */
export const whole = (min: number, max: number, said: Said): Schema<number> => is((value): value is number => isWhole(value, min, max), said);

export const boolean = (said: Said): Schema<boolean> => is((value): value is boolean => typeof value === 'boolean', said);

/** One of `options` (text or numbers, compared as they are). */
export const oneOf = <const T extends readonly (string | number)[]>(options: T, said: Said): Schema<T[number]> =>
  is((value): value is T[number] => (options as readonly unknown[]).includes(value), said);

/** Text of at most `max` characters (`notText` when it is none, `tooLong` when longer). */
export const text = (max: number, notText: Said, tooLong: Said): Schema<string> => ({
  read: (value, parent) => {
    if (typeof value !== 'string') refuse(say(notText, value, parent));
    if (value.length > max) refuse(say(tooLong, value, parent));
    return value;
  },
});

/** `schema`, or null as it is. */
export const nullable = <T>(schema: Schema<T>): Schema<T | null> => ({ read: (value, parent) => (value === null ? null : schema.read(value, parent)) });

/** `schema`, or `fallback` for a value left out (undefined or null). */
export const withDefault = <T>(schema: Schema<T>, fallback: T): Schema<T> => ({ read: (value, parent) => (value === undefined || value === null ? fallback : schema.read(value, parent)) });

/**
 * `schema` for any value given, null included; `fallback` only for one left out (undefined): a
 * file whose reader always refused a null (device profiles) keeps refusing it.
 */
export const whenGiven = <T, F>(schema: Schema<T>, fallback: F): Schema<T | F> => ({ read: (value, parent) => (value === undefined ? fallback : schema.read(value, parent)) });

/** `schema`, or absent: the field is left out of the object read when its value is undefined or null. */
export const optional = <T>(schema: Schema<T>): Schema<T | undefined> => ({ read: (value, parent) => (value === undefined || value === null ? undefined : schema.read(value, parent)) });

/** A plain object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Shape = Readonly<Record<string, Schema<unknown>>>;
type Flat<T> = { readonly [Key in keyof T]: T[Key] };
/** An object's type: a field whose schema may give undefined is optional. */
type ObjectOf<S extends Shape> = Flat<
  { [Key in keyof S as undefined extends Infer<S[Key]> ? never : Key]: Infer<S[Key]> } & { [Key in keyof S as undefined extends Infer<S[Key]> ? Key : never]?: Exclude<Infer<S[Key]>, undefined> }
>;

export interface ObjectOptions {
  /** A list is read as an object whose fields are all absent (refused otherwise, as no plain object). */
  readonly listsToo?: boolean;
  /**
   * Fields read before the others (so the first refused is named as an older reader named it),
   * though what passes on keeps the order of `shape`.
   */
  readonly readFirst?: readonly string[];
}

/**
 * An object of the fields of `shape`, each read in its order (the first refused is the one
 * named); any other field is dropped. `said`: the refusal of a value that is no plain object (with
 * `listsToo`, of one that is no object). `options`: `true` is `{listsToo: true}`.
 */
export function object<S extends Shape>(shape: S, said: Said, options: boolean | ObjectOptions = false): Schema<ObjectOf<S>> {
  const { listsToo = false, readFirst = [] } = typeof options === 'boolean' ? { listsToo: options } : options;
  const keys = Object.keys(shape);
  const order = readFirst.length === 0 ? keys : [...readFirst, ...keys.filter((key) => !readFirst.includes(key))];
  return {
    read: (value, parent) => {
      if (!(listsToo ? typeof value === 'object' && value !== null : isRecord(value))) refuse(say(said, value, parent));
      const read: Record<string, unknown> = {};
      for (const key of order) {
        let field: unknown;
        try {
          field = (shape[key] as Schema<unknown>).read((value as Record<string, unknown>)[key], value);
        } catch (error) {
          throw within(error, key);
        }
        if (field !== undefined) read[key] = field;
      }
      if (order === keys) return read as ObjectOf<S>;
      const ordered: Record<string, unknown> = {};
      for (const key of keys) if (Object.hasOwn(read, key)) ordered[key] = read[key];
      return ordered as ObjectOf<S>;
    },
  };
}

/**
 * As `object`, but a field `shape` does not name is refused at that field with `unknown` (where an
 * extra field means the value is not what it claims: a pushed patch naming no part of the state).
 */
export function exactObject<S extends Shape>(shape: S, said: Said, unknown: Said): Schema<ObjectOf<S>> {
  const inner = object(shape, said);
  return {
    read: (value, parent) => {
      if (isRecord(value)) {
        for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) throw within(new Refusal(say(unknown, value[key], value)), key);
      }
      return inner.read(value, parent);
    },
  };
}

export interface ListOptions<T> {
  readonly min?: number;
  readonly max: number;
  /** The refusal of a value that is no list, or a list of fewer than `min` or more than `max`. */
  readonly said: Said;
  /** Entries that must differ by `key`: the second one with a key already seen is refused at its `field` with `said`. */
  readonly unique?: { readonly key: (entry: T) => unknown; readonly field: string; readonly said: (entry: T) => Message };
  /** The refusal, at the list, of a list with an entry refused (instead of the entry's own, at the entry). */
  readonly entrySaid?: Said;
}

/** A list of entries of `entry`, each read in turn. */
export function list<T>(entry: Schema<T>, options: ListOptions<T>): Schema<readonly T[]> {
  const { min = 0, max, said, unique, entrySaid } = options;
  return {
    read: (value, parent) => {
      if (!Array.isArray(value) || value.length < min || value.length > max) refuse(say(said, value, parent));
      const seen = unique === undefined ? null : new Set<unknown>();
      const read: T[] = [];
      for (let index = 0; index < value.length; index += 1) {
        let item: T;
        try {
          item = entry.read(value[index], value);
        } catch (error) {
          if (entrySaid !== undefined && error instanceof Refusal) refuse(say(entrySaid, value, parent));
          throw within(error, index);
        }
        if (unique !== undefined && seen !== null) {
          const key = unique.key(item);
          if (seen.has(key)) throw within(within(new Refusal(unique.said(item)), unique.field), index);
          seen.add(key);
        }
        read.push(item);
      }
      return read;
    },
  };
}

export interface VariantOptions {
  /** A list is refused as no object (`notObject`); by default it is an object with no tag, refused at the tag. */
  readonly plainOnly?: boolean;
  /** Read before the tag, whatever it names (fields every member has, whose refusal comes first); what it gives is not kept. */
  readonly before?: Schema<unknown>;
}

/**
 * One of several objects told apart by their `tag` field (`type`): `notObject` for a value that
 * is no object, `said` (at the tag) for a tag that names none of `members`.
 */
export function variant<const Tag extends string, Members extends Readonly<Record<string, Schema<unknown>>>>(
  tag: Tag,
  members: Members,
  notObject: Said,
  said: Said,
  options: VariantOptions = {},
): Schema<Infer<Members[keyof Members]>> {
  const { plainOnly = false, before } = options;
  return {
    read: (value, parent) => {
      // A list is an object here (unless `plainOnly`): it has no tag, so it is refused as naming none of the members.
      if (plainOnly ? !isRecord(value) : typeof value !== 'object' || value === null) refuse(say(notObject, value, parent));
      before?.read(value, parent);
      const name = (value as Record<string, unknown>)[tag];
      const member = typeof name === 'string' && Object.hasOwn(members, name) ? members[name] : undefined;
      if (member === undefined) throw within(new Refusal(say(said, name, value)), tag);
      return member.read(value, parent) as Infer<Members[keyof Members]>;
    },
  };
}

/** A tag field's one value (a variant's member names its own). */
export const literal = <const T extends string>(name: T): Schema<T> => ({ read: () => name });

/**
 * A value read by a reader of its own (an engine reader, a check across fields): it returns the
 * value or refuses (`refuse`). An InputError it throws passes out as it is, its field its own.
 */
export const custom = <T>(read: (value: unknown, parent: unknown) => T): Schema<T> => ({ read });

/** Refuses at a field of the value read (null: at the value itself). */
export type RefuseAt = (field: string | null, said: Message) => never;

/** Refuses at a field of the value being read (a `custom` reader's refusal named by where it is). */
export const refuseAt: RefuseAt = (field, said) => {
  throw field === null ? new Refusal(said) : within(new Refusal(said), field);
};

/** `schema`, then `check` on what it read (across its fields), which may refuse (`at`). */
export function refine<T>(schema: Schema<T>, check: (read: T, at: RefuseAt) => void): Schema<T> {
  return transform(schema, (read, at) => {
    check(read, at);
    return read;
  });
}

/** `schema`, and what passes on made from what it read (a list sorted, text trimmed); `make` may refuse (`at`). */
export const transform = <T, U>(schema: Schema<T>, make: (read: T, at: RefuseAt) => U): Schema<U> => ({
  read: (value, parent) => make(schema.read(value, parent), refuseAt),
});

/** One object read by two schemas in turn (the second's fields after the first's, its checks after the first's passed). */
export const and = <A extends object, B extends object>(first: Schema<A>, second: Schema<B>): Schema<Flat<A & B>> => ({
  read: (value, parent) => ({ ...first.read(value, parent), ...second.read(value, parent) }) as Flat<A & B>,
});

/** The same refusal with its field prefixed by `prefix` (a reader of a part refusing at its own field). */
export const prefixed = (prefix: string, error: InputError): InputError => new InputError(`${prefix}.${error.field}`, error.said ?? error.reason);

/**
 * `value` read by `schema`, or an InputError naming the field (`root` then the steps: `root` is
 * '' for a file's whole object, a command argument's name for it) and the refusal.
 */
export function parse<T>(schema: Schema<T>, value: unknown, root = '', parent?: unknown): T {
  try {
    return schema.read(value, parent);
  } catch (error) {
    if (error instanceof Refusal) throw new InputError(fieldOf(root, error.steps), error.said);
    throw error;
  }
}
