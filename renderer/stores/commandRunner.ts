import type { CommandName, ConsoleApi, ConsoleCommands } from '../../protocol/commands';
import type { CommandResult, ConsoleState } from '../../protocol/contract';
import { isCommandResult, toUiError, type ActionName, type Outcome, type UiError } from './outcomes';

/**
 * The one way a screen runs a command of the table (protocol/commands.ts): by its name and its
 * arguments, typed from the table, so a wrong name or argument fails to compile. Commands that act
 * on the open race or game name it themselves (TARGETS): a screen gives only the rest.
 */

/** Every command a screen runs (the state arrives by itself). */
export type RunnableName = Exclude<CommandName, 'getState'>;

/** What a command answers when it succeeds. */
export type CommandValue<Name extends CommandName> = ReturnType<ConsoleCommands[Name]> extends CommandResult<infer Value> ? Value : never;

/** Which open thing a command acts on: the race or game shown (`open`), or only a race, or only a game. */
type Target = 'open' | 'race' | 'game';

/**
 * The commands whose first argument is the race or game the screen shows: the runner fills it in,
 * so a screen that is behind (a second window, a tab left open) cannot act on whatever is open now.
 */
export const TARGETS = {
  dealCard: 'open',
  dealScan: 'open',
  voidCards: 'race',
  confirmRace: 'race',
  abandonRace: 'race',
  gameAction: 'game',
  closeGame: 'game',
} as const satisfies { readonly [Name in RunnableName]?: Parameters<ConsoleCommands[Name]>[0] extends string ? Target : never };

type Targeted = keyof typeof TARGETS;
type AfterFirst<List> = List extends readonly [unknown, ...infer Rest] ? Rest : never;

/** A command's arguments as a screen gives them: all of them, or all but the target the runner names. */
export type RunArgs<Name extends RunnableName> = Name extends Targeted ? AfterFirst<Parameters<ConsoleCommands[Name]>> : Parameters<ConsoleCommands[Name]>;

/** Runs a command of the table (see RunArgs); every outcome is an Outcome, never a throw. */
export type CommandRunner = <Name extends RunnableName>(name: Name, ...args: RunArgs<Name>) => Promise<Outcome<CommandValue<Name>>>;

/** What a command does on the screen besides its call; every part optional. */
export interface CommandEffect<Name extends RunnableName = RunnableName> {
  /** Its error and busy flag are another action's (a scan's refusal is the deal's). */
  readonly errorAs?: ActionName;
  /** Keeps no error or busy flag: its caller keeps the latest answer's. */
  readonly untracked?: true;
  /** Nothing to send: the state is already so (answers ok without calling). */
  readonly unneeded?: (state: ConsoleState | null, ...args: RunArgs<Name>) => boolean;
  /** On success: the errors it settles, then the rest. */
  readonly settles?: readonly ActionName[];
  readonly succeeded?: (value: CommandValue<Name>, ...args: RunArgs<Name>) => void;
  readonly refused?: (error: UiError) => void;
}

export type CommandEffects = { readonly [Name in RunnableName]?: CommandEffect<Name> };

export interface RunnerParts {
  readonly api: () => ConsoleApi | null;
  readonly state: () => ConsoleState | null;
  readonly errors: Partial<Record<ActionName, UiError | null>>;
  readonly busy: Partial<Record<ActionName, boolean>>;
  readonly effects: CommandEffects;
}

const NOTHING_OPEN: UiError = { field: 'race', message: 'no race is open', key: 'errors.nothingOpen' };

/** The id of the race or game `target` names in `state`, or null when none is open. */
function targetOf(state: ConsoleState | null, target: Target): string | null {
  if (target === 'race') return state?.race?.id ?? null;
  if (target === 'game') return state?.game?.id ?? null;
  return state?.race?.id ?? state?.game?.id ?? null;
}

/** The runner over these parts: the error and busy flag kept, the answer checked, the effect applied. */
export function createCommandRunner(parts: RunnerParts): CommandRunner {
  async function call(name: RunnableName, args: readonly unknown[]): Promise<Outcome<unknown>> {
    try {
      const api = parts.api();
      if (api === null) throw new Error('no console service');
      const send = api[name] as (...sent: unknown[]) => Promise<unknown>;
      const result = await send(...args);
      return isCommandResult(result) ? result : { ok: false, error: { field: 'result', message: 'the console service gave an answer the screen cannot read', key: 'errors.badAnswer' } };
    } catch (error) {
      return { ok: false, error: toUiError(error) };
    }
  }

  async function run(name: RunnableName, ...given: unknown[]): Promise<Outcome<unknown>> {
    const effect = parts.effects[name] as CommandEffect | undefined;
    const action: ActionName | null = effect?.untracked === true ? null : (effect?.errorAs ?? (name as ActionName));
    // Left-out optional arguments are left out on the wire too (a JSON array would say null).
    while (given.length > 0 && given.at(-1) === undefined) given.pop();
    const args = given as RunArgs<RunnableName>;
    if (effect?.unneeded?.(parts.state(), ...args) === true) return { ok: true, value: null };
    let outcome: Outcome<unknown>;
    const target = Object.hasOwn(TARGETS, name) ? TARGETS[name as Targeted] : null;
    const id = target === null ? null : targetOf(parts.state(), target);
    if (target !== null && id === null) {
      outcome = { ok: false, error: target === 'game' ? { ...NOTHING_OPEN, field: 'game' } : NOTHING_OPEN };
    } else {
      if (action !== null) {
        parts.errors[action] = null;
        parts.busy[action] = true;
      }
      outcome = await call(name, id === null ? args : [id, ...args]);
      if (action !== null) parts.busy[action] = false;
    }
    if (!outcome.ok) {
      if (action !== null) parts.errors[action] = outcome.error;
      effect?.refused?.(outcome.error);
      return outcome;
    }
    for (const settled of effect?.settles ?? []) parts.errors[settled] = null;
    effect?.succeeded?.(outcome.value as never, ...args);
    return outcome;
  }

  return run as CommandRunner;
}
