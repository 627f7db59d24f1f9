import { literal, type Infer } from '../../engine/schema';
import { kindOptions } from '../deviceKind';
import { cutOffFrame, DEFAULT_MAX_FRAME, FRAME_MAX_LENGTH, type Frame, type Framer, type FramingKind } from './frame';

/** A profile's `framing` for lines: `{"kind": "lines"}`, optionally with `maxLength`. */
const LINES_OPTIONS = kindOptions({ kind: literal('lines'), maxLength: FRAME_MAX_LENGTH });
export type LinesFraming = Infer<typeof LINES_OPTIONS>;

const CR = 0x0d;
const LF = 0x0a;

/**
 * Lines ending in CR, LF or CRLF, mixed in one stream. A CRLF split across two reads is one line
 * end: after a CR, a leading LF is swallowed. Empty lines carry nothing and are skipped.
 */
export function lineFramer(maxLength = DEFAULT_MAX_FRAME): Framer {
  let pending: number[] = [];
  let afterCR = false;
  const take = (): Frame[] => {
    const bytes = Buffer.from(pending);
    pending = [];
    return bytes.length === 0 ? [] : [{ bytes }];
  };
  return {
    push(chunk) {
      const frames: Frame[] = [];
      for (const byte of chunk) {
        if (byte === LF && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === CR;
        if (byte === CR || byte === LF) {
          frames.push(...take());
        } else {
          pending.push(byte);
          if (pending.length > maxLength) {
            frames.push({ bytes: Buffer.from(pending), error: { key: 'hardware.frame.noLineEnd', params: { n: maxLength } } });
            pending = [];
          }
        }
      }
      return frames;
    },
    flush: take,
    cutOff() {
      const frames = cutOffFrame(pending);
      pending = [];
      afterCR = false;
      return frames;
    },
  };
}

export const LINES_FRAMING: FramingKind<LinesFraming> = {
  kind: 'lines',
  summary: 'One message per line (CR, LF or CRLF).',
  schema: LINES_OPTIONS,
  create: (config) => lineFramer(config.maxLength ?? DEFAULT_MAX_FRAME),
  describe: () => 'one message per line (CR, LF or CRLF)',
  wrap: (payload, _config, lineEnding) => Buffer.concat([payload, Buffer.from(lineEnding)]),
};
