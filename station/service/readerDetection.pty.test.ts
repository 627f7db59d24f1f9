// "Find the settings for this reader" in the console, through a real serial line (socat
// pseudo-terminals): what `cards --detect` does, from the settings screen. A pty carries no line
// settings, so the device writes what a line from a 7E1 reader at 2400 baud delivers at the
// setting the console says it is listening at (hardware/testing/uart.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRATION_ORDER } from '../../hardware/decoding/uid';
import { detectSettings } from '../../hardware/detect/listen';
import { framed } from '../../hardware/encoding';
import { BINARY_PROFILES, TAG_REPEAT_MS, type DeviceProfile } from '../../hardware/profile';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import { uartReceive, uartSetting } from '../../hardware/testing/uart';
import type { ConsoleSettings } from '../../protocol/contract';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function consoleOnPort(): Promise<{ service: ConsoleService; device: PtyWriter; pair: PtyPair }> {
  const pair = await PtyPair.create('detect-console');
  cleanups.push(() => pair.dispose());
  const dataDir = mkdtempSync(join(tmpdir(), 'detect-'));
  // Two bauds and short windows: the test's time, not the dealer's.
  const service = await ConsoleService.start({ dataDir, cardSources: serialCardSources, detectReader: (options) => detectSettings({ ...options, bauds: [9600, 2400], listenMs: 400 }) });
  cleanups.push(() => service.close());
  const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } };
  expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
  await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
  const device = await PtyWriter.open(pair.a);
  cleanups.push(() => device.close());
  return { service, device, pair };
}

const DEVICE = uartSetting(2400, '7E1');

