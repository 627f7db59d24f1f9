import type { CoverToCheck } from '../journal/checkpoint';
import { checkCover } from '../journal/coverCheck';
import type { Kernel } from './kernel';

/**
 * The check of the journal's bytes a start from a checkpoint took on trust (station/journal/checkpoint.ts),
 * run once the console serves: `checking` in the journal's report from the start, then what it
 * found, published as any change of state is. Closing the console stops it between two chunks; it
 * writes nothing, so a stop (or a kill) mid-check leaves nothing to mend, and the next start checks again.
 */
export class CoverChecking {
  private readonly stop = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly kernel: Kernel,
    /** The service's wall clock (tests inject it), or the computer's. */
    private readonly clock: (() => Date) | undefined,
  ) {}

  start(toCheck: CoverToCheck): void {
    this.kernel.coverCheck = { status: 'checking' };
    // After the start's own last steps: the first state is served before the first block is read.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => checkCover(toCheck, this.stop.signal))
      .then((found) => {
        if (found === null || this.stop.signal.aborted) return;
        const at = (this.clock?.() ?? new Date()).toISOString();
        this.kernel.coverCheck = found.same ? { status: 'ok', at, bytes: found.bytes } : { status: 'damaged', at, block: found.block, from: found.from, to: found.to };
        this.kernel.publish();
      });
  }

  /** Stops the check (if it still runs) and waits for it to let go of the journal. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.running.catch(() => undefined);
  }
}
