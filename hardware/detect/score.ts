import type { Card } from '../../engine/cards';
import type { DeviceMessage, ShoeEvent } from '../events';
import { recordingDecoder, type RecordingDecoder, type TimedChunk } from '../pipeline';
import { MAX_WINDOW_MS, profileSummary, readProfile, TAG_REPEAT_MS, type DeviceProfile } from '../profile';
import { settingName, TRIAL_BAUDS, type TrialSetting } from './candidates';

/**
 * Scoring what was heard at one line setting, by every candidate profile: pure (a function of the
 * recorded chunks), so it is tested on recorded bytes; `listen.ts` does the listening. While it
 * listens, a SettingScorer decodes each chunk once per candidate as it arrives (and stops decoding
 * the candidates that can no longer read cleanly), with the readings of the whole recording.
 */

/** What one candidate read at one setting. */
export interface Reading {
  /** Cards, device messages and well-framed tags (known or not): the frames read cleanly. */
  readonly clean: number;
  /** Frames refused or not understood (apart from those forgiven). */
  readonly bad: number;
  /** An unknown first frame (cut by the start of listening) or last frame (cut by its end): not counted. */
  readonly forgiven: number;
  /** Cards read, in order: one read sent again with nothing between (a scanner's resend) is one card. */
  readonly cards: readonly Card[];
  /** Tag IDs read, in the order first read (the `uid` decoder's keys). */
  readonly tags: readonly string[];
  /** Device messages read, as the cards are. */
  readonly devices: readonly DeviceMessage[];
  /**
   * How often the device was heard sending a read again with nothing between (a tag resting on
   * the antenna, a scanner resending an unacknowledged decode): the median gap in milliseconds
   * between two such identical reads, 0 when none was heard. The repeat window is chosen from it
   * (repeatWindowFor).
   */
  readonly repeatEveryMs: number;
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

/**
 * A reading counted event by event, without keeping the events: what readingOf counts, so a
 * recording can be scored while it is still being heard (SettingScorer).
 */
class Tally {
  private events = 0;
  private clean = 0;
  private unknowns = 0;
  private firstUnknown = false;
  private lastUnknown = false;
  private readonly cards: Card[] = [];
  private readonly tags: string[] = [];
  private readonly tagsSeen = new Set<string>();
  private readonly devices: DeviceMessage[] = [];
  /** The read before (`tag 1A00A1B2C3`, `card As`), and when it was heard: undefined after an unknown frame. */
  private previous: { readonly key: string; readonly at: number } | undefined;
  /** The gaps between two identical reads in a row. */
  private readonly repeatGaps: number[] = [];

  /** `at`: when the chunk the event was decoded from was heard, in milliseconds since listening began. */
  add(event: ShoeEvent, at: number): void {
    if (event.type === 'status') return;
    const tag = tagOf(event);
    const key = event.type === 'card' ? `card ${event.card}${event.reader === undefined ? '' : ` @${event.reader}`}` : event.type === 'device' ? `device ${event.message}` : tag === undefined ? undefined : `tag ${tag}`;
    const repeat = key !== undefined && this.previous?.key === key;
    if (repeat) this.repeatGaps.push(at - (this.previous?.at ?? at));
    this.previous = key === undefined ? undefined : { key, at };
    let unknown = false;
    // A read sent again with nothing between is a frame read, not another card.
    if (event.type === 'card') {
      if (!repeat) this.cards.push(event.card);
    } else if (event.type === 'device') {
      if (!repeat) this.devices.push(event.message);
    }
    else if (tag !== undefined) {
      if (!this.tagsSeen.has(tag)) {
        this.tagsSeen.add(tag);
        this.tags.push(tag);
      }
    } else unknown = true;
    if (unknown) this.unknowns += 1;
    else this.clean += 1;
    if (this.events === 0) this.firstUnknown = unknown;
    this.lastUnknown = unknown;
    this.events += 1;
  }

  /** The unknown frames neither first nor last: bad whatever comes after (one more event can only add to them). */
  private interior(): number {
    return this.unknowns - (this.firstUnknown ? 1 : 0) - (this.lastUnknown && this.events > 1 ? 1 : 0);
  }

