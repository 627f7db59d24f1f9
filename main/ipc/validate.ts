import type { Checked } from '../../protocol/argumentChecks';
import { COMMANDS, isCommandName, type CommandName, type ConsoleCommands } from '../../protocol/commands';
import type { CommandResult } from '../../protocol/contract';

/**
 * Checks one incoming call (from IPC or the WebSocket bridge) against the command table
 * (protocol/commands.ts): a known command, the right number and shape of arguments. Nothing
 * else reaches the service.
 */
export function checkCall(method: unknown, args: unknown): Checked & { method?: CommandName } {
  if (!isCommandName(method)) return { ok: false, error: { field: 'method', message: `unknown command ${JSON.stringify(method)}` } };
  if (!Array.isArray(args)) return { ok: false, error: { field: 'args', message: 'must be a list' } };
  const { arity, check } = COMMANDS[method];
  if (args.length > arity) return { ok: false, error: { field: 'args', message: `${method} takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}` } };
  return { ...check(args), method };
}

export type CommandTarget = { readonly [Name in CommandName]: (...args: never[]) => ReturnType<ConsoleCommands[Name]> | Promise<ReturnType<ConsoleCommands[Name]>> };

/** Validates a call and runs it on the service; a refused call never reaches it. */
export async function dispatch(target: CommandTarget, method: unknown, args: unknown): Promise<unknown> {
  const checked = checkCall(method, args);
  if (!checked.ok || checked.method === undefined) return { ok: false, error: checked.ok ? { field: 'method', message: 'unknown command' } : checked.error } satisfies CommandResult<never>;
  const handler = target[checked.method] as (...args: readonly unknown[]) => unknown;
  return handler.apply(target, [...checked.args]);
}
