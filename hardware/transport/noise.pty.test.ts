import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShoeEvent } from '../events';
import { DEFAULT_PROFILE } from '../profile';
import { RawLog } from '../rawLog';
import { seededRandom } from '../simulator/shoe';
import { lineNoise } from '../testing/lineNoise';
import { PtyPair, PtyWriter, requireSocat, waitFor } from '../testing/ptyPair';
import { SerialSource } from './serialSource';

/**
 * Line noise (issue 11) over a real pseudo-terminal pair (socat): random bytes written as fast
 * as the pty takes them, read by a SerialSource with the `text` profile. Every card that comes
 * out must be marked suspect. The 20-second soak through the console service is a service test.
 */

const NOISE_MS = 3000;
const SEED = 11;
const CHUNK = 16 * 1024;

/** Counts every byte the source reads (the log itself keeps only the last few KiB). */
class CountingLog extends RawLog {
  received = 0;
  override record(chunk: Uint8Array): void {
    this.received += chunk.length;
    super.record(chunk);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('line noise over a real pseudo-terminal pair (socat)', { timeout: 30_000 }, () => {
  beforeAll(() => requireSocat());

  it(`random bytes as fast as the pty takes them for ${NOISE_MS / 1000} s: every card decoded is suspect`, async () => {
    const ports = await PtyPair.create('noise');
    cleanups.push(() => ports.dispose());
    const log = new CountingLog();
    const serial = new SerialSource({ rawLog: log });
    cleanups.push(() => serial.close());
    const events: ShoeEvent[] = [];
    serial.on((event) => events.push(event));
    expect(await serial.open(ports.b, 9600, DEFAULT_PROFILE)).toMatchObject({ state: 'connected' });
    const device = await PtyWriter.open(ports.a);
    cleanups.push(() => device.close());

    const random = seededRandom(SEED);
    let written = 0;
    const started = Date.now();
    while (Date.now() - started < NOISE_MS) {
      const chunk = lineNoise(random, CHUNK);
      await device.write(chunk);
      written += chunk.length;
    }
    const writeMs = Date.now() - started;
    await waitFor(() => log.received >= written, `the reader to take all ${written} bytes written (has ${log.received})`, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // room for the last events

    const cards = events.filter((event) => event.type === 'card');
    const devices = events.filter((event) => event.type === 'device');
    const unknowns = events.filter((event) => event.type === 'unknown').length;
    const noiseStatuses = events.filter((event) => event.type === 'status' && event.noise !== undefined);
    console.info(
      `hardware: line noise: ${written} bytes written in ${writeMs} ms (${Math.round(written / 1024 / (writeMs / 1000))} KiB/s), ` +
        `${log.received} read; ${unknowns} unknown frames, ${cards.length} cards decoded (${cards.filter((card) => card.suspect === true).length} suspect), ` +
        `${devices.length} device messages (${devices.filter((message) => message.suspect === true).length} suspect); ` +
        `noise flag: ${noiseStatuses.map((status) => (status.type === 'status' ? status.noise : '')).join(', ') || 'never raised'}`,
    );

    expect(log.received).toBe(written);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.filter((card) => card.suspect !== true)).toEqual([]);
    expect(devices.filter((message) => message.suspect !== true)).toEqual([]);
    // Raised once, at the start of the noise, and never cleared by it.
    expect(noiseStatuses).toEqual([expect.objectContaining({ state: 'error', code: 'wrong-baud', noise: 'flagged' })]);
    expect(events.findIndex((event) => event.type === 'status' && event.noise === 'flagged')).toBeLessThan(
      events.findIndex((event) => event.type === 'card' || event.type === 'device'),
    );
    // The noise is no reconnect: the port's own status is what it was.
    expect(serial.state).toBe('connected');
    expect(events.filter((event) => event.type === 'status' && event.noise === undefined).map((event) => (event.type === 'status' ? event.state : ''))).toEqual([
      'connecting',
      'connected',
    ]);
  });
});
