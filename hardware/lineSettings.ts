// How a serial line is set: types, choices and their words, nothing that needs Node, so the console's
// settings (protocol/contract.ts, read by the screens too) can name them.

import { englishText, type Message } from '../engine/messages';

export const DATA_BITS = [5, 6, 7, 8] as const;
export const PARITIES = ['none', 'even', 'odd', 'mark', 'space'] as const;
export const STOP_BITS = [1, 1.5, 2] as const;
export type DataBits = (typeof DATA_BITS)[number];
export type Parity = (typeof PARITIES)[number];
export type StopBits = (typeof STOP_BITS)[number];

/**
 * How the serial line is set when the port is opened (serialport's open options of the same
 * names). USB virtual COM ports ignore them; an RS-232 device needs them to match, e.g. 7 data
 * bits and even parity. Mark and space parity and 1.5 stop bits only open on Windows: serialport's
 * Linux and macOS drivers refuse them (see transport/portErrors.ts).
 */
export interface LineSettings {
  readonly dataBits: DataBits;
  readonly parity: Parity;
  readonly stopBits: StopBits;
  /** RTS/CTS hardware flow control: the device only sends while the port raises RTS. */
  readonly rtscts: boolean;
}

export const DEFAULT_LINE_SETTINGS: LineSettings = { dataBits: 8, parity: 'none', stopBits: 1, rtscts: false };

/** `7 data bits, even parity, 1 stop bit` (and `, RTS/CTS flow control`), in keys. */
export function lineSaid(settings: LineSettings): Message {
  const parity: Message = settings.parity === 'none' ? { key: 'hardware.port.noParity' } : { key: 'hardware.port.parity', params: { parity: { message: { key: `hardware.parities.${settings.parity}` } } } };
  return { key: 'hardware.port.line', params: { dataBits: settings.dataBits, parity: { message: parity }, n: settings.stopBits, flow: settings.rtscts ? { message: { key: 'hardware.port.flow' } } : '' } };
}

/** The same in English, as the command line and the profiles' summaries print it. */
export function describeLine(settings: LineSettings): string {
  return englishText(lineSaid(settings));
}

/** The usual 8 data bits, no parity, 1 stop bit, no flow control. */
export function isDefaultLine(settings: LineSettings): boolean {
  return (Object.keys(DEFAULT_LINE_SETTINGS) as (keyof LineSettings)[]).every((key) => settings[key] === DEFAULT_LINE_SETTINGS[key]);
}
