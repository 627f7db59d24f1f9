import { englishText } from '../../engine/messages';
import { describe, expect, it } from 'vitest';
import { lineFramer } from './lines';
import { silenceFramer } from './silence';
import { checksumOf, ETX, STX, stxEtxFramer } from './stxEtx';
import type { Frame, Framer } from './frame';
import '../testing/saidInEnglish';

const bytes = (text: string) => Buffer.from(text, 'latin1');
function run(framer: Framer, chunks: readonly (string | Buffer)[]): Frame[] {
  return [...chunks.flatMap((chunk) => framer.push(typeof chunk === 'string' ? bytes(chunk) : chunk)), ...framer.flush()];
}
const texts = (frames: readonly Frame[]) => frames.map((frame) => frame.bytes.toString('latin1'));

describe('line framing', () => {
  it('splits on CR, LF and CRLF mixed in one stream', () => {
    expect(texts(run(lineFramer(), ['As\r\nKd\nQh\rJc\r\n']))).toEqual(['As', 'Kd', 'Qh', 'Jc']);
  });

  it('treats a CRLF split across two reads as one line end', () => {
    const framer = lineFramer();
    expect(texts(framer.push(bytes('As\r')))).toEqual(['As']);
    expect(texts(framer.push(bytes('\nKd\r')))).toEqual(['Kd']);
    expect(texts(framer.push(bytes('\n')))).toEqual([]);
    expect(texts(framer.push(bytes('Qh\n')))).toEqual(['Qh']);
  });

  it('reassembles a code split across reads, byte by byte', () => {
    expect(texts(run(lineFramer(), [...'10h\r\nA♠\n'].flatMap((char) => [...Buffer.from(char)].map((byte) => Buffer.from([byte])))))).toEqual(['10h', 'A♠'].map((text) => Buffer.from(text).toString('latin1')));
  });

  it('skips blank lines but keeps a final unterminated line for the end of the stream', () => {
    expect(texts(run(lineFramer(), ['\r\n\n\rAs\n\n', 'Kd']))).toEqual(['As', 'Kd']);
  });

  it('refuses a line that never ends instead of buffering forever', () => {
    const frames = run(lineFramer(8), ['0123456789\n']);
    expect(frames[0]?.error).toEqual('no line end after 8 bytes');
    expect(frames[0]?.bytes).toHaveLength(9);
  });
});

describe('STX…ETX framing', () => {
  const frame = (payload: string, checksum?: number) =>
    Buffer.concat([Buffer.from([STX]), bytes(payload), Buffer.from([ETX]), ...(checksum === undefined ? [] : [Buffer.from([checksum])])]);

  it('computes XOR (LRC) and sum mod 256 over the data and the ETX', () => {
    expect(checksumOf('xor', bytes('As'))).toBe(0x41 ^ 0x73 ^ 0x03);
    expect(checksumOf('sum', bytes('As'))).toBe((0x41 + 0x73 + 0x03) & 0xff);
    expect(checksumOf('sum', Buffer.from([0xff, 0xff]))).toBe((0xff + 0xff + 0x03) & 0xff);
  });

  it('reads frames without a checksum, split anywhere', () => {
    const stream = Buffer.concat([frame('As'), frame('10h')]);
    const chunks = [stream.subarray(0, 1), stream.subarray(1, 3), stream.subarray(3, 6), stream.subarray(6)];
    expect(texts(run(stxEtxFramer('none'), chunks))).toEqual(['As', '10h']);
  });

  it('accepts a frame whose checksum is right and refuses one whose checksum is wrong', () => {
    const good = frame('Kd', checksumOf('xor', bytes('Kd')));
    const bad = frame('Qh', checksumOf('xor', bytes('Qh')) ^ 0x01);
    const frames = run(stxEtxFramer('xor'), [good, bad, frame('2c', checksumOf('xor', bytes('2c')))]);
    expect(texts(frames)).toEqual(['Kd', 'Qh', '2c']);
    expect(frames.map((entry) => entry.error && englishText(entry.error))).toEqual([undefined, expect.stringMatching(/^bad xor checksum: got 0x.., expected 0x..$/), undefined]);
  });

  it('checks a sum checksum split from its frame across reads', () => {
    const whole = frame('As', checksumOf('sum', bytes('As')));
    const framer = stxEtxFramer('sum');
    expect(framer.push(whole.subarray(0, whole.length - 1))).toEqual([]);
    expect(texts(framer.push(whole.subarray(whole.length - 1)))).toEqual(['As']);
  });

  it('reports bytes outside a frame and a frame cut off by a new STX', () => {
    const frames = run(stxEtxFramer('none'), [Buffer.concat([bytes('zz'), Buffer.from([STX]), bytes('Ah'), frame('Kd')])]);
    expect(frames.map((entry) => [entry.bytes.toString('latin1'), entry.error])).toEqual([
      ['zz', 'bytes outside an STX…ETX frame: zz'],
      ['Ah', 'frame cut off by a new STX'],
      ['Kd', undefined],
    ]);
  });

  it('ignores line ends between frames', () => {
    expect(run(stxEtxFramer('none'), [Buffer.concat([frame('As'), bytes('\r\n'), frame('Kd')])]).map((entry) => entry.error)).toEqual([undefined, undefined]);
  });
});

describe('silence framing', () => {
  it('makes one frame of whatever arrived before the pause, trimming line ends', () => {
    const framer = silenceFramer(30);
    expect(framer.idleMs).toBe(30);
    expect(framer.push(bytes(']C0A'))).toEqual([]);
    expect(framer.push(bytes('s\r\n'))).toEqual([]);
    expect(texts(framer.flush())).toEqual([']C0As']);
    expect(framer.flush()).toEqual([]);
  });

  it('refuses a burst that never pauses', () => {
    expect(silenceFramer(30, 4).push(bytes('abcdef'))[0]?.error).toEqual('no pause after 4 bytes');
  });
});

describe('a frame cut off by a disconnect', () => {
  it('is refused, never read as a shorter code, by the line and STX framers', () => {
    const lines = lineFramer();
    expect(lines.push(bytes('S1'))).toEqual([]);
    expect(lines.cutOff()).toEqual([{ bytes: bytes('S1'), error: 'cut off by a disconnect before it ended' }]);
    expect(lines.cutOff()).toEqual([]);
    const stx = stxEtxFramer('xor');
    expect(stx.push(Buffer.concat([Buffer.from([STX]), bytes('Qh'), Buffer.from([ETX])]))).toEqual([]);
    expect(stx.cutOff()).toEqual([{ bytes: bytes('Qh'), error: 'cut off by a disconnect before it ended' }]);
    expect(texts(stx.push(Buffer.concat([Buffer.from([STX]), bytes('Kd'), Buffer.from([ETX, checksumOf('xor', bytes('Kd'))])])))).toEqual(['Kd']);
  });

  it('is complete for a silence-framed reader, whose bursts end with the silence', () => {
    const burst = silenceFramer(30);
    burst.push(bytes('Qh'));
    expect(texts(burst.cutOff())).toEqual(['Qh']);
  });
});
