import type { CommandError, StateMessage } from '../../protocol/contract';

/** An API that tells which pushed state message it refused last (the bridge's and the preload's both do). */
export interface StateRefusalSource {
  /**
   * Calls `listener` with the refusal standing now (null: none) and with every change: a refused
   * message sets it, the next whole state taken clears it (until then the page shows a state that
   * may lack what the refused message carried). Returns the function that stops it.
   */
  onStateRefusal(listener: (error: CommandError | null) => void): () => void;
}

/** A refused state message in the page's log, in keys' English: the field and why. */
export function logStateRefusal(error: CommandError): void {
  console.warn(`state message refused: ${error.field === '' ? '' : `${error.field}: `}${error.message}`);
}

/** The refusals of one API's state messages: `refused` and `taken` as messages come, `onStateRefusal` for the screens. */
export function createStateRefusals(onRefused: (error: CommandError) => void = logStateRefusal) {
  const listeners = new Set<(error: CommandError | null) => void>();
  let standing: CommandError | null = null;
  const tell = (error: CommandError | null) => {
    standing = error;
    for (const listener of [...listeners]) listener(error);
  };
  return {
    refused(error: CommandError): void {
      onRefused(error);
      tell(error);
    },
    taken(message: StateMessage): void {
      if (message.type === 'state' && standing !== null) tell(null);
    },
    source: {
      onStateRefusal(listener: (error: CommandError | null) => void) {
        listeners.add(listener);
        listener(standing);
        return () => {
          listeners.delete(listener);
        };
      },
    } satisfies StateRefusalSource,
  };
}

/** Whether `api` tells its state messages' refusals. */
export function hasStateRefusals<Api extends object>(api: Api): api is Api & StateRefusalSource {
  return typeof (api as Partial<StateRefusalSource>).onStateRefusal === 'function';
}