describe('finding a reader\'s settings in the console', () => {
  it('listens at each setting with the card source closed, finds 2400 7E1 lines text, and the profile stored and chosen then reads the reader', async () => {
    const { service, device } = await consoleOnPort();
    const settingsSeen: string[] = [];
    let stopped = false;
    cleanups.push(async () => {
      stopped = true;
    });
    // The reader: each time the console listens at a new setting, five cards as that setting receives them.
    const reader = (async () => {
      while (!stopped) {
        const detection = service.getState().detection;
        const setting = detection?.state === 'listening' ? detection.setting : null;
        if (setting === null || settingsSeen.at(-1) === setting) {
          if (detection?.state === 'done' || detection?.state === 'failed') return;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        settingsSeen.push(setting);
        const [baud, format] = setting.split(' ') as [string, string];
        for (const card of ['As', 'Kd', 'Qh', '10c', '2s']) {
          if (service.getState().detection?.setting !== setting) break;
          await device.write(uartReceive(Buffer.from(`${card}\r\n`), DEVICE, uartSetting(Number(baud), format)));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    })();
    expect(await service.detectReader(true)).toEqual({ ok: true, value: null });
    expect(service.getState().detection).toMatchObject({ state: 'listening', tried: 0 });
    await waitFor(() => service.getState().detection?.tried === 1, 'the first setting');
    // The card source lets the port go while it is listened to.
    expect(service.getState().source.state).toBe('idle');
    // Asked again while listening: it goes on.
    expect(await service.detectReader(true)).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().detection?.state === 'done', 'the detection to finish', 20_000);
    await reader;
    expect(settingsSeen).toEqual(['9600 8N1', '9600 7E1', '9600 7O1', '2400 8N1', '2400 7E1', '2400 7O1']);
    const detection = service.getState().detection;
    expect(detection).toMatchObject({ state: 'done', tried: 6, total: 6, setting: null, problem: null });
    expect(detection?.found[0]).toMatchObject({ setting: '2400 7E1', cards: expect.arrayContaining(['As', 'Kd']), profile: { name: 'text-2400-7e1', baud: 2400, dataBits: 7, parity: 'even', framing: { kind: 'lines' }, decoder: { kind: 'text' } } });
    // The card source is back as the settings have it.
    await waitFor(() => service.getState().source.state === 'connected', 'the card source to open again');

    // Chosen as the screen does it: stored under its name (no built-in's), then the card source's profile.
    const stored = await service.importProfile(detection?.found[0]?.profile);
    expect(stored).toMatchObject({ ok: true, value: { name: 'text-2400-7e1' } });
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, baud: 2400, decoder: 'text-2400-7e1' } })).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected' && (service.getState().source.message ?? '').includes('2400 baud'), 'the port at 2400 7E1');
    expect(service.getState().source.message).toContain('7 data bits, even parity');
    await device.write(uartReceive(Buffer.from('Jh\r\n'), DEVICE, DEVICE));
    await waitFor(() => service.getState().lastInput?.type === 'card', 'a card');
    expect(service.getState().lastInput).toMatchObject({ type: 'card', card: 'Jh' });

    // Dismissed: the outcome goes.
    expect(await service.detectReader(false)).toEqual({ ok: true, value: null });
    expect(service.getState().detection).toBeNull();
  }, 60_000);

  // Issue 41: an RDM6300 whose tag rests on the antenna sends its frame again every ~100 ms.
  it('an RDM6300 with a tag resting on it: rdm6300 found first with its repeat window; used, a deck registered with it takes each resting tag once', async () => {
    const { service, device } = await consoleOnPort();
    const RDM6300 = BINARY_PROFILES.rdm6300 as DeviceProfile;
    const frameOf = (tag: string) => framed(tag, RDM6300.framing);
    let stopped = false;
    cleanups.push(async () => {
      stopped = true;
    });
    // The tag lies on the antenna while the console listens: its frame every 100 ms, at 9600 8N1
    // as the reader sends it, at any other setting as that setting receives it.
    const reader = (async () => {
      while (!stopped) {
        const detection = service.getState().detection;
        if (detection?.state === 'done' || detection?.state === 'failed') return;
        const setting = detection?.state === 'listening' ? detection.setting : null;
        if (setting !== null) {
          const [baud, format] = setting.split(' ') as [string, string];
          await device.write(uartReceive(frameOf('1A00A1B2C3'), uartSetting(9600, '8N1'), uartSetting(Number(baud), format)));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    expect(await service.detectReader(true)).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().detection?.state === 'done', 'the detection to finish', 20_000);
    await reader;
    const found = service.getState().detection?.found ?? [];
    expect(found[0]).toMatchObject({ setting: '9600 8N1', tags: ['1A00A1B2C3'], profile: { name: 'rdm6300-9600-8n1', framing: RDM6300.framing, repeatMs: TAG_REPEAT_MS } });
    // Plain STX…ETX reads the same frames with the checksum digits in the tag: after it, and with a window too.
    expect(found.findIndex((entry) => entry.tags.includes('1A00A1B2C3CA'))).toBeGreaterThan(0);
    for (const entry of found) if ((entry.profile.decoder as { kind: string }).kind === 'uid') expect(entry.profile.repeatMs).toBeGreaterThanOrEqual(TAG_REPEAT_MS);

    // Used as the screen does it, then a deck registered: three tags, two of them resting.
    expect(await service.importProfile(found[0]?.profile)).toMatchObject({ ok: true, value: { name: 'rdm6300-9600-8n1' } });
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'rdm6300-9600-8n1' } })).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the card source to open again');
    expect(await service.registerDeck('deck-1')).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the card source on the registration');
    const firstInput = (service.getState().inputs.at(-1)?.id ?? 0) + 1;
    for (const tag of [...Array<string>(8).fill('1A00A1B2C3'), ...Array<string>(8).fill('1A00A1B2C4'), '0F0011AA55']) {
      await device.write(frameOf(tag));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cardsRead = () => service.getState().inputs.filter((input) => input.id >= firstInput && input.event.type === 'card').map((input) => (input.event as { card: string }).card);
    // The last tag is sent once: its card comes after every frame before it.
    await waitFor(() => cardsRead().includes(REGISTRATION_ORDER[2] as string), 'the third tag');
    expect(cardsRead()).toEqual(REGISTRATION_ORDER.slice(0, 3));
    expect(service.getState().registration).toMatchObject({ registered: 3, next: REGISTRATION_ORDER[3] });
  }, 60_000);

  it('stopped while listening: the card source opens again; without a serial port it is refused', async () => {
    const { service } = await consoleOnPort();
    expect(await service.detectReader(true)).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().detection?.tried === 1, 'the first setting');
    expect(await service.detectReader(false)).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().detection?.state === 'done', 'the detection to stop');
    expect(service.getState().detection?.found).toEqual([]);
    await waitFor(() => service.getState().source.state === 'connected', 'the card source to open again');
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { kind: 'manual', path: '', baud: 9600, decoder: 'text' } })).toEqual({ ok: true, value: null });
    expect(await service.detectReader(true)).toMatchObject({ ok: false, error: { field: 'source', message: 'choose the serial card source and its port first' } });
  }, 30_000);
});
