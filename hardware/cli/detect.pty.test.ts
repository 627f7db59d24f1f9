import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../engine/cards';
import { encodeCard, framed } from '../encoding';
import { REGISTRATION_ORDER } from '../decoding/uid';
import { REPEAT_MARGIN } from '../detect/score';
import { ALL_BUILT_IN_PROFILES, BINARY_PROFILES, readProfile, TAG_REPEAT_MS, type DeviceProfile } from '../profile';
import { shuffledShoe } from '../simulator/shoe';
import { npmRun, type CommandRun } from '../testing/commandRun';
import { PtyPair, PtyWriter, requireSocat, waitFor } from '../testing/ptyPair';
import { uartReceive, uartSetting, type UartSetting } from '../testing/uart';

/**
 * `cards --detect` over a real pseudo-terminal pair. A pty carries no line settings, so the fake
 * device reads the detector's progress (the setting it is listening at) and writes what a line
 * from a device at its own setting would deliver at that one (testing/uart.ts).
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const cards = (args: readonly string[]): CommandRun => npmRun('cards', args, cleanups);

async function pair(label: string): Promise<PtyPair> {
  const created = await PtyPair.create(label);
  cleanups.push(() => created.dispose());
  return created;
}

const PROGRESS = /^cards: Listening at (\d+) ([78][NEO]1) \(\d+ of \d+\)/m;

/**
 * A device at `device` on the pty's other end: each time the detector says it listens at a new
 * setting, it sends its messages (`gapMs` apart) as that setting would receive them, and stops
 * as soon as the detector moves on. Resolves when the detector exits.
 */
async function fakeDevice(run: CommandRun, path: string, device: UartSetting, messages: readonly Buffer[], gapMs = 30): Promise<string[]> {
  return fakeDeviceOn(await openWriter(path), run, device, messages, gapMs);
}

async function openWriter(path: string): Promise<PtyWriter> {
  const writer = await PtyWriter.open(path);
  cleanups.push(() => writer.close());
  return writer;
}

/** fakeDevice on a writer already open (the test goes on writing to the port after the detector exits). */
async function fakeDeviceOn(writer: PtyWriter, run: CommandRun, device: UartSetting, messages: readonly Buffer[], gapMs: number): Promise<string[]> {
  const heard: string[] = [];
  let exited = false;
  void run.exit.then(() => (exited = true));
  const settings = () => [...run.stderr().matchAll(new RegExp(PROGRESS.source, 'gm'))].map((match) => `${match[1]} ${match[2]}`);
  while (!exited) {
    const all = settings();
    if (all.length === heard.length) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    const current = all.at(-1) as string;
    heard.push(...all.slice(heard.length));
    const [baud, format] = current.split(' ') as [string, string];
    for (const message of messages) {
      if (settings().length !== heard.length || exited) break;
      await writer.write(uartReceive(message, device, uartSetting(Number(baud), format)));
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  }
  return heard;
}

const lines = (run: CommandRun) =>
  run
    .stdout()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { rank: number; setting: string; frames: number; repeatEveryMs: number; cards: Card[]; tags: string[]; profile: DeviceProfile });

/** What each built-in binary reader sends, by the messages of its frames: tag IDs (the zebra-ssi: barcodes, as cards). */
const READER_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  rdm6300: ['1A00A1B2C3', '1A00A1B2C4', '0F0011AA55', '0F0011AA56'],
  id12la: ['1A00A1B2C3', '1A00A1B2C4', '0F0011AA55', '0F0011AA56'],
  'pn532-uart': ['04A2B3C4', '04A2B3C5', '04A2B3C6', '04A2B3C7'],
  'uhf-r200': ['300833B2DDD9014000000001', '300833B2DDD9014000000002', '300833B2DDD9014000000003', '300833B2DDD9014000000004'],
  'uhf-a0': ['300833B2DDD9014000000001', '300833B2DDD9014000000002', '300833B2DDD9014000000003', '300833B2DDD9014000000004'],
  'zebra-ssi': ['As', 'Kd', 'Qh', 'Tc'],
};
/** How often a reader sends a resting tag's frame again (a scanner's unacknowledged decode: as often). */
const REPEAT_EVERY_MS = 100;
/** How many times each tag's frame comes while it rests (the last tag: once, its card the sign that all before it were read). */
const REPEATS = 8;

