/** One framed message from the device, or the bytes of a message the framing refused. */
export interface Frame {
  readonly bytes: Buffer;
  /** Set when the framing refused these bytes (bad checksum, overlong, bytes outside a frame). */
  readonly error?: string;
}

/**
 * An incremental framer: bytes in as they arrive (any split), whole frames out. Pure apart from
 * its own buffer, so it is tested on recorded byte streams; the stream wrapper adds the timing.
 */
export interface Framer {
  push(chunk: Uint8Array): Frame[];
  /** Called after `idleMs` of silence (when set) and at the end of the stream. */
  flush(): Frame[];
  /** Silence that ends a frame, for readers that send no terminator. */
  readonly idleMs?: number;
}

/** Frames longer than this are refused rather than buffered forever (a wrong baud rate never sends a terminator). */
export const DEFAULT_MAX_FRAME = 256;
