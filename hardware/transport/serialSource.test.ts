import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShoeEvent } from '../events';
import { BUILT_IN_PROFILES, DEFAULT_PROFILE, readProfile, type DeviceProfile } from '../profile';
import { waitFor } from '../testing/ptyPair';
import { DEFAULT_BACKOFF, reconnectDelay, SerialSource, type PortFactory, type SerialSourceOptions } from './serialSource';
import '../testing/saidInEnglish';

/** Sources over the mock binding: `available` decides whether the device is there to open. */
function mockDevice(path: string) {
  SerialPortMock.binding.createPort(path, { echo: false, record: false });
  const device = {
    available: true,
    /** Makes opening fail with this error instead (once available is true). */
    failWith: undefined as Error | undefined,
    ports: [] as SerialPortMock[],
    opened: [] as number[],
    /** The options of every port made, as SerialSource asked for them. */
    options: [] as Parameters<PortFactory>[0][],
    createPort: ((options) => {
      const { path: portPath } = options;
      device.opened.push(Date.now());
      device.options.push(options);
      if (device.failWith) throw device.failWith;
      const port = new SerialPortMock({ ...options, path: device.available ? portPath : `${portPath}-gone`, autoOpen: false });
      device.ports.push(port);
      return port;
    }) as PortFactory,
    get last(): SerialPortMock {
      return device.ports.at(-1) as SerialPortMock;
    },
    send(data: string): void {
      device.last.port?.emitData(data);
    },
  };
  return device;
}

const sources: SerialSource[] = [];
let serial = 0;

function setUp(options: Partial<SerialSourceOptions> = {}) {
  serial += 1;
  const path = `/dev/mock-shoe-${serial}`;
  const device = mockDevice(path);
  const source = new SerialSource({ createPort: device.createPort, pollMs: 0, backoff: { initialMs: 5, maxMs: 20 }, ...options });
  sources.push(source);
  const events: ShoeEvent[] = [];
  source.on((event) => events.push(event));
  const states = () => events.flatMap((event) => (event.type === 'status' ? [event.state] : []));
  const cards = () => events.flatMap((event) => (event.type === 'card' ? [event.card] : []));
  return { path, device, source, events, states, cards };
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  SerialPortMock.binding.reset();
});

describe('reconnectDelay', () => {
  it('starts at 100 ms and doubles up to 1 s', () => {
    expect([0, 1, 2, 3, 4, 5, 50, 5000].map((attempt) => reconnectDelay(attempt, DEFAULT_BACKOFF))).toEqual([
      100, 200, 400, 800, 1000, 1000, 1000, 1000,
    ]);
  });
});

