/**
 * What a serial line carries, bit by bit, and what a receiving UART set to another speed or format
 * makes of it: a pseudo-terminal has no line settings, so a test of `cards --detect` writes to it
 * what a real reader's port would have received at the setting being tried.
 *
 * The sender: idle high (mark); each character a start bit (0), the data bits least significant
 * first, the parity bit if any, and the stop bits (1).
 *
 * The receiver, as a 16550-style UART samples: it waits for the line to be low (checked on a 16×
 * oversampling grid), confirms the start bit half a bit later (still low; else a glitch, and it
 * looks again), then samples each data bit, the parity bit and the FIRST stop bit at their middles
 * (a receiver checks one stop bit, whatever its own stop-bit setting). A low stop bit is a framing
 * error; the UART then takes that low as the next start bit (the 16550's resynchronisation). A
 * character that is all zeros with a low stop bit is a break; the UART then waits for the line to
 * go high before looking for the next start.
 *
 * What Linux hands on, with the termios node-serialport sets: in
 * node_modules/@serialport/bindings-cpp/src/serialport_unix.cpp, `setup()` sets
 * `options.c_iflag = IGNPAR` and then only clears IXON/IXOFF/IXANY — INPCK is NOT set, nor
 * PARMRK, ISTRIP, IGNBRK or BRKINT. Without INPCK the serial driver does not check parity
 * (8250: PE/FE are left out of read_status_mask) and n_tty passes the character on unflagged, so
 * IGNPAR has nothing to ignore: a parity error or a framing error is delivered as the data bits
 * received, never dropped, never marked. A break, with IGNBRK and BRKINT both clear and no
 * PARMRK, reads as one 0x00 byte. With 7 data bits the byte has its top bit 0; no ISTRIP means 8
 * data bits are delivered whole. So, as this simulator does: parity is never checked, and a
 * 7E1 device read at 7O1 (or an 8N1 ASCII device read at 7E1) reads clean.
 */

export type UartParity = 'none' | 'even' | 'odd';

export interface UartSetting {
  readonly baud: number;
  readonly dataBits: 5 | 6 | 7 | 8;
  readonly parity: UartParity;
  readonly stopBits: 1 | 2;
}

function parityBit(value: number, dataBits: number, parity: Exclude<UartParity, 'none'>): number {
  let ones = 0;
  for (let bit = 0; bit < dataBits; bit += 1) ones += (value >> bit) & 1;
  return parity === 'even' ? ones & 1 : (ones & 1) ^ 1;
}

/** The line levels, one per bit time at the sender's baud: two idle bits, the characters back to back, two idle bits. */
export function lineBits(bytes: Uint8Array, setting: UartSetting): number[] {
  const levels = [1, 1];
  for (const byte of bytes) {
    const value = byte & ((1 << setting.dataBits) - 1);
    levels.push(0);
    for (let bit = 0; bit < setting.dataBits; bit += 1) levels.push((value >> bit) & 1);
    if (setting.parity !== 'none') levels.push(parityBit(value, setting.dataBits, setting.parity));
    for (let stop = 0; stop < setting.stopBits; stop += 1) levels.push(1);
  }
  levels.push(1, 1);
  return levels;
}

/** The bytes a receiver set to `receiver` delivers (to a Linux program, see above) from what a sender set to `sender` sends. */
export function uartReceive(bytes: Uint8Array, sender: UartSetting, receiver: UartSetting): Buffer {
  const levels = lineBits(bytes, sender);
  const end = levels.length / sender.baud; // seconds
  const senderBit = (time: number) => Math.floor(time * sender.baud + 1e-9);
  const level = (time: number) => (time >= end ? 1 : (levels[senderBit(time)] as number));
  const bit = 1 / receiver.baud;
  const tick = bit / 16;
  /** The first time at or after `from`, on the receiver's 16× grid, that the line is `wanted`. */
  const next = (from: number, wanted: number): number | undefined => {
    let time = Math.ceil(from / tick - 1e-9) * tick;
    while (time < end) {
      if (level(time) === wanted) return time;
      // Jump to the next sender bit boundary (levels only change there), back on the grid.
      const boundary = (senderBit(time) + 1) / sender.baud;
      time = Math.max(time + tick, Math.ceil(boundary / tick - 1e-9) * tick);
    }
    return undefined;
  };
  const out: number[] = [];
  let from = 0;
  for (;;) {
    const start = next(from, 0);
    if (start === undefined) break;
    if (level(start + bit / 2) !== 0) {
      from = start + bit / 2; // a glitch, not a start bit
      continue;
    }
    let value = 0;
    let zeros = true;
    for (let index = 0; index < receiver.dataBits; index += 1) {
      const sampled = level(start + bit * (1.5 + index));
      value |= sampled << index;
      if (sampled === 1) zeros = false;
    }
    let at = start + bit * (1.5 + receiver.dataBits);
    if (receiver.parity !== 'none') {
      if (level(at) === 1) zeros = false; // sampled, never checked (INPCK is off)
      at += bit;
    }
    const stop = level(at);
    if (stop === 1) {
      out.push(value);
      from = at;
    } else if (zeros) {
      out.push(0); // a break reads as one NUL
      const high = next(at, 1);
      if (high === undefined) break;
      from = high;
    } else {
      out.push(value); // a framing error, delivered as received; the low is taken as the next start bit
      from = at;
    }
  }
  return Buffer.from(out);
}

/** The usual names: `8N1`, `7E1`, `7O1`. */
export function uartSetting(baud: number, format: string): UartSetting {
  const match = /^([5-8])([NEO])([12])$/.exec(format);
  if (match === null) throw new Error(`not a line format: ${format}`);
  const parity: UartParity = match[2] === 'E' ? 'even' : match[2] === 'O' ? 'odd' : 'none';
  return { baud, dataBits: Number(match[1]) as UartSetting['dataBits'], parity, stopBits: Number(match[3]) as 1 | 2 };
}
