import type { Card } from '../../engine/cards';
import type { DeviceMessage, ShoeEvent } from '../events';
import { decodeRecording, type TimedChunk } from '../pipeline';
import { profileSummary, readProfile, type DeviceProfile } from '../profile';
import { settingName, TRIAL_BAUDS, type TrialSetting } from './candidates';

/**
 * Scoring what was heard at one line setting, by every candidate profile: pure (a function of the
 * recorded chunks), so it is tested on recorded bytes; `listen.ts` does the listening.
 */

/** What one candidate read at one setting. */
export interface Reading {
  /** Cards, device messages and well-framed tags (known or not): the frames read cleanly. */
  readonly clean: number;
  /** Frames refused or not understood (apart from those forgiven). */
  readonly bad: number;
  /** An unknown first frame (cut by the start of listening) or last frame (cut by its end): not counted. */
  readonly forgiven: number;
  readonly cards: readonly Card[];
  /** Tag IDs read, in the order first read (the `uid` decoder's keys). */
  readonly tags: readonly string[];
  readonly devices: readonly DeviceMessage[];
}

/** What the recording must hold for a candidate to be offered: this many clean frames and no bad one. */
export const MIN_CLEAN_FRAMES = 2;
/** Listening at a setting ends early once some candidate has read this many frames cleanly and none badly. */
export const ENOUGH_CLEAN_FRAMES = 4;

/** The unknown events that are a well-framed tag nobody has registered yet: a clean read for detection. */
function tagOf(event: ShoeEvent): string | undefined {
  if (event.type !== 'unknown' || event.said.key !== 'hardware.decoder.tagUnknown') return undefined;
  const uid = event.said.params?.uid;
  return typeof uid === 'string' ? uid : undefined;
}

/** How a candidate profile reads the recorded chunks. */
export function readingOf(profile: DeviceProfile, chunks: readonly TimedChunk[]): Reading {
  const events = decodeRecording(profile, chunks).filter((event) => event.type !== 'status');
  const cards: Card[] = [];
  const tags: string[] = [];
  const devices: DeviceMessage[] = [];
  let clean = 0;
  let bad = 0;
  let forgiven = 0;
  events.forEach((event, index) => {
    const tag = tagOf(event);
    if (event.type === 'card') cards.push(event.card);
    else if (event.type === 'device') devices.push(event.message);
    else if (tag !== undefined) {
      if (!tags.includes(tag)) tags.push(tag);
    } else {
      if (index === 0 || index === events.length - 1) forgiven += 1;
      else bad += 1;
      return;
    }
    clean += 1;
  });
  // A forgiven frame must have clean ones beside it: a lone unknown frame is no reading.
  if (clean === 0) return { clean, bad: bad + forgiven, forgiven: 0, cards, tags, devices };
  return { clean, bad, forgiven, cards, tags, devices };
}

export const readsCleanly = (reading: Reading): boolean => reading.bad === 0 && reading.clean >= MIN_CLEAN_FRAMES;

/**
 * A candidate with its line settings set to the trial's, checked by the one validator of profiles.
 * Named after the candidate and the setting (`text-2400-7e1`, `detected-9600-8n1`): no built-in's
 * name, so the console stores it as it is.
 */
export function profileAt(candidate: DeviceProfile, setting: TrialSetting): DeviceProfile {
  const name = `${candidate.name}-${settingName(setting).replace(' ', '-').toLowerCase()}`;
  return readProfile({ ...candidate, name, baud: setting.baud, dataBits: setting.dataBits, parity: setting.parity, stopBits: 1, rtscts: false });
}

/** Every candidate's reading of one recording (the profiles already at its setting). */
export function scoreRecording(candidates: readonly DeviceProfile[], setting: TrialSetting, chunks: readonly TimedChunk[]): { readonly profile: DeviceProfile; readonly reading: Reading }[] {
  return candidates.map((candidate) => {
    const profile = profileAt(candidate, setting);
    return { profile, reading: readingOf(profile, chunks) };
  });
}

/** Whether some candidate has read enough of this recording cleanly to stop listening at its setting. */
export function enoughHeard(candidates: readonly DeviceProfile[], setting: TrialSetting, chunks: readonly TimedChunk[]): boolean {
  return scoreRecording(candidates, setting, chunks).some(({ reading }) => reading.bad === 0 && reading.clean >= ENOUGH_CLEAN_FRAMES);
}

