import type { ShoeEvent } from './events';
import { FrameDecoder } from './pipeline';
import type { DeviceProfile } from './profile';

/** What one scan becomes: a card, a device message, or text that is no card (with why, in keys). */
export type ScanRead = Exclude<ShoeEvent, { readonly type: 'status' }>;

/**
 * What a scanner may put around the data, the way it is usually configured: STX and ETX, CR, LF,
 * Tab and spaces (any control character or blank at either end). An AIM symbology identifier
 * (`]E0`, `]C1`) inside them, and a Code ID for a profile with `codeId`, go as a frame's do.
 */
const SCANNER_WRAPPING = /^[\s\p{Cc}]+|[\s\p{Cc}]+$/gu;

/**
 * One keyboard-wedge scan decoded by the scanner's profile, as one frame of it (a scan is one
 * read: no start-up grace, no repeat window, no noise flag): the one way the station decodes a
 * scan. `raw` is the text as scanned.
 */
export function decodeScan(profile: DeviceProfile, text: string): ScanRead {
  const [event] = new FrameDecoder(profile).decode({ bytes: Buffer.from(text.replace(SCANNER_WRAPPING, '')) });
  // A lone frame decoded without a time gives exactly one event, and never a status.
  const read = event as ScanRead;
  return { ...read, raw: text };
}
