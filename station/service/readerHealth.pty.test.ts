// Reader health through a real serial line (socat pseudo-terminals): an STX…ETX reader with a sum
// checksum sends cards, one again within its repeat window, and frames whose checksum fails; the
// console counts each as the reader health says (frames, checksum failures, repeats), per hour.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeCard } from '../../hardware/encoding';
import { BUILT_IN_PROFILES } from '../../hardware/profile';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import type { ConsoleSettings } from '../../protocol/contract';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('reader health over a pty', () => {
  it('counts frames, checksum failures and repeats the decoder dropped, for the port in use', async () => {
    const pair = await PtyPair.create('reader-health');
    cleanups.push(() => pair.dispose());
    const service = await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'health-pty-')), cardSources: serialCardSources });
    cleanups.push(() => service.close());
    const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'stx-sum', repeatMs: 5000 } };
    expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
    const device = await PtyWriter.open(pair.a);
    cleanups.push(() => device.close());
    const profile = BUILT_IN_PROFILES['stx-sum'];
    if (profile === undefined) throw new Error('no stx-sum profile');
    const good = encodeCard('As', profile);
    // The same frame with its checksum byte (the last, after ETX) changed.
    const bad = Buffer.from(good);
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 0x01;
    await device.write(Buffer.concat([good, good, bad, bad, encodeCard('Kd', profile)]));
    const source = `serial ${pair.b}`;
    const counts = () => service.getState().readerHealth.sources.find((entry) => entry.source === source)?.recent;
    await waitFor(() => counts()?.frames === 4 && counts()?.repeats === 1, 'the reads to be counted', 10_000);
    // Two bad frames of four: a verdict on so few frames (a race's), but under the three that warn.
    expect(counts()).toEqual({ verdict: 'ok', frames: 4, unknown: 0, checksum: 2, repeats: 1, held: 0 });
    expect(service.getState().readerHealth.current).toBe(source);
    expect(service.getState().readerHealth.sources[0]?.hours).toHaveLength(1);
  }, 30_000);
});
