// Device profiles in the console, through a real serial line (socat pseudo-terminals): a profile
// file imported and chosen, and an RFID deck registered in the console, 52 tags read in order into
// a profile that then deals the race. What `cards --decoder FILE` and `cards --register` do, from
// the settings screen.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRATION_ORDER } from '../../hardware/decoding/uid';
import { framed } from '../../hardware/encoding';
import { bytesInHex } from '../../hardware/framing/binary';
import { BINARY_PROFILES, type DeviceProfile } from '../../hardware/profile';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import type { ConsoleSettings } from '../../protocol/contract';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }];
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];

async function consoleOnPort(decoder: string): Promise<{ service: ConsoleService; device: PtyWriter; dataDir: string; pair: PtyPair }> {
  const pair = await PtyPair.create('profiles');
  cleanups.push(() => pair.dispose());
  const dataDir = mkdtempSync(join(tmpdir(), 'profiles-'));
  const service = await ConsoleService.start({ dataDir, cardSources: serialCardSources });
  cleanups.push(() => service.close());
  const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 3 }, source: { kind: 'serial', path: pair.b, baud: 9600, decoder } };
  expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
  await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
  const device = await PtyWriter.open(pair.a);
  cleanups.push(() => device.close());
  return { service, device, dataDir, pair };
}

/** A tag ID per card: four bytes, as an Arduino RFID table prints them. */
const tagOf = (index: number) => `04 A2 ${(index + 16).toString(16).toUpperCase()} C4`;

