import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journalPath } from '../../journal/location';
import { ConsoleService } from './service';
import { SETTINGS_FILE } from './stationSettings';
import { options, play, SETTINGS, STRUCTURE } from './testing/evenings';

// Issue 44: a race a damaged line cut short (its confirmation lost, the next race started after
// it) is on the history, but it was not confirmed: the totals every screen shows leave it out of
// the races confirmed and of the value, and count it apart.

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-totals-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Race 2: one 25 a seat, a race that creates value (+25), so leaving it out of the total shows. */
const CHIPS = [1, 1, 1] as const;
describe('the history totals of a journal with a race cut short by a damaged line', () => {
  it('count only the races confirmed, and the value of those only; the race cut short apart', async () => {
    const dir = folder();
    const live = await ConsoleService.start({ ...options(dir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
    await live.saveSettings(SETTINGS);
    await live.saveStructure(STRUCTURE);
    await play(live, [{ t: 'start', chips: [7, 2, 2] }, { t: 'finish' }, { t: 'start', chips: CHIPS }, { t: 'finish' }, { t: 'start', chips: [2, 7, 1] }, { t: 'finish' }]);
    const whole = live.getState().history;
    await live.close();
    expect(whole.total).toBe(3);
    expect(whole.unconfirmed ?? 0).toBe(0);

    // Race 2's confirmation line, bytes flipped as a failing disk leaves them.
    const journal = readFileSync(journalPath(dir));
    const ends = [...journal.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at);
    const lines = journal.toString('utf8').split('\n');
    const index = lines.findIndex((line) => line.includes('"kind":"race-confirm"') && line.includes('"raceId":"race-2"'));
    expect(index).toBeGreaterThan(0);
    const copy = Buffer.from(journal);
    // Its first bytes (never inside a string, so never a line still readable with a seal that no longer matches).
    const from = (ends[index - 1] as number) + 1;
    for (let at = from; at < from + 4; at += 1) copy[at] = (copy[at] as number) ^ 0xff;
    const damagedDir = folder();
    writeFileSync(join(damagedDir, SETTINGS_FILE), readFileSync(join(dir, SETTINGS_FILE)));
    writeFileSync(journalPath(damagedDir), copy);

    const again = await ConsoleService.start({ ...options(damagedDir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
    try {
      const history = again.getState().history;
      const page = await again.historyPage(null, 25);
      if (!page.ok) throw new Error('no page');
      const [first, cut, third] = page.value.entries;
      expect(cut?.id).toBe('race-2');
      expect(cut?.damaged?.confirmed).toBe(false);
      expect(cut?.summary.valueDelta).not.toBe(0);
      // On the history (its pages count it), not confirmed: apart, its value not in the total.
      expect(history.total).toBe(3);
      expect(history.unconfirmed).toBe(1);
      expect(history.valueDelta).toBe((first?.summary.valueDelta ?? 0) + (third?.summary.valueDelta ?? 0));
      expect(history.valueDelta).toBe(whole.valueDelta - (cut?.summary.valueDelta ?? 0));
      // The race's record the service answers says it too (a browser's slip, the player display), not only the screen's.
      const record = await again.raceRecord('race-2');
      if (!record.ok) throw new Error('no record');
      expect(record.value.damaged).toEqual(cut?.damaged);
      expect(record.value.status).not.toBe('confirmed');
      const intact = await again.raceRecord('race-1');
      expect(intact.ok && intact.value.damaged).toBeFalsy();
    } finally {
      await again.close();
    }
  });
});
