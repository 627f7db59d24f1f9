import type { CommandName } from '../../protocol/contract';

/** IPC channel names: one per command, one for pushed state. */
export const STATE_CHANNEL = 'chipRace:state';

export function commandChannel(name: CommandName): string {
  return `chipRace:${name}`;
}
