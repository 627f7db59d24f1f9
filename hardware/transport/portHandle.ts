import { SerialPort } from 'serialport';
import type { Message, MessageParam } from '../../engine/messages';
import type { LineSettings } from '../lineSettings';

/**
 * A serial port as the connection (portConnection.ts) holds it, and what is done to one port:
 * made, its line settings read back, DTR set, closed. The connection's own work (one owner per
 * path, reconnecting, unplug checks, statuses) is in portConnection.ts.
 */

/** The part of a serialport port this source uses; `SerialPort` and `SerialPortMock` both fit. */
export interface PortHandle {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback?: (error: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
  /** The open binding port, asked for its baud rate as a health check. */
  readonly port?: { getBaudRate(): Promise<{ baudRate: number }> } | undefined;
  /** Sets modem lines (DTR) on the open port; needed only for a profile with `dtr`. */
  set?(options: { readonly dtr?: boolean }, callback?: (error: Error | null) => void): void;
  /**
   * What the port was opened with, as serialport keeps it: the `connected` status reports the line
   * settings from here, so it shows what reached serialport, not what was asked for.
   */
  readonly settings?: { readonly dataBits?: number; readonly parity?: string; readonly stopBits?: number; readonly rtscts?: boolean };
}

/** What a port is opened with: serialport's open options of these names. */
export interface PortOptions extends LineSettings {
  readonly path: string;
  readonly baudRate: number;
}

export type PortFactory = (options: PortOptions) => PortHandle;

/** What a port is opened with: the device's line settings, its speed and DTR, and its name for the `connecting` status (a DeviceProfile fits). */
export interface LineProfile extends LineSettings {
  readonly name: string;
  readonly baud: number;
  /** Set DTR to this right after the open; absent: left as the system sets it. */
  readonly dtr?: boolean;
}

/** Makes a serialport port, not yet open (the connection opens it). */
export const defaultCreatePort: PortFactory = (options) => new SerialPort({ ...options, autoOpen: false });

/** The line settings the port says it was opened with, each missing one as the profile asked. */
export function openedLine(port: PortHandle, asked: LineSettings): LineSettings {
  const opened = port.settings ?? {};
  return {
    dataBits: (opened.dataBits ?? asked.dataBits) as LineSettings['dataBits'],
    parity: (opened.parity ?? asked.parity) as LineSettings['parity'],
    stopBits: (opened.stopBits ?? asked.stopBits) as LineSettings['stopBits'],
    rtscts: opened.rtscts ?? asked.rtscts,
  };
}

/**
 * Sets DTR as the profile asks, right after the open. Returns the note for the `connected`
 * status: nothing when the profile leaves DTR alone, else what became of it.
 */
export function setDtr(port: PortHandle, dtr: boolean | undefined): Promise<Message | null> {
  if (dtr === undefined) return Promise.resolve(null);
  const state: MessageParam = { message: { key: dtr ? 'hardware.port.on' : 'hardware.port.off' } };
  return new Promise((resolve) => {
    if (port.set === undefined) return resolve({ key: 'hardware.port.dtrNotSet', params: { state, why: { message: { key: 'hardware.port.dtrCannot' } } } });
    // `why`: the system's own words.
    port.set({ dtr }, (error) => resolve(error ? { key: 'hardware.port.dtrNotSet', params: { state, why: error.message.replace(/^Error:?\s*/i, '').replace(/, cannot set$/, '') } } : { key: 'hardware.port.dtrSet', params: { state } }));
  });
}

/** Closes the port when it is open; resolves once closed. */
export function closePort(port: PortHandle): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) return resolve();
    port.close(() => resolve());
  });
}
