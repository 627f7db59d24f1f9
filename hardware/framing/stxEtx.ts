import { printableRaw } from '../events';
import { cutOffFrame, DEFAULT_MAX_FRAME, type Frame, type Framer } from './frame';

export const STX = 0x02;
export const ETX = 0x03;
export const CHECKSUMS = ['none', 'xor', 'sum'] as const;
export type Checksum = (typeof CHECKSUMS)[number];

/** XOR (LRC) or sum mod 256 of the data bytes and the ETX, as most STX/ETX devices compute it. */
export function checksumOf(kind: Exclude<Checksum, 'none'>, data: Uint8Array): number {
  let value = 0;
  for (const byte of data) value = kind === 'xor' ? value ^ byte : (value + byte) & 0xff;
  return kind === 'xor' ? value ^ ETX : (value + ETX) & 0xff;
}

/**
 * STX data ETX [checksum byte]. A frame whose checksum is wrong is refused (returned with an
 * error, its data kept for the log); bytes outside any frame are refused too, never ignored.
 */
export function stxEtxFramer(checksum: Checksum = 'none', maxLength = DEFAULT_MAX_FRAME): Framer {
  let state: 'outside' | 'data' | 'checksum' = 'outside';
  let data: number[] = [];
  let stray: number[] = [];
  const strayFrame = (): Frame[] => {
    const frames = stray.length > 0 ? [{ bytes: Buffer.from(stray), error: `bytes outside an STX…ETX frame: ${printableRaw(Buffer.from(stray))}` }] : [];
    stray = [];
    return frames;
  };
  const finish = (received?: number): Frame => {
    const bytes = Buffer.from(data);
    data = [];
    state = 'outside';
    if (received === undefined || checksum === 'none') return { bytes };
    const expected = checksumOf(checksum, bytes);
    return expected === received
      ? { bytes }
      : { bytes, error: `bad ${checksum} checksum: got 0x${received.toString(16).padStart(2, '0')}, expected 0x${expected.toString(16).padStart(2, '0')}` };
  };
  return {
    push(chunk) {
      const frames: Frame[] = [];
      for (const byte of chunk) {
        if (state === 'checksum') {
          frames.push(finish(byte));
        } else if (byte === STX) {
          frames.push(...strayFrame());
          if (state === 'data') frames.push({ bytes: Buffer.from(data), error: 'frame cut off by a new STX' });
          data = [];
          state = 'data';
        } else if (state === 'outside') {
          // Line ends between frames are common padding, not data.
          if (byte !== 0x0d && byte !== 0x0a) stray.push(byte);
          if (stray.length > maxLength) frames.push(...strayFrame());
        } else if (byte === ETX) {
          if (checksum === 'none') frames.push(finish());
          else state = 'checksum';
        } else {
          data.push(byte);
          if (data.length > maxLength) {
            frames.push({ bytes: Buffer.from(data), error: `no ETX after ${maxLength} bytes` });
            data = [];
            state = 'outside';
          }
        }
      }
      return frames;
    },
    flush() {
      // Only stray bytes are reported on silence: a frame in progress may still be completing.
      return strayFrame();
    },
    cutOff() {
      const frames = [...strayFrame(), ...(state === 'outside' ? [] : cutOffFrame(data))];
      data = [];
      state = 'outside';
      return frames;
    },
  };
}
