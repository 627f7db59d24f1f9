import { literal, type Infer } from '../../engine/schema';
import { kindOptions, wholeIn } from '../deviceKind';
import { DEFAULT_MAX_FRAME, FRAME_MAX_LENGTH, type Frame, type Framer, type FramingKind } from './frame';

/** A profile's `framing` for readers that send no terminator: a burst ended by `idleMs` of silence (5 to 5000, 50 when left out). */
const SILENCE_OPTIONS = kindOptions({ kind: literal('silence'), idleMs: wholeIn(5, 5000, 50), maxLength: FRAME_MAX_LENGTH });
export type SilenceFraming = Infer<typeof SILENCE_OPTIONS>;

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
          frames.push({ bytes: Buffer.from(pending), error: { key: 'hardware.frame.noPause', params: { n: maxLength } } });
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

export const SILENCE_FRAMING: FramingKind<SilenceFraming> = {
  kind: 'silence',
  summary: 'One message per burst, ended by a pause.',
  schema: SILENCE_OPTIONS,
  create: (config) => silenceFramer(config.idleMs, config.maxLength ?? DEFAULT_MAX_FRAME),
  describe: (config) => `one message per burst, ended by ${config.idleMs} ms of silence`,
  // Nothing added: the sender pauses instead.
  wrap: (payload) => payload,
};
