import { SerialPort } from 'serialport';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../engine/cards';
import { cardText, encodeCard, encodeText } from '../encoding';
import { bytesInHex } from '../framing/binary';
import type { ShoeEvent } from '../events';
import { ALL_BUILT_IN_PROFILES, DEFAULT_PROFILE, readProfile } from '../profile';
import { cardInterval, shuffledShoe } from '../simulator/shoe';
import { PtyPair, PtyWriter, requireSocat, waitFor } from '../testing/ptyPair';
import { SerialSource, type PortFactory, type PortHandle } from './serialSource';
import '../testing/saidInEnglish';

/** Integration over real pseudo-terminal pairs: socat must be installed (`npm test` installs it: scripts/systemPackages.mjs). */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pair(label: string): Promise<PtyPair> {
  const created = await PtyPair.create(label);
  cleanups.push(() => created.dispose());
  return created;
}

async function writer(path: string): Promise<PtyWriter> {
  const opened = await PtyWriter.open(path);
  cleanups.push(() => opened.close());
  return opened;
}

function source() {
  const created = new SerialSource();
  cleanups.push(() => created.close());
  const events: { at: number; event: ShoeEvent }[] = [];
  created.on((event) => events.push({ at: Date.now(), event }));
  const cards = (): Card[] => events.flatMap(({ event }) => (event.type === 'card' ? [event.card] : []));
  const statuses = () => events.flatMap(({ at, event }) => (event.type === 'status' ? [{ at, ...event }] : []));
  return { source: created, events, cards, statuses };
}

