import type { Message } from '../../engine/messages';
import { englishText } from '../../engine/messages';
import type { TimedChunk } from '../pipeline';
import type { DeviceProfile } from '../profile';
import { describePortError, type PortProblem } from '../transport/portErrors';
import { closePort, defaultCreatePort, type PortFactory, type PortHandle } from '../transport/portHandle';
import { candidateProfiles, settingName, TRIAL_BAUDS, trialSettings, type TrialSetting } from './candidates';
import { enoughHeard, rankRecordings, type Found, type Recording } from './score';

/**
 * `cards --detect` and the console's "Find the settings for this reader": opens the port at each
 * trial setting in turn, records what arrives for a while, and ranks the candidate profiles on the
 * recordings (score.ts, pure). The port part only.
 */

/** How long each setting is listened to when not told (ended early once enough is read cleanly). */
export const DEFAULT_LISTEN_MS = 3000;
/** How often the recording so far is scored, to end a setting's window early. */
const CHECK_MS = 100;

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

/** Listens at one setting until the window ends, enough is read cleanly, or the signal aborts. */
async function listenAt(port: PortHandle, setting: TrialSetting, options: DetectOptions, candidates: readonly DeviceProfile[]): Promise<TimedChunk[]> {
  const chunks: TimedChunk[] = [];
  const openedAt = Date.now();
  port.on('data', (bytes: Buffer) => chunks.push({ at: Date.now() - openedAt, bytes: Buffer.from(bytes) }));
  const listenMs = options.listenMs ?? DEFAULT_LISTEN_MS;
  await new Promise<void>((resolve) => {
    let checked = 0;
    const stop = () => {
      clearInterval(timer);
      options.signal?.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setInterval(() => {
      if (Date.now() - openedAt >= listenMs) return stop();
      if (chunks.length === checked) return;
      checked = chunks.length;
      if (enoughHeard(candidates, setting, chunks)) stop();
    }, Math.min(CHECK_MS, listenMs));
    options.signal?.addEventListener('abort', stop);
    if (options.signal?.aborted === true) stop();
  });
  port.removeAllListeners();
  port.on('error', () => {});
  return chunks;
}

export async function detectSettings(options: DetectOptions): Promise<DetectResult> {
  const createPort = options.createPort ?? defaultCreatePort;
  const candidates = options.candidates ?? candidateProfiles();
  const settings = trialSettings(options.bauds ?? TRIAL_BAUDS);
  const recordings: Recording[] = [];
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
      recordings.push({ setting, chunks: await listenAt(port, setting, options, candidates) });
    } finally {
      await closePort(port);
    }
    // A baud's three formats tried and something read cleanly: the bauds after it are not needed.
    const lastOfBaud = settings[index + 1]?.baud !== setting.baud;
    if (lastOfBaud && options.all !== true && rankRecordings(candidates, recordings.filter((recording) => recording.setting.baud === setting.baud), 1).length > 0) {
      return { ok: true, found: rankRecordings(candidates, recordings), tried: index + 1, total: settings.length };
    }
  }
  return { ok: true, found: rankRecordings(candidates, recordings), tried: recordings.length, total: settings.length };
}
