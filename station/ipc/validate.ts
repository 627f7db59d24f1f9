import type { Checked } from '../../protocol/commandSchema';
import { COMMANDS, isCommandName, type CommandName, type ConsoleCommands } from '../../protocol/commands';
import type { CommandError, CommandResult } from '../../protocol/contract';
import { refusalOf } from '../../protocol/schema';

/**
 * Checks one incoming call (from IPC or the WebSocket bridge) against the command table
 * (protocol/commands.ts): a known command, the right number of arguments, each read by its
 * schema. Nothing else reaches the service.
 */
export function checkCall(method: unknown, args: unknown): Checked & { method?: CommandName } {
  if (!isCommandName(method)) return { ok: false, error: refusalOf('method', { key: 'command.unknown', params: { name: String(JSON.stringify(method)) } }) };
  if (!Array.isArray(args)) return { ok: false, error: refusalOf('args', { key: 'command.argsNotList' }) };
  const { arity, check } = COMMANDS[method];
  if (args.length > arity) return { ok: false, error: refusalOf('args', { key: 'command.arity', params: { method, n: arity, got: args.length } }) };
  return { ...check(args), method };
}

const unknownCommand: CommandError = refusalOf('method', { key: 'command.unknownCommand' });

export type CommandTarget = { readonly [Name in CommandName]: (...args: never[]) => ReturnType<ConsoleCommands[Name]> | Promise<ReturnType<ConsoleCommands[Name]>> };

/** Validates a call and runs it on the service; a refused call never reaches it. */
export async function dispatch(target: CommandTarget, method: unknown, args: unknown): Promise<unknown> {
  const checked = checkCall(method, args);
  if (!checked.ok || checked.method === undefined) return { ok: false, error: checked.ok ? unknownCommand : checked.error } satisfies CommandResult<never>;
  const handler = target[checked.method] as (...args: readonly unknown[]) => unknown;
  return handler.apply(target, [...checked.args]);
}
