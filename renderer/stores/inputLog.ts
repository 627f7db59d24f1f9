import { ref } from 'vue';
import type { ConsoleState, NumberedInput } from '../../protocol/contract';

export type InputEvent = NonNullable<ConsoleState['lastInput']>;

export interface LoggedInput {
  readonly id: number;
  /** When it was read: the service's time (ISO 8601), or when this screen got it (ms) from a service that does not say. */
  readonly at: string | number;
  readonly event: InputEvent;
}

const INPUT_LOG_SIZE = 20;

/** The inputs the screens list (newest first): appended by the service's ids, never by comparing states. */
export function useInputLog() {
  let inputSequence = 0;
  /** The service's id of the newest input logged. */
  let lastInputId = 0;
  const inputLog = ref<LoggedInput[]>([]);

  /**
   * Logs the inputs the service numbered after the newest one logged: each once, however many
   * states repeat it, and two identical reads in a row as two entries.
   */
  function logInputs(inputs: readonly NumberedInput[]): void {
    const newest = inputs.at(-1)?.id ?? 0;
    // A restarted service numbers from 1 again: what it numbers now is new.
    if (newest < lastInputId) lastInputId = 0;
    const fresh = inputs.filter((input) => input.id > lastInputId);
    if (fresh.length === 0) return;
    lastInputId = newest;
    const at = Date.now();
    const logged = fresh.map((input) => ({ id: (inputSequence += 1), at: input.at ?? at, event: input.event })).reverse();
    inputLog.value = [...logged, ...inputLog.value].slice(0, INPUT_LOG_SIZE);
  }

  return { inputLog, logInputs };
}
