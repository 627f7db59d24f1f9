import type { CommandName } from '../commands';

/**
 * The page's commands as a test harness records them, and the answers a test cans: what the
 * renderer's state-only stub (renderer/testing/stubApi.ts) and the station's kernel in-process
 * (station/testing/inProcessApi.ts) both keep of the calls made to them.
 */
export interface CommandCall {
  readonly method: CommandName;
  readonly args: readonly unknown[];
}

export interface CommandLog {
  /** The calls, in order, with their arguments as sent. */
  readonly calls: CommandCall[];
  /** Calls of one method, by their argument lists. */
  callsOf(method: CommandName): (readonly unknown[])[];
  /** From now on `method` answers `result` (until `clearCanned`). */
  cann(method: CommandName, result: unknown): void;
  clearCanned(method?: CommandName): void;
}

/** A log with `answers` canned from the start; `canned` is what the harness answers from. */
export function commandLog(answers: Partial<Readonly<Record<CommandName, unknown>>> = {}): CommandLog & { readonly canned: ReadonlyMap<CommandName, unknown> } {
  const calls: CommandCall[] = [];
  const canned = new Map<CommandName, unknown>(Object.entries(answers) as [CommandName, unknown][]);
  return {
    calls,
    canned,
    callsOf: (method) => calls.filter((call) => call.method === method).map((call) => call.args),
    cann: (method, result) => {
      canned.set(method, result);
    },
    clearCanned: (method) => {
      if (method === undefined) canned.clear();
      else canned.delete(method);
    },
  };
}
