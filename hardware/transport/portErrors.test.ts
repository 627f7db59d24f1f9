import { describe, expect, it } from 'vitest';
import { describePortError, isUnplugLike, portBusyInProcess } from './portErrors';
import '../testing/saidInEnglish';

const PATH = '/dev/ttyUSB0';

function errno(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('describePortError', () => {
  it('no such port: serialport text, errno code, Windows and the mock binding', () => {
    for (const error of [
      new Error('Error: No such file or directory, cannot open /dev/ttyUSB0'),
      errno('open failed', 'ENOENT'),
      new Error('Opening COM7: File not found'),
      new Error("Port does not exist - please call MockBinding.createPort('/dev/ttyUSB0') first"),
    ]) {
      const problem = describePortError(error, PATH);
      expect(problem.code).toBe('no-such-port');
      expect(problem.message).toContain(PATH);
      expect(problem.message).toMatch(/plugged in/);
    }
  });

  it('permission denied says how to fix it on Linux (the dialout group)', () => {
    for (const error of [new Error('Error: Permission denied, cannot open /dev/ttyUSB0'), errno('open', 'EACCES')]) {
      const problem = describePortError(error, PATH);
      expect(problem.code).toBe('permission-denied');
      expect(problem.message).toContain('dialout');
      expect(problem.message).toContain('sudo usermod -aG dialout $USER');
      expect(problem.message).toMatch(/log out and back in/);
    }
  });

  it('port busy: EBUSY, the lock serialport takes, Windows access denied', () => {
    for (const error of [
      new Error('Error Resource temporarily unavailable Cannot lock port'),
      new Error('Error: Resource busy, cannot open /dev/ttyUSB0'),
      errno('open', 'EBUSY'),
      new Error('Port is locked cannot open'),
      new Error('Opening COM3: Access denied'),
    ]) {
      const problem = describePortError(error, PATH);
      expect(problem.code).toBe('port-busy');
      expect(problem.message).toMatch(/in use by another program/);
    }
  });

  it('port busy inside this process names the console, not another program', () => {
    const problem = portBusyInProcess(PATH);
    expect(problem).toEqual({ code: 'port-busy', message: expect.stringContaining('already open in this console') });
  });

  it('unplugged: the disconnect error of serialport, EIO, ENXIO, and a vanished path while connected', () => {
    const disconnect = Object.assign(new Error('bad file descriptor'), { disconnected: true });
    expect(describePortError(disconnect, PATH, 'connected').code).toBe('unplugged');
    expect(describePortError(errno('read', 'EIO'), PATH, 'connected').code).toBe('unplugged');
    expect(describePortError(new Error('Error: Device not configured, cannot open /dev/cu.usb'), PATH).code).toBe('unplugged');
    expect(describePortError(errno('gone', 'ENOENT'), PATH, 'connected').code).toBe('unplugged');
    expect(describePortError(disconnect, PATH, 'connected').message).toMatch(/disconnected/);
  });

  it('anything else is open-failed (opening) or io-error (connected), keeping the detail', () => {
    expect(describePortError(new Error('Error: Invalid argument, cannot open x'), PATH)).toEqual({
      code: 'open-failed',
      message: `Cannot open ${PATH}: Invalid argument, cannot open x`,
    });
    expect(describePortError('weird', PATH, 'connected')).toEqual({ code: 'io-error', message: `Error on ${PATH}: weird` });
    expect(describePortError(null, PATH).code).toBe('open-failed');
  });

  it('only unplug-like problems are the device being away', () => {
    expect(isUnplugLike('unplugged')).toBe(true);
    expect(isUnplugLike('no-such-port')).toBe(true);
    expect(isUnplugLike('permission-denied')).toBe(false);
    expect(isUnplugLike('port-busy')).toBe(false);
  });

  it('line settings the driver does not know (mark/space parity, 1.5 stop bits off Windows) say so', () => {
    expect(describePortError(new Error('Invalid parity setting 2'), PATH)).toEqual({
      code: 'open-failed',
      message: `Cannot open ${PATH}: this system's serial driver refuses the parity setting (mark and space parity work on Windows only)`,
    });
    expect(describePortError(new Error('Invalid stop bits setting 2'), PATH)).toEqual({
      code: 'open-failed',
      message: `Cannot open ${PATH}: this system's serial driver refuses the stop bits setting (1.5 stop bits work on Windows only)`,
    });
  });
});
