import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/ptyPair';
import { PortConnection, type ConnectionHandler, type LineProfile, type PortFactory } from './portConnection';

/*
 * The port connection by itself, with no decoding: bytes in, status out, and each connection's
 * beginning and end told to its user, the end before `disconnected`. (SerialSource's tests check
 * the joined whole: serialSource.test.ts, serialSource.pty.test.ts.)
 */

const LINE: LineProfile = { name: 'raw', baud: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false };
const connections: PortConnection[] = [];
let serial = 0;

function setUp() {
  serial += 1;
  const path = `/dev/mock-connection-${serial}`;
  SerialPortMock.binding.createPort(path, { echo: false, record: false });
  let available = true;
  const ports: SerialPortMock[] = [];
  const createPort: PortFactory = (options) => {
    const port = new SerialPortMock({ ...options, path: available ? options.path : `${options.path}-gone`, autoOpen: false });
    ports.push(port);
    return port;
  };
  /** What the connection told its user, in order: `begun`, `bytes …`, `ended`, `closed` and the status states. */
  const told: string[] = [];
  let endedResolve: () => void = () => {};
  let holdEnd = false;
  const handler: ConnectionHandler = {
    begun: () => told.push('begun'),
    bytes: (chunk) => told.push(`bytes ${chunk.toString('latin1')}`),
    status: (event) => told.push(event.state),
    ended: () => {
      told.push('ended');
      return holdEnd ? new Promise((resolve) => (endedResolve = resolve)) : Promise.resolve();
    },
    closed: () => told.push('closed'),
  };
  const connection = new PortConnection(handler, { createPort, pollMs: 0, healthMs: 0, backoff: { initialMs: 5, maxMs: 20 } });
  connections.push(connection);
  return {
    path,
    connection,
    told,
    last: () => ports.at(-1) as SerialPortMock,
    unplug: (keepAway: boolean) => {
      available = !keepAway;
      ports.at(-1)?._disconnected(new Error('gone'));
    },
    holdEnd: () => (holdEnd = true),
    releaseEnd: () => {
      holdEnd = false;
      endedResolve();
    },
  };
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  SerialPortMock.binding.reset();
});

describe('PortConnection (the port apart from decoding)', () => {
  it('passes the bytes on as they arrive, after telling that the connection began, and ends it on close', async () => {
    const { path, connection, told, last } = setUp();
    expect(await connection.open(path, LINE)).toMatchObject({ type: 'status', state: 'connected', message: `Connected to ${path} at 9600 baud` });
    last().port?.emitData('As\r\nK');
    await waitFor(() => told.includes('bytes K') || told.includes('bytes As\r\nK'), 'the bytes');
    await connection.close();
    expect(told.filter((entry) => !entry.startsWith('bytes'))).toEqual(['connecting', 'begun', 'connected', 'ended', 'closed']);
    expect(told.filter((entry) => entry.startsWith('bytes')).join('').replaceAll('bytes ', '')).toBe('As\r\nK');
  });

  it('after an unplug, reports disconnected only once its user has finished with the ended connection, then reconnects', async () => {
    const { path, connection, told, unplug, holdEnd, releaseEnd } = setUp();
    await connection.open(path, LINE);
    holdEnd();
    unplug(false);
    await waitFor(() => told.includes('ended'), 'the connection ended');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(told).not.toContain('disconnected');
    expect(connection.state).toBe('reconnecting');
    releaseEnd();
    await waitFor(() => told.filter((entry) => entry === 'connected').length === 2, 'the reconnection');
    expect(told).toEqual(['connecting', 'begun', 'connected', 'ended', 'disconnected', 'reconnecting', 'begun', 'connected']);
  });
});
