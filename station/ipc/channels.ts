import { COMMAND_NAMES, type CommandName } from '../../protocol/commands';
import { API_KEY } from '../../protocol/constants';

/** IPC channel names: one per command of the table, one for pushed state; all under the API's key. */
export const STATE_CHANNEL = `${API_KEY}:state`;

export function commandChannel(name: CommandName): string {
  return `${API_KEY}:${name}`;
}

/** Every command's channel, in the table's order: what station/electron/ipc.ts registers. */
export const COMMAND_CHANNELS: ReadonlyMap<CommandName, string> = new Map(COMMAND_NAMES.map((name) => [name, commandChannel(name)]));