/** What was heard at one setting. */
export interface Recording {
  readonly setting: TrialSetting;
  readonly chunks: readonly TimedChunk[];
}

/** One profile that read the traffic cleanly: complete (readProfile-valid), ready to save as a file. */
export interface Found {
  readonly profile: DeviceProfile;
  /** The profile in one English sentence (profileSummary). */
  readonly summary: string;
  /** `2400 7E1`. */
  readonly setting: string;
  readonly reading: Reading;
}

/**
 * Which 7-bit format the 8N1 recording at the same baud points to. A 7-bit device read at 8N1
 * delivers its parity bit as each byte's top bit (Linux does not check parity on these ports:
 * see testing/uart.ts), so every byte then has an even number of ones for 7E1 and an odd number
 * for 7O1; an 8N1 device's text shows no such rule. `none`: no evidence, 8N1 preferred.
 */
export function parityEvidence(chunks: readonly TimedChunk[]): 'even' | 'odd' | 'none' {
  let even = 0;
  let total = 0;
  let topBit = 0;
  for (const chunk of chunks) {
    for (const byte of chunk.bytes) {
      let ones = 0;
      for (let bit = 0; bit < 8; bit += 1) ones += (byte >> bit) & 1;
      if ((ones & 1) === 0) even += 1;
      if (byte >= 0x80) topBit += 1;
      total += 1;
    }
  }
  // Some top bits set (ASCII alone would have none) and the rule holding for (nearly) every byte.
  if (total < 4 || topBit === 0) return 'none';
  if (even >= total * 0.95) return 'even';
  if (even <= total * 0.05) return 'odd';
  return 'none';
}

/**
 * How much a profile's framing checks of each frame beyond where it ends: its checksums and fixed
 * bytes. Of two profiles that read a recording equally, the one that checked more is the likelier
 * (an RDM6300's frames read by plain STX…ETX give its tags with the checksum digits on).
 */
export function framingChecks(profile: DeviceProfile): number {
  const framing = profile.framing as { readonly kind: string; readonly checksum?: string; readonly checksums?: readonly unknown[]; readonly match?: readonly unknown[]; readonly start?: string; readonly end?: string };
  if (framing.kind === 'stx-etx') return framing.checksum === undefined || framing.checksum === 'none' ? 0 : 1;
  return (framing.checksums?.length ?? 0) + (framing.match?.length ?? 0) + (framing.start === undefined ? 0 : 1) + (framing.end === undefined ? 0 : 1);
}

/**
 * The profiles that read their recording cleanly, best first: at each baud the format the parity
 * evidence points to first (8N1 without evidence), then the most frames read, then the framing
 * that checks the most (framingChecks), then the bauds and the candidates in the order they are
 * tried. At most `limit`.
 */
export function rankRecordings(candidates: readonly DeviceProfile[], recordings: readonly Recording[], limit = 12): Found[] {
  const found: { found: Found; preferred: boolean; checks: number; baudOrder: number; order: number }[] = [];
  for (const recording of recordings) {
    const { setting } = recording;
    const eightN1 = recordings.find((other) => other.setting.baud === setting.baud && other.setting.dataBits === 8 && other.setting.parity === 'none');
    const evidence = eightN1 === undefined ? 'none' : parityEvidence(eightN1.chunks);
    const preferred = evidence === 'none' ? setting.dataBits === 8 : setting.dataBits === 7 && setting.parity === evidence;
    const baudOrder = (TRIAL_BAUDS as readonly number[]).indexOf(setting.baud);
    scoreRecording(candidates, setting, recording.chunks).forEach(({ profile, reading }, order) => {
      if (!readsCleanly(reading)) return;
      found.push({ found: { profile, summary: profileSummary(profile), setting: settingName(setting), reading }, preferred, checks: framingChecks(profile), baudOrder, order });
    });
  }
  found.sort((a, b) => Number(b.preferred) - Number(a.preferred) || b.found.reading.clean - a.found.reading.clean || b.checks - a.checks || a.baudOrder - b.baudOrder || a.order - b.order);
  return found.slice(0, limit).map((entry) => entry.found);
}
