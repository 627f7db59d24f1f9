import type { Message } from '../../engine/messages';
import { englishText } from '../../engine/messages';
import type { DeviceProfile } from '../profile';
import { describePortError, type PortProblem } from '../transport/portErrors';
import { closePort, defaultCreatePort, type PortFactory, type PortHandle } from '../transport/portHandle';
import { candidateProfiles, settingName, TRIAL_BAUDS, trialSettings, type TrialSetting } from './candidates';
import { rankScored, SettingScorer, type Found, type ScoredRecording } from './score';

/**
 * `cards --detect` and the console's "Find the settings for this reader": opens the port at each
 * trial setting in turn, records what arrives for a while, and ranks the candidate profiles on the
 * recordings (score.ts, pure). The port part only.
 */

/** How long each setting is listened to when not told (ended early once enough is read cleanly). */
export const DEFAULT_LISTEN_MS = 3000;
/** How often what was heard since is scored, to end a setting's window early. */
const CHECK_MS = 100;
/** The longest the scoring keeps the event loop before yielding it (between two candidates). */
const SLICE_MS = 10;

export interface DetectOptions {
  readonly path: string;
  readonly listenMs?: number;
  /** The bauds to try (TRIAL_BAUDS when left out), each at 8N1, 7E1 and 7O1. */
  readonly bauds?: readonly number[];
  /** Try every setting, not stopping after the first baud at which a profile read cleanly. */
  readonly all?: boolean;
  readonly createPort?: PortFactory;
  readonly candidates?: readonly DeviceProfile[];
  /** Called once the port is open at a setting, before listening. */
  readonly onProgress?: (progress: DetectProgress) => void;
  /** Aborting stops at once: the port is closed and what was heard so far is ranked. */
  readonly signal?: AbortSignal;
}

export interface DetectProgress {
  /** 1 for the first setting. */
  readonly index: number;
  readonly total: number;
  readonly setting: TrialSetting;
  /** `2400 7E1`. */
  readonly name: string;
  readonly said: Message;
  /** `said` in English, for the command line. */
  readonly message: string;
}

export type DetectResult =
  | { readonly ok: true; readonly found: readonly Found[]; readonly tried: number; readonly total: number }
  /** The port could not be opened (or went away): nothing ranked. */
  | { readonly ok: false; readonly problem: PortProblem };

function openPort(createPort: PortFactory, path: string, setting: TrialSetting): Promise<PortHandle> {
  const port = createPort({ path, baudRate: setting.baud, dataBits: setting.dataBits, parity: setting.parity, stopBits: 1, rtscts: false });
  port.on('error', () => {});
  return new Promise((resolve, reject) => port.open((error) => (error ? reject(error) : resolve(port))));
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
    if (signal?.aborted === true) done();
  });
}

/** Lets the event loop run (the console's progress, its floor link) between candidates. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Decodes what was heard since the last check, candidate by candidate, yielding to the event loop
 * whenever SLICE_MS have gone by: each byte is decoded once per candidate (SettingScorer), and
 * candidates that can no longer read cleanly are left out, so noise costs little.
 */
async function catchUp(scorer: SettingScorer): Promise<void> {
  let since = Date.now();
  for (const step of scorer.steps()) {
    void step;
    if (Date.now() - since >= SLICE_MS) {
      await yieldToEventLoop();
      since = Date.now();
    }
  }
}

/** Listens at one setting until the window ends, enough is read cleanly, or the signal aborts. */
async function listenAt(port: PortHandle, setting: TrialSetting, options: DetectOptions, candidates: readonly DeviceProfile[]): Promise<ScoredRecording> {
  const scorer = new SettingScorer(candidates, setting);
  const openedAt = Date.now();
  let heard = 0;
  port.on('data', (bytes: Buffer) => {
    scorer.record({ at: Date.now() - openedAt, bytes: Buffer.from(bytes) });
    heard += 1;
  });
  const listenMs = options.listenMs ?? DEFAULT_LISTEN_MS;
  let checked = 0;
  for (;;) {
    await pause(Math.min(CHECK_MS, Math.max(0, listenMs - (Date.now() - openedAt))), options.signal);
    if (options.signal?.aborted === true || Date.now() - openedAt >= listenMs) break;
    if (heard === checked) continue;
    checked = heard;
    await catchUp(scorer);
    if (scorer.enough()) break;
  }
  port.removeAllListeners();
  port.on('error', () => {});
  await catchUp(scorer);
  return scorer.finish();
}

export async function detectSettings(options: DetectOptions): Promise<DetectResult> {
  const createPort = options.createPort ?? defaultCreatePort;
  const candidates = options.candidates ?? candidateProfiles();
  const settings = trialSettings(options.bauds ?? TRIAL_BAUDS);
  const recordings: ScoredRecording[] = [];
  for (const [index, setting] of settings.entries()) {
    if (options.signal?.aborted === true) break;
    let port: PortHandle;
    try {
      port = await openPort(createPort, options.path, setting);
    } catch (error) {
      return { ok: false, problem: describePortError(error, options.path) };
    }
    try {
      const said: Message = { key: 'hardware.detect.trying', params: { setting: settingName(setting), n: index + 1, total: settings.length } };
      options.onProgress?.({ index: index + 1, total: settings.length, setting, name: settingName(setting), said, message: englishText(said) });
      recordings.push(await listenAt(port, setting, options, candidates));
    } finally {
      await closePort(port);
    }
    // A baud's three formats tried and something read cleanly: the bauds after it are not needed.
    const lastOfBaud = settings[index + 1]?.baud !== setting.baud;
    if (lastOfBaud && options.all !== true && rankScored(recordings.filter((recording) => recording.setting.baud === setting.baud), 1).length > 0) {
      return { ok: true, found: rankScored(recordings), tried: index + 1, total: settings.length };
    }
  }
  return { ok: true, found: rankScored(recordings), tried: recordings.length, total: settings.length };
}