describe('cards --detect over a real port pair (socat)', () => {
  beforeAll(() => requireSocat());

  it('a 7E1 text shoe at 2400: found at 2400 7E1, lines, text, with the cards it dealt; --save writes that profile', { timeout: 90_000 }, async () => {
    const ports = await pair('detect-7e1');
    const file = join(ports.dir, 'found.json');
    const dealt = shuffledShoe(21).slice(0, 6);
    const run = cards(['--port', ports.b, '--detect', '--listen-ms', '500', '--save', file]);
    await waitFor(() => PROGRESS.test(run.stderr()), 'the detector to listen', 20_000);
    const tried = await fakeDevice(run, ports.a, uartSetting(2400, '7E1'), dealt.map((card) => encodeCard(card, ALL_BUILT_IN_PROFILES.text as DeviceProfile)));
    expect(await run.exit).toBe(0);
    // Most likely first, every format of a baud together, and no baud after the one that read.
    expect(tried.slice(0, 3)).toEqual(['9600 8N1', '9600 7E1', '9600 7O1']);
    expect(tried.slice(-3)).toEqual(['2400 8N1', '2400 7E1', '2400 7O1']);
    const found = lines(run);
    expect(found[0]).toMatchObject({ rank: 1, setting: '2400 7E1', profile: { name: 'text-2400-7e1', baud: 2400, dataBits: 7, parity: 'even', stopBits: 1, framing: { kind: 'lines' }, decoder: { kind: 'text' } } });
    expect(dealt.slice(0, found[0]?.cards.length)).toEqual(found[0]?.cards);
    expect(found[0]?.frames).toBeGreaterThanOrEqual(4);
    expect(found.every((entry) => entry.profile.baud === 2400)).toBe(true);
    const saved = readProfile(JSON.parse(readFileSync(file, 'utf8')));
    expect(saved).toEqual(found[0]?.profile);
    expect(run.stderr()).toContain(`cards: Read cleanly by ${found.length} profile${found.length === 1 ? '' : 's'}; the best: text-2400-7e1: 2400 baud, 7 data bits, even parity, 1 stop bit; one message per line (CR, LF or CRLF); card codes such as As or 10h\n`);
    expect(run.stderr()).toContain(`cards: Saved in ${file}: use --decoder ${file}\n`);
  });

  it.each([
    ['an RDM6300 at 9600: rdm6300, with the tags read', 'rdm6300', ['1A00A1B2C3', '1A00A1B2C4', '1A00A1B2C5', '0F0011AA55', '0F0011AA56'], { tags: ['1A00A1B2C3', '1A00A1B2C4', '1A00A1B2C5', '0F0011AA55', '0F0011AA56'] }],
    ['a Zebra SSI scanner at 9600: zebra-ssi, with the barcodes read as cards', 'zebra-ssi', ['As', 'Kd', 'Qh', 'Tc', '2s'], { cards: ['As', 'Kd', 'Qh', 'Tc', '2s'] }],
  ] as const)('%s', { timeout: 60_000 }, async (_title, name, messages, read) => {
    const ports = await pair('detect-binary');
    const profile = ALL_BUILT_IN_PROFILES[name] as DeviceProfile;
    const run = cards(['--port', ports.b, '--detect', '--listen-ms', '500']);
    await waitFor(() => PROGRESS.test(run.stderr()), 'the detector to listen', 20_000);
    const tried = await fakeDevice(run, ports.a, uartSetting(9600, '8N1'), messages.map((message) => framed(message, profile.framing)));
    expect(await run.exit).toBe(0);
    // 9600 comes first; its three formats tried, and no other baud.
    expect(tried).toEqual(['9600 8N1', '9600 7E1', '9600 7O1']);
    const found = lines(run);
    expect(found[0]).toMatchObject({ rank: 1, setting: '9600 8N1', profile: { name: `${name}-9600-8n1`, baud: 9600, dataBits: 8, parity: 'none', framing: profile.framing, decoder: { kind: profile.decoder.kind } } });
    const got = 'tags' in read ? found[0]?.tags : found[0]?.cards;
    const wanted = 'tags' in read ? read.tags : read.cards;
    // Listening at a setting ends once enough was read: what was read is the first of what was sent.
    expect(got).toEqual(wanted.slice(0, got?.length));
    expect(got?.length).toBeGreaterThanOrEqual(4);
    expect(readProfile(found[0]?.profile)).toEqual(found[0]?.profile);
  });

  // Issue 41: real readers send a resting tag's frame again every ~100 ms. Found as the README
  // says (`--detect --save`), then the saved profile read (`--decoder FILE --register DECK`, or
  // `--decoder FILE`): a resting tag is one card, as its repeat window makes it.
  it.each(Object.keys(BINARY_PROFILES))('%s, its tags resting on the antenna: found and saved as itself with its repeat window; the saved profile then reads a resting tag as ONE card', { timeout: 90_000 }, async (name) => {
    const builtIn = BINARY_PROFILES[name] as DeviceProfile;
    const messages = READER_MESSAGES[name] as readonly string[];
    const frameOf = (message: string) => framed(message, builtIn.framing);
    const resting = messages.slice(0, 3).flatMap((message) => Array<Buffer>(REPEATS).fill(frameOf(message)));
    const ports = await pair(`detect-resting-${name}`);
    const file = join(ports.dir, 'reader.json');
    const detect = cards(['--port', ports.b, '--detect', '--listen-ms', '1000', '--save', file]);
    await waitFor(() => PROGRESS.test(detect.stderr()), 'the detector to listen', 20_000);
    const writer = await openWriter(ports.a);
    await fakeDeviceOn(writer, detect, uartSetting(builtIn.baud, '8N1'), resting, REPEAT_EVERY_MS);
    expect(await detect.exit).toBe(0);
    const best = lines(detect)[0];
    expect(best).toMatchObject({ rank: 1, setting: `${builtIn.baud} 8N1`, profile: { name: `${name}-${builtIn.baud}-8n1`, framing: builtIn.framing, decoder: { kind: builtIn.decoder.kind } } });
    // The repeats were heard (how often depends on when the port delivered them), and the window
    // covers them: the built-in's, or more if they came slower.
    expect(best?.repeatEveryMs).toBeGreaterThan(0);
    const window = Math.max(builtIn.repeatMs, Math.ceil((best?.repeatEveryMs ?? 0) * REPEAT_MARGIN));
    expect(best?.profile.repeatMs).toBe(window);
    expect(window).toBeGreaterThanOrEqual(builtIn.decoder.kind === 'uid' ? TAG_REPEAT_MS : builtIn.repeatMs);
    if (builtIn.decoder.kind === 'uid') expect(best?.tags).toEqual(messages.slice(0, best?.tags.length));
    else expect(best?.cards).toEqual(messages.slice(0, best?.cards.length));
    const saved = readProfile(JSON.parse(readFileSync(file, 'utf8')));
    expect(saved).toEqual(best?.profile);

    // The saved profile in use: three tags resting (each frame eight times, 100 ms apart), then a fourth read once.
    const tagReader = builtIn.decoder.kind === 'uid';
    const deck = join(ports.dir, 'deck.json');
    const read = cards(['--port', ports.b, '--decoder', file, '--count', '4', ...(tagReader ? ['--register', deck] : [])]);
    await waitFor(() => read.lines().some((line) => line.type === 'status' && line.state === 'connected'), 'cards to connect', 20_000);
    for (const frame of [...resting, frameOf(messages[3] as string)]) {
      await writer.write(frame);
      await new Promise((resolve) => setTimeout(resolve, REPEAT_EVERY_MS));
    }
    const wanted = tagReader ? REGISTRATION_ORDER.slice(0, 4) : messages;
    // It stops at the fourth card: each resting tag was one card, or the repeats made the four.
    expect(await read.exit).toBe(0);
    expect(read.lines().filter((line) => line.type === 'card').map((line) => line.card)).toEqual(wanted);
  });

  it('a silent device: nothing read, said on stderr, exit 1', { timeout: 30_000 }, async () => {
    const ports = await pair('detect-silent');
    const run = cards(['--port', ports.b, '--detect', '--baud', '9600', '--listen-ms', '200']);
    expect(await run.exit).toBe(1);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(
      [
        'cards: Listening at 9600 8N1 (1 of 3): deal a few cards onto the reader',
        'cards: Listening at 9600 7E1 (2 of 3): deal a few cards onto the reader',
        'cards: Listening at 9600 7O1 (3 of 3): deal a few cards onto the reader',
        'cards: Nothing read cleanly at the settings tried (3): deal a few cards while it listens, and check the cable',
        '',
      ].join('\n'),
    );
  });

  it('bad arguments with --detect: one line on stderr, exit 2', { timeout: 30_000 }, async () => {
    const runs = [cards(['--port', '/tmp/x', '--detect', '--decoder', 'text']), cards(['--port', '/tmp/x', '--save', 'x.json'])];
    expect(await Promise.all(runs.map((run) => run.exit))).toEqual([2, 2]);
    expect(runs.map((run) => run.stderr())).toEqual([
      'cards: --decoder: --detect finds the settings itself; leave this out (--baud keeps it to one baud)\n',
      'cards: --save: only goes with --detect\n',
    ]);
  });
});
