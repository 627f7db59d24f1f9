/**
 * A command of the table (protocol/commands.ts) as its arguments' schemas: its argument count, its
 * check and the types of its parameters all come from the one list of `arg`s, so a signature cannot
 * say what the check does not take. Only the result's type is written (`.returns<Result>()`): the
 * service makes it, nothing checks it.
 */
import { isInputError } from '../engine/errors';
import { MAX_NESTING, nestedDeeperThan } from '../engine/validate';
import type { CommandError } from './schema';
import { commandErrorOf, parse, refusalOf, type Infer, type Schema } from './schema';

export type Args = readonly unknown[];

/** The arguments as they may reach the service (unknown fields dropped, defaults filled in), or why not. */
export type Checked = { readonly ok: true; readonly args: Args } | { readonly ok: false; readonly error: CommandError };

/** One argument: the field its refusals name, its schema, and whether a caller may leave it out (the last ones only). */
export interface Argument<T = unknown, Optional extends boolean = boolean> {
  readonly field: string;
  readonly schema: Schema<T>;
  readonly optional: Optional;
}

export const arg = <T>(field: string, schema: Schema<T>): Argument<T, false> => ({ field, schema, optional: false });

/** An argument the caller may leave out: its schema reads what a left-out one means (undefined). */
export const optionalArg = <T>(field: string, schema: Schema<T>): Argument<T, true> => ({ field, schema, optional: true });

/** The parameters a list of arguments makes: each its schema's type, the optional ones optional. */
export type ParametersOf<List extends readonly Argument[]> = List extends readonly [infer First, ...infer Rest extends readonly Argument[]]
  ? First extends Argument<infer T, true>
    ? [T?, ...ParametersOf<Rest>]
    : First extends Argument<infer T, false>
      ? [T, ...ParametersOf<Rest>]
      : never
  : [];

// A signature is any function type: its parameters are read, never called with.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Signature = (...args: any[]) => unknown;

/** One command: its arguments' count and check; `Call` is its signature, as a type only. */
export interface Command<Call extends Signature = Signature> {
  readonly arity: number;
  readonly check: (args: Args) => Checked;
  /** The arguments' descriptions the check reads (their fields, in order). */
  readonly arguments: readonly Argument[];
  /** Never set: it carries `Call` for ConsoleCommands. */
  readonly signature?: Call;
}

/**
 * The refusal of an argument nested deeper than MAX_NESTING (named by its field), or null: asked
 * before anything walks the arguments (a schema, JSON.stringify, a structured clone: each recurses,
 * and overflows the stack some thousands deep), by the check below and by the screen's own calls
 * (commandCalls) before they are handed to IPC or the WebSocket bridge.
 */
export function tooDeepArgument(list: readonly Argument[], args: Args): CommandError | null {
  for (const [index, value] of args.entries()) {
    if (nestedDeeperThan(value, MAX_NESTING)) return refusalOf(list[index]?.field ?? 'args', { key: 'value.tooDeep', params: { n: MAX_NESTING } });
  }
  return null;
}

/**
 * Reads each argument in turn with its schema (the argument list is each one's parent, so a later
 * one may depend on an earlier: a game's house options on the game), the first refused the answer.
 * An argument nested too deep is refused before any is read.
 */
function checkArguments(list: readonly Argument[], args: Args): Checked {
  const deep = tooDeepArgument(list, args);
  if (deep !== null) return { ok: false, error: deep };
  const read: unknown[] = [];
  for (const [index, { field, schema }] of list.entries()) {
    try {
      read.push(parse(schema, args[index], field, read));
    } catch (error) {
      if (!isInputError(error)) throw error;
      return { ok: false, error: commandErrorOf(error) };
    }
  }
  return { ok: true, args: read };
}

/** A command taking `list`'s arguments; `.returns<Result>()` gives its signature's result. */
export function command<const List extends readonly Argument[]>(...list: List): { returns<Result>(): Command<(...args: ParametersOf<List>) => Result> } {
  return { returns: () => ({ arity: list.length, check: (args) => checkArguments(list, args), arguments: list }) };
}

/** The type an argument's schema gives (for a shape a command and a file share). */
export type ArgumentOf<A> = A extends Argument<infer T> ? T : never;
export type { Infer };
