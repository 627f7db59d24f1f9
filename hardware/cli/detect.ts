import { writeFileSync } from 'node:fs';
import { InputError } from '../../engine/errors';
import { englishText } from '../../engine/messages';
import { detectSettings } from '../detect/listen';
import type { Found } from '../detect/score';
import type { PortFactory } from '../transport/portHandle';

/** What `cards --detect` is given: the port, how long to listen at each setting, a file for the best profile, a baud to keep to. */
export interface DetectArgs {
  readonly port: string;
  readonly listenMs?: number;
  readonly save?: string;
  readonly baud?: number;
}

/** Where `cards --detect` writes and where its signals come from (the command's CardsIo fits). */
export interface DetectIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly signals: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  readonly onOutputGone: (listener: () => void) => void;
  readonly source?: { readonly createPort?: PortFactory };
}

/** The options of `cards` that say how to read a known device: they mean nothing while finding one. */
export const NOT_WITH_DETECT = ['decoder', 'count', 'register', 'data-bits', 'parity', 'stop-bits', 'rtscts'] as const;

export function refuseWithDetect(options: Readonly<Record<string, unknown>>): void {
  for (const name of NOT_WITH_DETECT) {
    if (options[name] !== undefined) throw new InputError(`--${name}`, '--detect finds the settings itself; leave this out (--baud keeps it to one baud)');
  }
}

/**
 * One found profile as the JSON line `cards --detect` prints: its rank, what it read (`frames`
 * with their repeats; `repeatEveryMs`: how often the reader was heard sending a read again, 0 if
 * never), the profile to save (its repeat window chosen from that).
 */
export function foundLine(found: Found, rank: number): string {
  const { reading } = found;
  return JSON.stringify({ rank, setting: found.setting, summary: found.summary, frames: reading.clean, repeatEveryMs: reading.repeatEveryMs, cards: reading.cards, tags: reading.tags, devices: reading.devices, profile: found.profile });
}

/**
 * `cards --port PATH --detect [--listen-ms N] [--baud N] [--save FILE]`: which setting is being
 * tried on stderr, then one JSON line per profile that read the traffic cleanly, best first, on
 * stdout (its `profile` complete, ready to save); with --save the best is written to FILE. Exit 0
 * when one was found, 1 when none was (or the port cannot be opened). A signal stops the
 * listening and ranks what was heard so far.
 */
export async function detectMain(args: DetectArgs, io: DetectIo): Promise<number> {
  const aborter = new AbortController();
  const stop = () => aborter.abort();
  io.signals.on('SIGINT', stop);
  io.signals.on('SIGTERM', stop);
  io.onOutputGone(stop);
  try {
    const result = await detectSettings({
      path: args.port,
      ...(args.listenMs === undefined ? {} : { listenMs: args.listenMs }),
      ...(args.baud === undefined ? {} : { bauds: [args.baud] }),
      ...(io.source?.createPort === undefined ? {} : { createPort: io.source.createPort }),
      signal: aborter.signal,
      onProgress: (progress) => io.err(`cards: ${progress.message}\n`),
    });
    if (!result.ok) {
      io.err(`cards: ${result.problem.message}\n`);
      return 1;
    }
    if (result.found.length === 0) {
      io.err(`cards: ${englishText({ key: 'hardware.detect.nothing', params: { n: result.tried } })}\n`);
      return 1;
    }
    result.found.forEach((found, index) => io.out(`${foundLine(found, index + 1)}\n`));
    const best = result.found[0] as Found;
    io.err(`cards: ${englishText({ key: 'hardware.detect.found', params: { n: result.found.length, summary: best.summary } })}\n`);
    if (args.save !== undefined) {
      writeFileSync(args.save, `${JSON.stringify(best.profile, null, 2)}\n`);
      io.err(`cards: ${englishText({ key: 'hardware.detect.saved', params: { path: args.save } })}\n`);
    }
    return 0;
  } finally {
    io.signals.off('SIGINT', stop);
    io.signals.off('SIGTERM', stop);
  }
}