describe('SerialSource over the mock binding', () => {
  it('connects and decodes what the port sends, recording the raw bytes', async () => {
    const { path, device, source, events, states } = setUp();
    const first = await source.open(path, 9600, DEFAULT_PROFILE);
    expect(first).toMatchObject({ type: 'status', state: 'connected' });
    expect(source.state).toBe('connected');
    device.send('AS\r\n10h\nxyz\rEMPTY\r\n');
    await waitFor(() => events.length >= 6, 'four events after the statuses');
    expect(states()).toEqual(['connecting', 'connected']);
    expect(events.slice(2)).toEqual([
      { type: 'card', card: 'As', raw: 'AS' },
      { type: 'card', card: 'Th', raw: '10h' },
      { type: 'unknown', raw: 'xyz', reason: 'not a card code' },
      { type: 'device', message: 'shoe-empty', raw: 'EMPTY' },
    ]);
    expect(source.rawLog.list().map((entry) => entry.text).join('')).toBe('AS\\x0d\\x0a10h\\x0axyz\\x0dEMPTY\\x0d\\x0a');
  });

  it('close() closes the port and removes every listener', async () => {
    const { path, device, source, events } = setUp();
    const extra: ShoeEvent[] = [];
    const remove = source.on((event) => extra.push(event));
    await source.open(path, 9600, DEFAULT_PROFILE);
    remove();
    device.send('Kd\n');
    await waitFor(() => events.some((event) => event.type === 'card'), 'the card');
    expect(extra.map((event) => event.type)).toEqual(['status', 'status']);
    const port = device.last;
    await source.close();
    expect(port.isOpen).toBe(false);
    expect(source.state).toBe('closed');
    const count = events.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(events).toHaveLength(count);
    expect(() => source.open(path, 9600, DEFAULT_PROFILE)).toThrow(/closed/);
  });

  it('a first open that fails reports the mapped error and is not retried', async () => {
    const { path, device, source, states } = setUp();
    device.available = false;
    const first = await source.open(path, 9600, DEFAULT_PROFILE);
    expect(first).toMatchObject({ state: 'error', code: 'no-such-port' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(device.opened).toHaveLength(1);
    expect(states()).toEqual(['connecting', 'error']);
    expect(source.state).toBe('failed');
    // The caller may try again once the problem is fixed.
    device.available = true;
    expect(await source.open(path, 9600, DEFAULT_PROFILE)).toMatchObject({ state: 'connected' });
  });

  it('one owner per path: a second source gets port-busy until the first closes', async () => {
    const one = setUp();
    const other = new SerialSource({ createPort: one.device.createPort, pollMs: 0 });
    sources.push(other);
    await one.source.open(one.path, 9600, DEFAULT_PROFILE);
    const busy = await other.open(one.path, 9600, DEFAULT_PROFILE);
    expect(busy).toMatchObject({ state: 'error', code: 'port-busy', message: expect.stringContaining('already open in this console') });
    expect(one.device.opened).toHaveLength(1);
    await one.source.close();
    expect(await other.open(one.path, 9600, DEFAULT_PROFILE)).toMatchObject({ state: 'connected' });
  });

  it('after an unplug: disconnected, reconnecting with backoff, then connected on a fresh decode stream', async () => {
    const { path, device, source, events, states, cards } = setUp();
    await source.open(path, 9600, DEFAULT_PROFILE);
    device.send('Ah\r\nK'); // "K" is cut off by the unplug
    await waitFor(() => cards().length === 1, 'the first card');
    device.available = false;
    device.last._disconnected(new Error('bad file descriptor'));
    await waitFor(() => states().includes('reconnecting'), 'reconnecting');
    expect(events.filter((event) => event.type === 'status' && event.state === 'disconnected')).toEqual([
      { type: 'status', state: 'disconnected', code: 'unplugged', message: expect.stringContaining(path) },
    ]);
    await waitFor(() => device.opened.length >= 6, 'five failed reconnect attempts');
    // The device being away is expected while reconnecting: no error per attempt.
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting']);
    const gaps = device.opened.slice(1).map((at, index) => at - (device.opened[index] as number));
    // Attempts 2… wait 10, 20, 20, 20 ms after the one before (timers fire no earlier than asked).
    expect(gaps.slice(1, 5).map((gap, index) => gap >= [10, 20, 20, 20][index]! - 1)).toEqual([true, true, true, true]);
    device.available = true;
    await waitFor(() => source.state === 'connected', 'reconnected');
    device.send('s\r\nQc\r\n');
    await waitFor(() => cards().length === 2, 'the card after the replug');
    // The partial "K" is reported as cut off and never joins "s" into a card: the new connection decodes on its own.
    expect(cards()).toEqual(['Ah', 'Qc']);
    expect(events.filter((event) => event.type === 'unknown')).toEqual([
      { type: 'unknown', raw: 'K', reason: 'cut off by a disconnect before it ended' },
      { type: 'unknown', raw: 's', reason: 'not a card code' },
    ]);
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'connected']);
  });

  it('while reconnecting, a failure other than "not there" is reported once, then retried', async () => {
    const { path, device, source, events, states } = setUp();
    await source.open(path, 9600, DEFAULT_PROFILE);
    device.failWith = new Error('Error: Permission denied, cannot open ' + path);
    device.last._disconnected(new Error('gone'));
    await waitFor(() => device.opened.length >= 5, 'several refused attempts');
    const errors = events.filter((event) => event.type === 'status' && event.state === 'error');
    expect(errors).toEqual([
      { type: 'status', state: 'error', code: 'permission-denied', message: expect.stringMatching(/dialout.*still trying to reconnect/) },
    ]);
    device.failWith = undefined;
    await waitFor(() => source.state === 'connected', 'reconnected');
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'error', 'connected']);
  });

  it('a listed port that vanishes from the listing is an unplug, even without a close', async () => {
    let listing = [{ path: '' }];
    const { path, device, source, states } = setUp({ pollMs: 10, listPorts: async () => listing });
    listing = [{ path: '/dev/ttyS0' }, { path }];
    await source.open(path, 9600, DEFAULT_PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(states()).toEqual(['connecting', 'connected']);
    const port = device.last;
    listing = [{ path: '/dev/ttyS0' }];
    await waitFor(() => states().includes('reconnecting'), 'the unplug seen in the listing');
    expect(port.isOpen).toBe(false);
    listing = [{ path: '/dev/ttyS0' }, { path }];
    await waitFor(() => source.state === 'connected', 'reconnected');
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'connected']);
  });

  it('a port failing the health check as an unplugged one does is unplugged, even without a close', async () => {
    const { path, device, source, states } = setUp({ healthMs: 5 });
    await source.open(path, 9600, DEFAULT_PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(states()).toEqual(['connecting', 'connected']);
    const port = device.last;
    const binding = port.port as NonNullable<typeof port.port>;
    binding.getBaudRate = () => Promise.reject(Object.assign(new Error('Input/output error, cannot get baud rate'), { code: 'EIO' }));
    await waitFor(() => states().includes('reconnecting'), 'the unplug seen by the health check');
    expect(port.isOpen).toBe(false);
    await waitFor(() => source.state === 'connected', 'reconnected');
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'connected']);
  });

  it('a health check failing for another reason proves nothing', async () => {
    const { path, device, source, states } = setUp({ healthMs: 5 });
    await source.open(path, 9600, DEFAULT_PROFILE);
    const binding = device.last.port as NonNullable<SerialPortMock['port']>;
    binding.getBaudRate = () => Promise.reject(new Error('Inappropriate ioctl for device'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(states()).toEqual(['connecting', 'connected']);
  });

  it('a port that was never listed (a pseudo-terminal) is not polled for', async () => {
    let calls = 0;
    const { path, source, states } = setUp({
      pollMs: 5,
      listPorts: async () => {
        calls += 1;
        return [{ path: '/dev/ttyS0' }];
      },
    });
    await source.open(path, 9600, DEFAULT_PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
    expect(states()).toEqual(['connecting', 'connected']);
  });

  it('a silence-framed burst cut by the unplug is complete and arrives before disconnected', async () => {
    const barcode = BUILT_IN_PROFILES.barcode as DeviceProfile;
    const { path, device, source, events } = setUp();
    await source.open(path, 9600, barcode);
    device.send(']C0As');
    await new Promise((resolve) => setTimeout(resolve, 5));
    device.last._disconnected(new Error('gone'));
    await waitFor(() => events.some((event) => event.type === 'status' && event.state === 'disconnected'), 'disconnected');
    expect(events.slice(2, 4)).toEqual([
      { type: 'card', card: 'As', raw: ']C0As' },
      { type: 'status', state: 'disconnected', code: 'unplugged', message: expect.any(String) },
    ]);
  });

  it('closeAll() (on quit) closes every open source of the process', async () => {
    const one = setUp();
    const two = setUp();
    await one.source.open(one.path, 9600, DEFAULT_PROFILE);
    await two.source.open(two.path, 9600, DEFAULT_PROFILE);
    const ports = [one.device.last, two.device.last];
    await SerialSource.closeAll();
    expect([one.source.state, two.source.state]).toEqual(['closed', 'closed']);
    expect(ports.map((port) => port.isOpen)).toEqual([false, false]);
  });

  it('closed right after an unplug, close() still waits for the lost port to finish closing', async () => {
    let listing = [{ path: '' }];
    const { path, device, source } = setUp({ pollMs: 5, listPorts: async () => listing });
    listing = [{ path }];
    await source.open(path, 9600, DEFAULT_PROFILE);
    const port = device.last;
    let closedAt: number | undefined;
    const close = port.close.bind(port);
    port.close = ((callback?: (error: Error | null) => void) =>
      close((error) => {
        setTimeout(() => {
          closedAt = Date.now();
          callback?.(error);
        }, 40);
      })) as SerialPortMock['close'];
    device.available = false;
    listing = [];
    await waitFor(() => source.state === 'reconnecting', 'the unplug seen in the listing');
    await source.close();
    expect(closedAt).toBeDefined();
  });

  it('closing while reconnecting stops the retries', async () => {
    const { path, device, source } = setUp();
    await source.open(path, 9600, DEFAULT_PROFILE);
    device.available = false;
    device.last._disconnected(new Error('gone'));
    await waitFor(() => device.opened.length >= 3, 'retries');
    await source.close();
    const attempts = device.opened.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(device.opened).toHaveLength(attempts);
  });
});

describe('line settings, DTR, the start-up grace and the repeat window through a source', () => {
  const sevenE1 = readProfile({ name: 'rs232', dataBits: 7, parity: 'even', stopBits: 2, rtscts: true, framing: { kind: 'lines' }, decoder: { kind: 'suit-number' } });

  it('opens the port with the profile\'s line settings, and the connected status names what the port was opened with', async () => {
    const { path, device, source } = setUp();
    const first = await source.open(path, 2400, sevenE1);
    expect(device.options).toEqual([{ path, baudRate: 2400, dataBits: 7, parity: 'even', stopBits: 2, rtscts: true }]);
    expect(device.last.settings).toMatchObject({ dataBits: 7, parity: 'even', stopBits: 2, rtscts: true });
    expect(first).toEqual({ type: 'status', state: 'connected', message: `Connected to ${path} at 2400 baud, 7 data bits, even parity, 2 stop bits, RTS/CTS flow control` });
    // 8N1 without flow control, the usual, is not spelled out.
    const other = setUp();
    expect((await other.source.open(other.path, 9600, DEFAULT_PROFILE)).message).toBe(`Connected to ${other.path} at 9600 baud`);
    expect(other.device.options[0]).toEqual({ path: other.path, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false });
  });

  it('sets DTR right after the open when the profile says so, before connected; a port that refuses still connects', async () => {
    const { path, device, source } = setUp();
    const calls: unknown[] = [];
    const createPort: PortFactory = (options) => {
      const port = device.createPort(options) as SerialPortMock;
      const set = port.set.bind(port);
      port.set = ((settings, callback) => {
        calls.push({ settings, isOpen: port.isOpen });
        return set(settings, callback);
      }) as SerialPortMock['set'];
      return port;
    };
    const withDtr = new SerialSource({ createPort, pollMs: 0 });
    sources.push(withDtr);
    expect(await withDtr.open(path, 9600, { ...DEFAULT_PROFILE, dtr: false })).toMatchObject({ state: 'connected', message: `Connected to ${path} at 9600 baud; DTR set off` });
    expect(calls).toEqual([{ settings: { dtr: false }, isOpen: true }]);
    await withDtr.close();

    // Without `dtr` nothing is set.
    await source.open(path, 9600, DEFAULT_PROFILE);
    expect(calls).toHaveLength(1);
    await source.close();

    const refusing = setUp({
      createPort: (options) => {
        const port = new SerialPortMock({ ...options, autoOpen: false });
        port.set = ((_settings, callback) => callback?.(new Error('Error: Inappropriate ioctl for device, cannot set'))) as SerialPortMock['set'];
        return port;
      },
    });
    SerialPortMock.binding.createPort(refusing.path, { echo: false, record: false });
    expect(await refusing.source.open(refusing.path, 9600, { ...DEFAULT_PROFILE, dtr: true })).toEqual({
      type: 'status',
      state: 'connected',
      message: `Connected to ${refusing.path} at 9600 baud; DTR not set on: Inappropriate ioctl for device`,
    });
  });

  it('closed while DTR is being set: the port is given back and never reported connected', async () => {
    const { path, device } = setUp();
    let release: () => void = () => {};
    const slow = new SerialSource({
      pollMs: 0,
      createPort: (options) => {
        const port = device.createPort(options) as SerialPortMock;
        port.set = ((_settings, callback) => (release = () => callback?.(null))) as SerialPortMock['set'];
        return port;
      },
    });
    sources.push(slow);
    const seen: ShoeEvent[] = [];
    slow.on((event) => seen.push(event));
    void slow.open(path, 9600, { ...DEFAULT_PROFILE, dtr: false });
    await waitFor(() => device.ports.length === 1 && device.last.isOpen, 'the port to open');
    const closed = slow.close();
    release();
    await closed;
    expect(device.last.isOpen).toBe(false);
    expect(slow.state).toBe('closed');
    expect(seen.map((event) => (event.type === 'status' ? event.state : event.type))).toEqual(['connecting']);
  });

  it('a banner in the grace period is reported once as skipped; a tag re-reported is one card', async () => {
    const reader = readProfile({
      graceMs: 60,
      repeatMs: 1500,
      framing: { kind: 'lines' },
      decoder: { kind: 'uid', pattern: '^Card UID: (?<uid>.+)$', cards: { '04A2B3C4': 'As' } },
    });
    const { path, device, source, events } = setUp();
    await source.open(path, 9600, reader);
    device.send('RC522 v2\r\nready\r\n');
    await new Promise((resolve) => setTimeout(resolve, 120));
    for (let index = 0; index < 3; index += 1) {
      device.send('Card UID: 04 A2 B3 C4\r\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await waitFor(() => events.some((event) => event.type === 'card'), 'the card');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(events.slice(2)).toEqual([
      { type: 'unknown', raw: 'RC522 v2\nready', reason: 'start-up grace: skipped 2 frames received in the first 60 ms after the port opened' },
      { type: 'card', card: 'As', raw: 'Card UID: 04 A2 B3 C4' },
    ]);
  });
});
