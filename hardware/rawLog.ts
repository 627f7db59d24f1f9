import { printableRaw } from './events';

export interface RawLogEntry {
  /** Milliseconds since the epoch, from the clock the log was given. */
  readonly at: number;
  readonly hex: string;
  readonly text: string;
}

/**
 * The last bytes a device sent, kept in a ring of bounded size, for diagnosing a new device
 * ("what does this shoe actually send?") without a protocol analyser.
 */
export class RawLog {
  private readonly entries: RawLogEntry[] = [];
  private bytes = 0;

  constructor(
    private readonly maxBytes = 4096,
    private readonly clock: () => number = Date.now,
  ) {}

  record(chunk: Uint8Array): void {
    this.entries.push({ at: this.clock(), hex: Buffer.from(chunk).toString('hex'), text: printableRaw(chunk) });
    this.bytes += chunk.length;
    while (this.bytes > this.maxBytes && this.entries.length > 1) {
      const dropped = this.entries.shift() as RawLogEntry;
      this.bytes -= dropped.hex.length / 2;
    }
  }

  list(): readonly RawLogEntry[] {
    return [...this.entries];
  }
}
