import type { IpcMainInvokeEvent } from 'electron';
import type { CommandResult } from '../../protocol/contract';
import { COMMAND_CHANNELS } from '../ipc/channels';
import { dispatch, type CommandTarget } from '../ipc/validate';
import { isTrustedSenderUrl } from './security';

/** The part of ipcMain this needs, so it is tested with a stand-in instead of Electron. */
export interface IpcRegistry {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

const UNTRUSTED: CommandResult<never> = { ok: false, error: { field: 'sender', message: 'refused: the request did not come from the console page' } };
const NOT_DEALER: CommandResult<never> = { ok: false, error: { field: 'sender', message: 'refused: only the dealer window sends commands (the player display is read-only)' } };

/**
 * One handler per command: the sender must be the dealer window's main frame (not the player
 * display's window, not a subframe), showing the console's own page, and the arguments pass the
 * same validation as the browser bridge before the service sees them. `isDealerFrame` tells the
 * dealer window's main frame (station/electron/index.ts compares it with the window it opened). Returns the
 * function that removes the handlers again.
 */
export function registerIpc(ipc: IpcRegistry, service: CommandTarget, appEntryUrl: string, isDealerFrame: (frame: IpcMainInvokeEvent['senderFrame']) => boolean): () => void {
  for (const [name, channel] of COMMAND_CHANNELS) {
    ipc.handle(channel, (event, ...args) => {
      if (!isTrustedSenderUrl(event.senderFrame?.url, appEntryUrl)) return UNTRUSTED;
      if (!isDealerFrame(event.senderFrame)) return NOT_DEALER;
      return dispatch(service, name, args);
    });
  }
  return () => {
    for (const channel of COMMAND_CHANNELS.values()) ipc.removeHandler(channel);
  };
}