describe('SerialSource over a real pseudo-terminal pair (socat)', { timeout: 20_000 }, () => {
  beforeAll(() => requireSocat());

  it('a card stream written on one end arrives in order on the other', async () => {
    const ports = await pair('order');
    const { source: serial, cards, events } = source();
    expect(await serial.open(ports.b, 9600, DEFAULT_PROFILE)).toMatchObject({ state: 'connected' });
    const device = await writer(ports.a);
    const shoe = shuffledShoe(11);
    // All the line endings a shoe may use, split at awkward places across writes.
    const endings = ['\r\n', '\n', '\r'];
    const bytes = Buffer.concat(shoe.map((card, index) => Buffer.from(`${card}${endings[index % 3]}`)));
    for (let offset = 0; offset < bytes.length; offset += 37) await device.write(bytes.subarray(offset, offset + 37));
    await waitFor(() => cards().length >= shoe.length, 'all 52 cards', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cards()).toEqual(shoe);
    expect(events.filter(({ event }) => event.type === 'unknown')).toEqual([]);
  });

  it('every built-in format a shoe can send arrives as the cards sent, device message included', async () => {
    const ports = await pair('formats');
    const device = await writer(ports.a);
    const sent = shuffledShoe(5).slice(0, 6);
    for (const [name, profile] of Object.entries(ALL_BUILT_IN_PROFILES)) {
      if (profile.decoder.kind === 'uid') continue; // no tag table to send from
      const { source: serial, events } = source();
      await serial.open(ports.b, profile.baud, profile);
      for (const [index, card] of sent.entries()) {
        await device.write(encodeCard(card, profile));
        // One card at a time: a silence-framed burst must not meet the next one in the reader's
        // buffer, which a busy test machine can cause at any fixed pause.
        await waitFor(() => events.filter(({ event }) => event.type !== 'status').length === index + 1, `card ${index + 1} (${name})`);
        await new Promise((resolve) => setTimeout(resolve, cardInterval(1000, profile)));
      }
      await device.write(encodeText('EMPTY', profile));
      await waitFor(() => events.some(({ event }) => event.type === 'device'), `the shoe-empty message (${name})`);
      const decoded = events.flatMap(({ event }) => (event.type === 'status' ? [] : [event]));
      // A binary frame is shown whole, in hex; a text one as its text.
      const rawOf = (text: string, bytes: Buffer) => (profile.framing.kind === 'binary' ? bytesInHex(bytes) : text);
      expect({ name, decoded }).toEqual({
        name,
        decoded: [
          ...sent.map((card) => ({ type: 'card', card, raw: rawOf(cardText(card, profile.decoder), encodeCard(card, profile)) })),
          { type: 'device', message: 'shoe-empty', raw: rawOf('EMPTY', encodeText('EMPTY', profile)) },
        ],
      });
      await serial.close();
    }
  });

  it('an unplug mid-stream reports disconnected; a replug reconnects within 3 s; no card lost or doubled', async () => {
    const ports = await pair('replug');
    const { source: serial, cards, statuses } = source();
    await serial.open(ports.b, 9600, DEFAULT_PROFILE);
    const shoe = shuffledShoe(21);
    const before = shoe.slice(0, 20);
    const after = shoe.slice(20, 40);

    const first = await writer(ports.a);
    for (const card of before) await first.write(encodeCard(card, DEFAULT_PROFILE));
    await waitFor(() => cards().length === before.length, 'the cards before the unplug');

    await ports.unplug();
    await waitFor(() => statuses().some((status) => status.state === 'disconnected'), 'disconnected');
    expect(statuses().find((status) => status.state === 'disconnected')).toMatchObject({ code: 'unplugged' });
    // Stay away long enough for the backoff to reach its ceiling: the slowest case for the replug.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(serial.state).toBe('reconnecting');

    const replugAt = Date.now();
    await ports.replug();
    await waitFor(() => serial.state === 'connected', 'the reconnection', 6000);
    const reconnectedAt = statuses().filter((status) => status.state === 'connected').at(-1)?.at as number;
    const reconnectMs = reconnectedAt - replugAt;
    console.info(`hardware: reconnected ${reconnectMs} ms after the replug`);
    expect(reconnectMs).toBeLessThan(3000);

    const second = await writer(ports.a);
    for (const card of after) await second.write(encodeCard(card, DEFAULT_PROFILE));
    await waitFor(() => cards().length >= before.length + after.length, 'the cards after the replug');
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a doubled card to show up
    expect(cards()).toEqual([...before, ...after]);
    expect(statuses().map((status) => status.state)).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'connected']);
  });

  it('an unplug that serialport misses (its read hits end-of-file and never closes) is still noticed', async () => {
    const ports = await pair('hangup');
    // Start reading only once the pty has hung up: serialport 13 then re-reads end-of-file in a
    // loop and emits no close. (This is the race that made the replug test flaky: kill socat just
    // before a read starts.)
    let startReading = (): void => {};
    const createPort: PortFactory = ({ path, baudRate }) => {
      const real = new SerialPort({ path, baudRate, autoOpen: false });
      const handle = {
        get isOpen() {
          return real.isOpen;
        },
        get port() {
          return real.port;
        },
        open: (callback: (error: Error | null) => void) => real.open(callback),
        close: (callback?: (error: Error | null) => void) => real.close(callback),
        on: (event: string, listener: (...args: unknown[]) => void) => {
          if (event === 'data') startReading = () => real.on('data', listener);
          else real.on(event, listener);
          return handle;
        },
        removeAllListeners: () => real.removeAllListeners(),
      };
      return handle as unknown as PortHandle;
    };
    const serial = new SerialSource({ createPort });
    cleanups.push(() => serial.close());
    const states: string[] = [];
    serial.on((event) => {
      if (event.type === 'status') states.push(event.state);
    });
    await serial.open(ports.b, 9600, DEFAULT_PROFILE);
    await ports.unplug();
    await new Promise((resolve) => setTimeout(resolve, 100));
    startReading();
    await waitFor(() => states.includes('disconnected'), 'disconnected', 5000);
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting']);
  });

  it('a second source on the same path gets port-busy; so does a port another program holds', async () => {
    const ports = await pair('busy');
    const one = source();
    expect(await one.source.open(ports.b, 9600, DEFAULT_PROFILE)).toMatchObject({ state: 'connected' });
    const two = source();
    expect(await two.source.open(ports.b, 9600, DEFAULT_PROFILE)).toMatchObject({
      state: 'error',
      code: 'port-busy',
      message: expect.stringContaining('already open in this console'),
    });

    // The other end held by "another program" (a port object outside any SerialSource): the OS lock refuses.
    const held = new SerialPort({ path: ports.a, baudRate: 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => held.open((error) => (error ? reject(error) : resolve())));
    cleanups.push(() => new Promise((resolve) => held.close(() => resolve())));
    const three = source();
    expect(await three.source.open(ports.a, 9600, DEFAULT_PROFILE)).toMatchObject({
      state: 'error',
      code: 'port-busy',
      message: expect.stringContaining('in use by another program'),
    });
  });

  it('a port another program lets go of within a second is opened after all (a source switched reopens at once)', async () => {
    const ports = await pair('released');
    const held = new SerialPort({ path: ports.a, baudRate: 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => held.open((error) => (error ? reject(error) : resolve())));
    const { source: serial, statuses } = source();
    const opening = serial.open(ports.a, 9600, DEFAULT_PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await new Promise<void>((resolve) => held.close(() => resolve()));
    expect(await opening).toMatchObject({ state: 'connected' });
    // Nothing said of the lock while it was tried again: connecting, then connected.
    expect(statuses().map((status) => status.state)).toEqual(['connecting', 'connected']);
  });

  it('a path where no port exists gets no-such-port', async () => {
    const ports = await pair('missing');
    const { source: serial, statuses } = source();
    const missing = `${ports.dir}/nothing-here`;
    expect(await serial.open(missing, 9600, DEFAULT_PROFILE)).toEqual({
      type: 'status',
      state: 'error',
      code: 'no-such-port',
      message: `No serial port at ${missing}: check the path and that the device is plugged in and switched on`,
    });
    expect(statuses().map((status) => status.state)).toEqual(['connecting', 'error']);
    expect(serial.state).toBe('failed');
  });

  it('a 7E1 reader: the port is opened with its line settings (as serialport reports them), and what it sends decodes', async () => {
    const ports = await pair('7e1');
    const reader = readProfile({ name: 'rs232-7e1', baud: 2400, dataBits: 7, parity: 'even', stopBits: 2, framing: { kind: 'lines' }, decoder: { kind: 'suit-number' } });
    const { source: serial, cards } = source();
    expect(await serial.open(ports.b, reader.baud, reader)).toEqual({
      type: 'status',
      state: 'connected',
      message: `Connected to ${ports.b} at 2400 baud, 7 data bits, even parity, 2 stop bits`,
    });
    // A pseudo-terminal ignores line settings: the bytes arrive as the reader's UART would hand them over.
    const device = await writer(ports.a);
    await device.write('S01\r\nD12\r\n');
    await waitFor(() => cards().length === 2, 'two cards');
    expect(cards()).toEqual(['As', 'Qd']);
  });

  it('mark parity, which only Windows drivers know, is refused at the open with a message saying so', async () => {
    const ports = await pair('mark');
    const { source: serial } = source();
    expect(await serial.open(ports.b, 9600, { ...DEFAULT_PROFILE, parity: 'mark' })).toEqual({
      type: 'status',
      state: 'error',
      code: 'open-failed',
      message: `Cannot open ${ports.b}: this system's serial driver refuses the parity setting (mark and space parity work on Windows only)`,
    });
    const { source: other } = source();
    expect(await other.open(ports.b, 9600, { ...DEFAULT_PROFILE, stopBits: 1.5 })).toMatchObject({
      code: 'open-failed',
      message: expect.stringContaining('refuses the stop bits setting (1.5 stop bits work on Windows only)'),
    });
  });

  it('a reader that resets on open: DTR is asked for (a pty has none, which the status says), the banner skipped, a tag lying there one card', async () => {
    const ports = await pair('banner');
    const reader = readProfile({
      // Long enough for the writer to open its end and send the banner on a busy machine.
      graceMs: 1000,
      dtr: false,
      repeatMs: 1500,
      framing: { kind: 'lines' },
      decoder: { kind: 'uid', pattern: '^Card UID:\\s*(?<uid>[0-9A-Fa-f ]+)$', cards: { '04A2B3C4': 'As', '04A2B3C5': 'Kd' } },
    });
    const { source: serial, events } = source();
    expect(await serial.open(ports.b, 9600, reader)).toMatchObject({
      state: 'connected',
      message: `Connected to ${ports.b} at 9600 baud; DTR not set off: Inappropriate ioctl for device`,
    });
    const device = await writer(ports.a);
    await device.write('\r\nMFRC522 Software Version: 0x92 = v2.0\r\nScan PICC to see UID\r\n');
    await waitFor(() => events.some(({ event }) => event.type === 'unknown'), 'the grace report', 3000);
    for (let index = 0; index < 6; index += 1) {
      await device.write('Card UID: 04 A2 B3 C4\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await device.write('Card UID: 04 A2 B3 C5\r\n');
    await waitFor(() => events.filter(({ event }) => event.type === 'card').length === 2, 'two cards');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.flatMap(({ event }) => (event.type === 'status' ? [] : [event]))).toEqual([
      { type: 'unknown', raw: 'MFRC522 Software Version: 0x92 = v2.0\nScan PICC to see UID', reason: 'start-up grace: skipped 2 frames received in the first 1000 ms after the port opened' },
      { type: 'card', card: 'As', raw: 'Card UID: 04 A2 B3 C4' },
      { type: 'card', card: 'Kd', raw: 'Card UID: 04 A2 B3 C5' },
    ]);
  });
});
