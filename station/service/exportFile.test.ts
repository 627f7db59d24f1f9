// The Electron window's export: the history streamed to the file the dealer picks in the save
// dialog (ChooseExportFile; station/electron/index.ts passes Electron's), written whole or not at all, its
// owner's only. Electron is not started here: the dialog is a stand-in, the writing is the real one.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportFormat } from './historyCommands';
import { writeChunksAtomically } from './atomicWrite';
import { exportText, serviceHarness } from './testing/services';
import { DEFAULT_SETTINGS } from './settings';

const clock = () => new Date('2026-11-29T12:00:00Z');
const { serviceIn } = serviceHarness({ clock, station: 'pc-1' });
const SETTINGS = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 } };
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

describe('saving the history export to a file', () => {
  it('writes the export to the file chosen (0600, nothing left beside it) and says where; a closed dialog writes nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'export-to-'));
    const asked: Array<[string, ExportFormat]> = [];
    let answer: string | null = join(folder, 'races.csv');
    const service = await serviceIn(mkdtempSync(join(tmpdir(), 'export-data-')), {
      chooseExportFile: async (suggested, format) => {
        asked.push([suggested, format]);
        return answer;
      },
    });
    expect(await service.saveSettings(SETTINGS)).toEqual({ ok: true, value: null });
    for (const race of ['race-1', 'race-2']) {
      await service.startRace(COUNTS);
      for (const card of CARDS) await service.dealCard(race, card);
      expect(await service.confirmRace(race)).toEqual({ ok: true, value: null });
    }
    expect(await service.exportHistory('csv')).toEqual({ ok: true, value: { file: join(folder, 'races.csv') } });
    expect(readFileSync(join(folder, 'races.csv'), 'utf8')).toBe(await exportText(service, 'csv'));
    expect(statSync(join(folder, 'races.csv')).mode & 0o777).toBe(0o600);
    answer = join(folder, 'races.json');
    expect(await service.exportHistory('json')).toEqual({ ok: true, value: { file: join(folder, 'races.json') } });
    expect(JSON.parse(readFileSync(join(folder, 'races.json'), 'utf8')).races).toHaveLength(2);
    expect(asked).toEqual([['chip-races-2026-11-29.csv', 'csv'], ['chip-races-2026-11-29.json', 'json']]);
    answer = null;
    expect(await service.exportHistory('csv')).toEqual({ ok: true, value: null });
    expect(readdirSync(folder).sort()).toEqual(['races.csv', 'races.json']);
  });
});

describe('writing pieces atomically', () => {
  it('writes each piece as it comes and gives the bytes written', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pieces-')), 'out.csv');
    async function* pieces() {
      yield 'a,b\r\n';
      yield 'ä,€\r\n';
    }
    expect(await writeChunksAtomically(path, pieces())).toBe(Buffer.byteLength('a,b\r\nä,€\r\n'));
    expect(readFileSync(path, 'utf8')).toBe('a,b\r\nä,€\r\n');
  });

  it('leaves the file as it was, and no temporary, when the pieces fail half-way', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pieces-'));
    const path = join(folder, 'out.csv');
    writeFileSync(path, 'the export before\n');
    function* failing() {
      yield 'half of ';
      throw new Error('the journal could not be read');
    }
    await expect(writeChunksAtomically(path, failing())).rejects.toThrow('the journal could not be read');
    expect(readFileSync(path, 'utf8')).toBe('the export before\n');
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });
});
