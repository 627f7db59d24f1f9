import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uartReceive, uartSetting, type UartSetting } from './uart';

const BAUDS = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200];
const setting: fc.Arbitrary<UartSetting> = fc.record({
  baud: fc.constantFrom(...BAUDS),
  dataBits: fc.constantFrom(5, 6, 7, 8),
  parity: fc.constantFrom('none', 'even', 'odd'),
  stopBits: fc.constantFrom(1, 2),
}) as fc.Arbitrary<UartSetting>;

describe('UART simulator', () => {
  it('same settings on both ends: the bytes arrive as sent (masked to the data bits)', () => {
    fc.assert(
      fc.property(setting, fc.uint8Array({ maxLength: 64 }), (line, bytes) => {
        const mask = (1 << line.dataBits) - 1;
        expect([...uartReceive(bytes, line, line)]).toEqual([...bytes].map((byte) => byte & mask));
      }),
      { numRuns: 300 },
    );
  });

  it('parity is never checked (INPCK is off): 7E1 read at 7O1, and 7-bit ASCII sent 8N1 read at 7E1, arrive whole', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BAUDS), fc.uint8Array({ maxLength: 64, max: 0x7f }), (baud, bytes) => {
        expect([...uartReceive(bytes, uartSetting(baud, '7E1'), uartSetting(baud, '7O1'))]).toEqual([...bytes]);
        expect([...uartReceive(bytes, uartSetting(baud, '8N1'), uartSetting(baud, '7E1'))]).toEqual([...bytes]);
      }),
    );
  });

  it('7E1 read at 8N1: the parity bit arrives as the top bit', () => {
    // 'A' 0x41 has two ones (parity 0), 's' 0x73 five (parity 1), CR 0x0D three, LF 0x0A two.
    expect([...uartReceive(Buffer.from('As\r\n'), uartSetting(2400, '7E1'), uartSetting(2400, '8N1'))]).toEqual([0x41, 0xf3, 0x8d, 0x0a]);
  });

  it('a wrong baud gives other bytes, and a break reads as one NUL', () => {
    const sent = Buffer.from('As\r\nKd\r\n');
    const at9600 = uartReceive(sent, uartSetting(2400, '7E1'), uartSetting(9600, '8N1'));
    expect(at9600.equals(sent)).toBe(false);
    expect(at9600.length).toBeGreaterThan(0);
    // A 1200-baud NUL (ten bit times of 0 with its parity) is longer than a whole 9600-baud character: a break.
    const broken = uartReceive(Buffer.from([0x00]), uartSetting(1200, '8N1'), uartSetting(9600, '8N1'));
    expect([...broken]).toEqual([0x00]);
  });
});
