import type { FloorLinkState } from '../../protocol/contract';

/**
 * The link's state as handed on: when it changed; a count that only went up or down (records to
 * send) at most every `countMs`, the latest one when that time is up.
 */
export class StatePublisher {
  /** The state last handed on, and when. */
  private published: { state: FloorLinkState; at: number } | null = null;
  private countTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly countMs: number,
    /** The link's state now (read again when a held count's time is up). */
    private readonly current: () => FloorLinkState,
    private readonly onState: (state: FloorLinkState) => void,
  ) {}

  emit(): void {
    if (this.closed) return;
    const last = this.published;
    const state = this.current();
    if (last !== null && JSON.stringify(last.state) === JSON.stringify(state)) return;
    const now = Date.now();
    const countOnly = last !== null && last.state.state === state.state && JSON.stringify({ ...last.state, records: 0 }) === JSON.stringify({ ...state, records: 0 });
    if (countOnly && now - last.at < this.countMs) {
      if (this.countTimer === undefined) {
        this.countTimer = setTimeout(() => {
          this.countTimer = undefined;
          this.emit();
        }, this.countMs - (now - last.at));
      }
      return;
    }
    clearTimeout(this.countTimer);
    this.countTimer = undefined;
    this.published = { state, at: now };
    this.onState(state);
  }

  /** Says nothing more. */
  close(): void {
    this.closed = true;
    clearTimeout(this.countTimer);
    this.countTimer = undefined;
  }
}