  /** An unknown frame with frames on both sides: the recording can no longer read cleanly. */
  get hopeless(): boolean {
    return this.interior() > 0;
  }

  /**
   * Enough read cleanly to stop listening: ENOUGH_CLEAN_FRAMES clean frames and no unknown one
   * but the first. The last is not forgiven here, as the recording goes on (or ends with what the
   * framer still holds) and would make it bad.
   */
  get enough(): boolean {
    return this.clean >= ENOUGH_CLEAN_FRAMES && this.unknowns === (this.firstUnknown ? 1 : 0);
  }

  /** The median of the gaps between identical reads in a row (the lower middle one), 0 without any. */
  private repeatEveryMs(): number {
    const gaps = [...this.repeatGaps].sort((a, b) => a - b);
    return gaps[Math.floor((gaps.length - 1) / 2)] ?? 0;
  }

  reading(): Reading {
    const { clean, cards, tags, devices } = this;
    const forgiven = this.unknowns - this.interior();
    const read = { cards: [...cards], tags: [...tags], devices: [...devices], repeatEveryMs: this.repeatEveryMs() };
    // A forgiven frame must have clean ones beside it: a lone unknown frame is no reading.
    if (clean === 0) return { clean, bad: this.unknowns, forgiven: 0, ...read };
    return { clean, bad: this.interior(), forgiven, ...read };
  }
}

/**
 * The profile as it is listened with: no repeat window, so every frame heard counts (a resting
 * tag's repeats are read, not dropped) and how often the device repeats itself is heard; the
 * window it is proposed with is chosen from that (repeatWindowFor).
 */
const listening = (profile: DeviceProfile): DeviceProfile => ({ ...profile, repeatMs: 0 });

/** How a candidate profile reads the recorded chunks (every frame, repeats included: see `listening`). */
export function readingOf(profile: DeviceProfile, chunks: readonly TimedChunk[]): Reading {
  const tally = new Tally();
  const decoder = recordingDecoder(listening(profile));
  let at = 0;
  for (const chunk of chunks) {
    at = chunk.at;
    for (const event of decoder.push(chunk)) tally.add(event, at);
  }
  for (const event of decoder.end()) tally.add(event, at);
  return tally.reading();
}

/** How much longer than the interval heard between a device's repeats its repeat window is: room for a late one. */
export const REPEAT_MARGIN = 1.5;

/**
 * The repeat window a found profile is proposed with. A tag reader (the `uid` decoder) reports a
 * tag for as long as it lies on the antenna, so it never gets 0: at least its own window, or the
 * built-in tag readers' (TAG_REPEAT_MS) when it has none. A profile with a window of its own (a
 * scanner that resends) keeps it. Either gets more when the device was heard repeating a read
 * at a longer interval (REPEAT_MARGIN over it). A card reader without a window of its own keeps
 * 0: a shoe of several decks can deal the same card twice in a row.
 */
export function repeatWindowFor(profile: DeviceProfile, reading: Pick<Reading, 'repeatEveryMs'>): number {
  const own = profile.decoder.kind === 'uid' ? Math.max(profile.repeatMs, TAG_REPEAT_MS) : profile.repeatMs;
  if (own === 0) return 0;
  return Math.min(MAX_WINDOW_MS, Math.max(own, Math.ceil(reading.repeatEveryMs * REPEAT_MARGIN)));
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

/** A candidate at a setting and what it read; `order`: its place among the candidates (ties are ranked by it). */
export interface Scored {
  readonly profile: DeviceProfile;
  readonly reading: Reading;
  readonly order: number;
}

/** Every candidate's reading of one whole recording (the profiles at its setting). */
export function scoreRecording(candidates: readonly DeviceProfile[], setting: TrialSetting, chunks: readonly TimedChunk[]): Scored[] {
  return candidates.map((candidate, order) => {
    const profile = profileAt(candidate, setting);
    return { profile, reading: readingOf(profile, chunks), order };
  });
}

/** What was heard at one setting. */
export interface Recording {
  readonly setting: TrialSetting;
  readonly chunks: readonly TimedChunk[];
}

/** A recording and its candidates' readings (SettingScorer leaves out those that could not read it cleanly). */
export interface ScoredRecording extends Recording {
  readonly scores: readonly Scored[];
}

/** One candidate reading a recording chunk by chunk as it is heard: each byte framed and decoded once. */
class CandidateScorer {
  private readonly decoder: RecordingDecoder;
  private readonly tally = new Tally();
  /** How many of the setting's chunks it has read. */
  fed = 0;
  /** How many bytes it has framed and decoded. */
  bytes = 0;

  constructor(
    readonly profile: DeviceProfile,
    readonly order: number,
  ) {
    this.decoder = recordingDecoder(listening(profile));
  }

  /** When the last chunk fed was heard. */
  private at = 0;

  feed(chunks: readonly TimedChunk[]): void {
    for (; this.fed < chunks.length; this.fed += 1) {
      const chunk = chunks[this.fed] as TimedChunk;
      this.at = chunk.at;
      for (const event of this.decoder.push(chunk)) this.tally.add(event, this.at);
      this.bytes += chunk.bytes.length;
    }
  }

  get hopeless(): boolean {
    return this.tally.hopeless;
  }

  get enough(): boolean {
    return this.tally.enough;
  }

  finish(): Reading {
    for (const event of this.decoder.end()) this.tally.add(event, this.at);
    return this.tally.reading();
  }
}

export interface ScoringOptions {
  /**
   * Stop decoding a candidate once it can no longer read the recording cleanly (an unknown frame
   * with frames on both sides): on noise every candidate soon stops. True when left out.
   */
  readonly prune?: boolean;
}

/**
 * Every candidate's reading of one setting's recording, kept up to date while it is heard: each
 * candidate keeps its own framer and decoder (pipeline's recordingDecoder), so a chunk is decoded
 * once per candidate, whenever the recording is checked. `record` keeps a chunk; `steps` decodes
 * what was recorded since, one candidate per step (listen.ts yields to the event loop between
 * them); `finish` ends the recording. Its readings are readingOf's on the whole recording, however
 * it was chunked and checked (detect.test.ts), apart from the candidates pruned (ScoringOptions).
 */
export class SettingScorer {
  private readonly chunks: TimedChunk[] = [];
  private readonly scorers: CandidateScorer[];
  private readonly prune: boolean;

  constructor(
    candidates: readonly DeviceProfile[],
    readonly setting: TrialSetting,
    options: ScoringOptions = {},
  ) {
    this.scorers = candidates.map((candidate, order) => new CandidateScorer(profileAt(candidate, setting), order));
    this.prune = options.prune ?? true;
  }

  record(chunk: TimedChunk): void {
    this.chunks.push(chunk);
  }

  /** The candidates still being decoded. */
  private live(): CandidateScorer[] {
    return this.prune ? this.scorers.filter((scorer) => !scorer.hopeless) : this.scorers;
  }

  /** Decodes what was recorded since, one candidate at each step. */
  *steps(): Generator<void, void, void> {
    for (const scorer of this.live()) {
      scorer.feed(this.chunks);
      yield;
    }
  }

  /** Decodes what was recorded since, all at once. */
  catchUp(): void {
    for (const step of this.steps()) void step;
  }

  /**
   * Whether some candidate has read enough of what it has decoded to stop listening: at least
   * ENOUGH_CLEAN_FRAMES frames cleanly and none badly (an unknown last one counted bad).
   */
  enough(): boolean {
    return this.live().some((scorer) => scorer.enough);
  }

  /** How many candidates are still being decoded (all, unless pruned). */
  get decoding(): number {
    return this.live().length;
  }

  /** How many bytes every candidate has decoded, together (each chunk is decoded once by each live candidate). */
  get decodedBytes(): number {
    return this.scorers.reduce((sum, scorer) => sum + scorer.bytes, 0);
  }

  /** How many bytes were recorded. */
  get recordedBytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.bytes.length, 0);
  }

