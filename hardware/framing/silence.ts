import { DEFAULT_MAX_FRAME, type Frame, type Framer } from './frame';

/**
 * For readers that send no terminator: whatever arrives in one burst is one frame, ended by
 * `idleMs` of silence. Surrounding CR/LF are trimmed, since some readers add them anyway.
 */
export function silenceFramer(idleMs = 50, maxLength = DEFAULT_MAX_FRAME): Framer {
  let pending: number[] = [];
  const framer: Framer = {
    idleMs,
    push(chunk) {
      const frames: Frame[] = [];
      for (const byte of chunk) {
        pending.push(byte);
        if (pending.length > maxLength) {
          frames.push({ bytes: Buffer.from(pending), error: `no pause after ${maxLength} bytes` });
          pending = [];
        }
      }
      return frames;
    },
    flush() {
      let start = 0;
      let end = pending.length;
      while (start < end && (pending[start] === 0x0d || pending[start] === 0x0a)) start += 1;
      while (end > start && (pending[end - 1] === 0x0d || pending[end - 1] === 0x0a)) end -= 1;
      const bytes = Buffer.from(pending.slice(start, end));
      pending = [];
      return bytes.length === 0 ? [] : [{ bytes }];
    },
    // A burst is ended by silence, and a vanished device is silent: what arrived is complete.
    cutOff: () => framer.flush(),
  };
  return framer;
}
