import { InputError } from './errors';

/** For tests: runs `run`, expecting it to refuse its input with an InputError, and returns that error. */
export function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected the input to be refused');
}