  /** The recording is over: decodes the rest and each candidate's end. */
  finish(): ScoredRecording {
    this.catchUp();
    const scores = this.live().map((scorer) => ({ profile: scorer.profile, reading: scorer.finish(), order: scorer.order }));
    return { setting: this.setting, chunks: this.chunks, scores };
  }
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
 * How much a profile's framing checks of each frame beyond where it ends: its fixed bytes (STX
 * and ETX, a binary frame's start, end and `match` bytes) and its checksums. Lines and silence
 * check nothing.
 */
export function framingChecks(profile: DeviceProfile): number {
  const framing = profile.framing as { readonly kind: string; readonly checksum?: string; readonly checksums?: readonly unknown[]; readonly match?: readonly unknown[]; readonly start?: string; readonly end?: string };
  if (framing.kind === 'stx-etx') return 2 + (framing.checksum === undefined || framing.checksum === 'none' ? 0 : 1);
  return (framing.checksums?.length ?? 0) + (framing.match?.length ?? 0) + (framing.start === undefined ? 0 : 1) + (framing.end === undefined ? 0 : 1);
}

/** What the ranking compares of one profile that read its recording cleanly. */
export interface RankKey {
  /** Its setting is the one the parity evidence points to (8N1 without evidence). */
  readonly preferred: boolean;
  /** framingChecks of its profile. */
  readonly checks: number;
  /** Frames read cleanly, repeats included. */
  readonly frames: number;
  /** Its baud's place in TRIAL_BAUDS. */
  readonly baudOrder: number;
  /** Its place among the candidates: the built-ins first. */
  readonly order: number;
}

/**
 * The ranking rule, best first: (1) the setting the parity evidence points to; (2) the framing
 * that checks more; (3) more frames read; (4) the bauds, then the candidates, in the order tried.
 * Checking comes before the frames read: a profile is offered only when it read the recording
 * with no refused frame between two others, so a framing that checks more and was offered has
 * checked every frame a looser one read, and its reading is the likelier; the rule does not rest
 * on two framings counting the same bytes alike (a frame cut by the start or end of listening is
 * read by one and forgiven by another). An RDM6300's frames read by plain STX…ETX give its tags
 * with the checksum digits on (`1A00A1B2C3CA`): that never ranks above `rdm6300`. Frames are
 * counted with their repeats (the listening has no repeat window), so a built-in's window does
 * not cost it frames either.
 */
export function compareRank(a: RankKey, b: RankKey): number {
  return Number(b.preferred) - Number(a.preferred) || b.checks - a.checks || b.frames - a.frames || a.baudOrder - b.baudOrder || a.order - b.order;
}

/**
 * The profiles that read their recording cleanly, best first (compareRank), each with the repeat
 * window it is proposed with (repeatWindowFor). At most `limit`.
 */
export function rankScored(recordings: readonly ScoredRecording[], limit = 12): Found[] {
  const found: { found: Found; key: RankKey }[] = [];
  const evidenceAt = new Map<number, 'even' | 'odd' | 'none'>();
  for (const recording of recordings) {
    const { setting } = recording;
    if (!evidenceAt.has(setting.baud)) {
      const eightN1 = recordings.find((other) => other.setting.baud === setting.baud && other.setting.dataBits === 8 && other.setting.parity === 'none');
      evidenceAt.set(setting.baud, eightN1 === undefined ? 'none' : parityEvidence(eightN1.chunks));
    }
    const evidence = evidenceAt.get(setting.baud);
    const preferred = evidence === 'none' ? setting.dataBits === 8 : setting.dataBits === 7 && setting.parity === evidence;
    const baudOrder = (TRIAL_BAUDS as readonly number[]).indexOf(setting.baud);
    for (const { profile: candidate, reading, order } of recording.scores) {
      if (!readsCleanly(reading)) continue;
      const profile = { ...candidate, repeatMs: repeatWindowFor(candidate, reading) };
      found.push({ found: { profile, summary: profileSummary(profile), setting: settingName(setting), reading }, key: { preferred, checks: framingChecks(profile), frames: reading.clean, baudOrder, order } });
    }
  }
  found.sort((a, b) => compareRank(a.key, b.key));
  return found.slice(0, limit).map((entry) => entry.found);
}

/** rankScored on whole recordings. */
export function rankRecordings(candidates: readonly DeviceProfile[], recordings: readonly Recording[], limit = 12): Found[] {
  return rankScored(
    recordings.map((recording) => ({ ...recording, scores: scoreRecording(candidates, recording.setting, recording.chunks) })),
    limit,
  );
}