describe('device profiles in the console', () => {
  it('a profile file imported (7 data bits, even parity, its own pattern) is stored, offered, chosen, and reads the shoe; it is still there after a restart', async () => {
    const { service, device, dataDir } = await consoleOnPort('text');
    const profile = {
      name: 'vendor-x', baud: 9600, dataBits: 7, parity: 'even',
      framing: { kind: 'lines' },
      decoder: { kind: 'pattern', pattern: '^(?<rank>10|[2-9JQKA])/(?<suit>[1-4])$', suits: { 1: 's', 2: 'h', 3: 'd', 4: 'c' } },
    };
    const imported = await service.importProfile(profile);
    expect(imported).toMatchObject({ ok: true, value: { name: 'vendor-x', builtIn: false, summary: expect.stringContaining('7 data bits, even parity') } });
    expect(existsSync(join(dataDir, 'profiles', 'vendor-x.json'))).toBe(true);
    expect(service.getState().profiles.map((entry) => entry.name)).toContain('vendor-x');
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'vendor-x' } })).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open again');
    expect(service.getState().source.message ?? '').toContain('7 data bits, even parity');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    await device.write('A/2\r\nK/4\r\n');
    await waitFor(() => service.getState().race?.summary.cards.length === 2, 'two cards');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
    await service.close();
    const again = await ConsoleService.start({ dataDir });
    cleanups.push(() => again.close());
    expect(again.getState().profiles.find((entry) => entry.name === 'vendor-x')?.summary).toContain('7 data bits');
    expect(again.getState().settings.source.decoder).toBe('vendor-x');
  }, 30_000);

  it('register deck: 52 tags read in order (a repeated tag explained, nothing dealt), stored as a profile and chosen; its tags then deal the race', async () => {
    const { service, device, dataDir } = await consoleOnPort('rfid');
    expect(await service.registerDeck('deck-1')).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open for the registration');
    expect(service.getState().registration).toEqual({ name: 'deck-1', registered: 0, total: 52, next: 'As', problem: null });
    await device.write(`${tagOf(0)}\r\n`);
    await waitFor(() => service.getState().registration?.registered === 1, 'the first tag');
    // The same tag again (the rfid profile counts a re-read within 1.5 s once; this comes later).
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await device.write(`${tagOf(0)}\r\n`);
    await waitFor(() => service.getState().registration?.problem !== null, 'the repeated tag explained');
    expect(service.getState().registration).toMatchObject({ registered: 1, next: '2s', problem: expect.stringMatching(/already registered as As/) });
    for (let index = 1; index < REGISTRATION_ORDER.length; index += 1) await device.write(`${tagOf(index)}\r\n`);
    await waitFor(() => service.getState().registration === null, 'the registration to finish', 10_000);
    expect(service.getState().settings.source.decoder).toBe('deck-1');
    const stored = JSON.parse(readFileSync(join(dataDir, 'profiles', 'deck-1.json'), 'utf8'));
    expect(Object.keys(stored.decoder.cards)).toHaveLength(52);
    expect(stored.decoder.cards['04A210C4']).toBe('As');
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open with the new profile');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    await device.write(`${tagOf(REGISTRATION_ORDER.indexOf('Ah'))}\r\n`);
    await waitFor(() => service.getState().race?.summary.cards.length === 1, 'the card dealt');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
  }, 60_000);

  it('an Arduino RFID table (JSON lines, a banner when the port opens) and an STX/ETX shoe with a hex checksum, through the console', async () => {
    const { service, device } = await consoleOnPort('text');
    const arduino = {
      name: 'arduino-table',
      framing: { kind: 'lines' },
      graceMs: 300,
      decoder: { kind: 'uid', pattern: '"card_uid":"(?<uid>[^"]+)"', uidBytes: 'hex', cards: { '040E3BD2': 'Ah', '040E3BD3': 'Kc' } },
    };
    expect((await service.importProfile(arduino)).ok).toBe(true);
    let { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'arduino-table' } })).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    // The table resets when the port opens and prints its banner: inside the grace, skipped.
    await device.write('{"type":"boot","version":"1.2"}\r\n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await device.write('{"type":"boot","version":"1.2"}\r\n{"type":"card","card_uid":"04 0e 3b d2","reader":0}\r\n');
    await waitFor(() => service.getState().race?.summary.cards.length === 1, 'the tag dealt');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah']);
    // The boot line after the grace came out as unknown, never as a card: only the tag was dealt.
    expect(service.getState().lastInput).toMatchObject({ type: 'card', card: 'Ah' });
    expect(await service.abandonRace('race-1', 'next device')).toEqual({ ok: true, value: null });

    const shoe = { name: 'stx-hex', framing: { kind: 'stx-etx', checksum: 'xor-hex' }, decoder: { kind: 'text' } };
    expect((await service.importProfile(shoe)).ok).toBe(true);
    ({ settings } = service.getState());
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'stx-hex' } })).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open again');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    const frame = (text: string) => {
      const data = Buffer.from(`${text}\x03`);
      const xor = data.reduce((sum, byte) => sum ^ byte, 0);
      return Buffer.concat([Buffer.from('\x02'), data, Buffer.from(xor.toString(16).toUpperCase().padStart(2, '0'))]);
    };
    await device.write(Buffer.concat([frame('QS'), frame('JD')]));
    await waitFor(() => service.getState().race?.summary.cards.length === 2, 'two framed cards');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Qs', 'Jd']);
  }, 30_000);

  it('binary frames (issue 26): a Zebra SSI scanner and a PN532 through the console; a damaged frame is refused, shown in hex, never dealt', async () => {
    const { service, device } = await consoleOnPort('text');
    const use = async (profile: unknown, name: string) => {
      expect((await service.importProfile(profile)).ok).toBe(true);
      const { settings } = service.getState();
      expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: name } })).toEqual({ ok: true, value: null });
      await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
    };
    await use({ ...BINARY_PROFILES['zebra-ssi'], name: 'ssi-scanner' }, 'ssi-scanner');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    // DECODE_DATA "QS", then "JD" with its checksum damaged, then "JD" whole.
    const ssi = (text: string) => framed(text, (BINARY_PROFILES['zebra-ssi'] as DeviceProfile).framing);
    const damaged = Buffer.from(ssi('JD'));
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] as number) ^ 0x01;
    await device.write(Buffer.concat([ssi('QS'), damaged]));
    await waitFor(() => service.getState().lastInput?.type === 'unknown' && service.getState().race?.summary.cards.length === 1, 'QS dealt and the damaged frame refused');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Qs']);
    expect(service.getState().lastInput).toMatchObject({ type: 'unknown', raw: bytesInHex(damaged) });
    await device.write(ssi('JD'));
    await waitFor(() => service.getState().race?.summary.cards.length === 2, 'the frame sent again');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Qs', 'Jd']);
    expect(await service.abandonRace('race-1', 'next device')).toEqual({ ok: true, value: null });

    await use({ ...BINARY_PROFILES['pn532-uart'], name: 'pn532', baud: 9600, decoder: { kind: 'uid', cards: { '04A2B3C4': 'Ah', '04A2B3C5': 'Kc' } } }, 'pn532');
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    const pn532 = (tag: string) => framed(tag, (BINARY_PROFILES['pn532-uart'] as DeviceProfile).framing);
    // An ACK (skipped), a tag, the other tag.
    await device.write(Buffer.concat([Buffer.from('0000FF00FF00', 'hex'), pn532('04A2B3C4'), pn532('04A2B3C5')]));
    await waitFor(() => service.getState().race?.summary.cards.length === 2, 'two tags dealt');
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(['Ah', 'Kc']);
  }, 30_000);

  it('register deck is refused for a card source that reads no tags, and while a race is open', async () => {
    const { service } = await consoleOnPort('text');
    expect(await service.registerDeck('deck-1')).toMatchObject({ ok: false, error: { field: 'source.decoder', message: 'the profile text does not read RFID tags: choose rfid (or a profile that reads tag IDs) first' } });
    const { settings } = service.getState();
    expect(await service.saveSettings({ ...settings, source: { ...settings.source, decoder: 'rfid' } })).toEqual({ ok: true, value: null });
    expect(await service.startRace(COUNTS)).toEqual({ ok: true, value: null });
    expect(await service.registerDeck('deck-1')).toMatchObject({ ok: false, error: { field: 'race' } });
  }, 30_000);
});
