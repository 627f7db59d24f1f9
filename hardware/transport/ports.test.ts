import { describe, expect, it } from 'vitest';
import { findPorts, isListed, listPorts, normalisePort, normaliseUsbId, type RawPortInfo } from './ports';

// A listing as SerialPort.list() gives it on Linux and Windows (ids in either case, some missing).
const LISTING: RawPortInfo[] = [
  { path: '/dev/ttyS0' },
  { path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001', serialNumber: 'A9ABC' },
  { path: '/dev/ttyACM0', manufacturer: 'Shuffle Co ', vendorId: '2341', productId: '0043' },
  { path: 'COM3', manufacturer: 'Prolific', vendorId: '067B', productId: '2303' },
  { path: 'COM4', vendorId: '0x067b', productId: '0X23A3' },
];

describe('port listing', () => {
  it('normalises ids to lower-case hex without 0x and drops empty fields', () => {
    expect(normaliseUsbId('067B')).toBe('067b');
    expect(normaliseUsbId('0x067b')).toBe('067b');
    expect(normaliseUsbId(' 403 ')).toBe('0403');
    expect(normaliseUsbId('')).toBeUndefined();
    expect(normaliseUsbId(undefined)).toBeUndefined();
    expect(normalisePort({ path: 'COM3', manufacturer: 'Prolific', vendorId: '067B', productId: '2303' })).toEqual({
      path: 'COM3',
      manufacturer: 'Prolific',
      vendorId: '067b',
      productId: '2303',
    });
    expect(normalisePort({ path: '/dev/ttyS0', manufacturer: undefined, vendorId: undefined })).toEqual({ path: '/dev/ttyS0' });
  });

  it('lists through the injected SerialPort.list', async () => {
    const ports = await listPorts(async () => LISTING);
    expect(ports.map((port) => port.path)).toEqual(['/dev/ttyS0', '/dev/ttyUSB0', '/dev/ttyACM0', 'COM3', 'COM4']);
    expect(ports[2]).toEqual({ path: '/dev/ttyACM0', manufacturer: 'Shuffle Co', vendorId: '2341', productId: '0043' });
  });
});

describe('findPorts', () => {
  const ports = LISTING.map(normalisePort);

  it('matches vendor and product ids case-insensitively', () => {
    expect(findPorts(ports, { vendorId: '067b', productId: '2303' }).map((port) => port.path)).toEqual(['COM3']);
    expect(findPorts(ports, { vendorId: '067B' }).map((port) => port.path)).toEqual(['COM3', 'COM4']);
    expect(findPorts(ports, { vendorId: '0x067B', productId: '23a3' }).map((port) => port.path)).toEqual(['COM4']);
    expect(findPorts(ports, { productId: '6001' }).map((port) => port.path)).toEqual(['/dev/ttyUSB0']);
  });

  it('matches nothing for unknown ids and everything for no filter', () => {
    expect(findPorts(ports, { vendorId: '1a86' })).toEqual([]);
    expect(findPorts(ports, {})).toHaveLength(LISTING.length);
  });

  it('knows a pseudo-terminal is never listed (so a manual path must stay possible)', () => {
    expect(isListed(ports, '/tmp/shoeB')).toBe(false);
    expect(isListed(ports, '/dev/ttyUSB0')).toBe(true);
    expect(isListed(ports, 'com3')).toBe(true);
    expect(isListed(ports, '/dev/TTYUSB0')).toBe(false);
  });
});
