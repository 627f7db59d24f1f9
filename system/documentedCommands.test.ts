// Issue 45, point 6: the station's own commands the documentation gives, run as written there (each
// block found by its marker): checking a journal (docs/reliability.md), and trying a shoe without
// hardware (docs/readers.md). The shoe commands that need a real device are read as the `cards`
// command reads its arguments: each option's name and value, each built-in decoder's line settings.
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInProfile, BUILT_IN_NAMES, parseOptions, withLineOptions } from '../hardware/cli/args';
import { CARDS_OPTIONS } from '../hardware/cli/cardsMain';
import { requireSocat } from '../hardware/testing/ptyPair';
import { ConsoleService } from '../station/service/service';
import { findInDocumentation, PROJECT_ROOT, readmeBlock, runReadmeLines, startReadmeLine, type RunningLine } from '../floor/testing/readme';
import { tableSettings } from './testing/stations';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(label: string): string {
  const made = mkdtempSync(join(tmpdir(), `${label}-`));
  folders.push(made);
  return made;
}

/** A station's journal, written by a console that started a race and abandoned it (sealed with the key, when given one). */
async function journal(journalKeyFile?: string): Promise<string> {
  const dataDir = folder('documented-journal');
  const service = await ConsoleService.start({ dataDir, clock: () => new Date('2026-12-01T20:00:00Z'), station: 'pc-7', ...(journalKeyFile === undefined ? {} : { journalKeyFile }) });
  for (const step of [
    () => service.saveSettings(tableSettings('7')),
    () => service.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }]),
    () => service.abandonRace('race-1', 'misdeal'),
  ]) {
    const done = await step();
    if (!done.ok) throw new Error(JSON.stringify(done.error));
  }
  await service.close();
  return join(dataDir, 'journal.jsonl');
}

describe("docs/reliability.md's check of a journal, as written", () => {
  // `npm run` runs the command in the project's folder: the journal is copied there, as `journal.jsonl`
  // the line names; the key's path, /etc/chip-race/journal.key, is the one thing given elsewhere.
  const inProject = join(PROJECT_ROOT, 'journal.jsonl');
  afterAll(() => rmSync(inProject, { force: true }));

  it('verify: the line without a key checks a journal sealed without one, the line with --key one sealed with it; each prints the document the page shows', async () => {
    const { match } = findInDocumentation('journal-verify block and its output', /<!-- journal-verify:[^\n]*-->\n```sh\n([\s\S]*?)```\n[\s\S]*?```json\n([\s\S]*?)```/);
    const [withoutKey, withKey] = (match[1] as string).trim().split('\n') as [string, string];
    expect(withKey, 'the key path the test gives its own key').toContain('/etc/chip-race/journal.key');
    const shown = JSON.parse(match[2] as string) as { problems: Record<string, unknown>[] };
    if (existsSync(inProject)) throw new Error(`${inProject} is in the project's folder: the test of the journal-verify lines would overwrite it`);

    const keyFile = join(folder('documented-key'), 'journal.key');
    writeFileSync(keyFile, 'a key of thirty-two bytes, kept!!');
    const [plain, keyed] = await Promise.all([journal(), journal(keyFile)]);

    copyFileSync(plain, inProject);
    const checked = await runReadmeLines(withoutKey);
    expect({ code: checked.code, stderr: checked.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(checked.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(Object.keys(shown).sort());
    expect(report).toMatchObject({ ok: true, records: expect.any(Number), problems: [] });
    expect(report.records).toBeGreaterThan(1);

    copyFileSync(keyed, inProject);
    const checkedWithKey = await runReadmeLines(withKey.replace('/etc/chip-race/journal.key', keyFile));
    expect({ code: checkedWithKey.code, stderr: checkedWithKey.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(checkedWithKey.stdout)).toMatchObject({ ok: true, problems: [] });
    // Without the key, a sealed journal is refused as the page says: exit 2, one line, nothing on standard output.
    const refused = await runReadmeLines(withoutKey);
    expect({ code: refused.code, stdout: refused.stdout, lines: refused.stderr.trim().split('\n').length }).toEqual({ code: 2, stdout: '', lines: 1 });
  }, 60_000);
});

describe("docs/readers.md's cards commands", () => {
  /** A block's `npm run --silent cards -- …` lines, as the arguments the command gets (no quotes in them). */
  const cardsArguments = (name: string): string[][] =>
    readmeBlock(name)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [, args] = /^npm run --silent cards -- (.*?)\s*(?:#.*)?$/.exec(line) ?? [];
        if (args === undefined) throw new Error(`${name}: not a cards line: ${line}`);
        return args.split(/\s+/);
      });

  it('every line of "Check a shoe", the reader detection and the deck registration is read as the cards command reads it', () => {
    const lines = [...cardsArguments('cards-check'), ...cardsArguments('cards-detect'), ...cardsArguments('cards-register')];
    expect(lines).toHaveLength(8);
    for (const args of lines) {
      const options = parseOptions(args, CARDS_OPTIONS);
      // A built-in decoder's profile takes the line's settings; a file is one an earlier line saves, or the vendor's.
      const decoder = options.decoder ?? 'text';
      if (BUILT_IN_NAMES.includes(decoder)) expect(() => withLineOptions(builtInProfile(decoder, '--decoder'), options), args.join(' ')).not.toThrow();
      else expect(decoder, args.join(' ')).toMatch(/\.json$/);
    }
  });

  it('a wrong option in such a line is refused (what the test above catches)', () => {
    expect(() => parseOptions(['--port', '/dev/ttyUSB0', '--parity', 'evn'], CARDS_OPTIONS)).not.toThrow();
    expect(() => withLineOptions(builtInProfile('suit-number', '--decoder'), parseOptions(['--port', 'x', '--parity', 'evn'], CARDS_OPTIONS))).toThrow(/parity/);
    expect(() => parseOptions(['--port', '/dev/ttyUSB0', '--baudrate', '19200'], CARDS_OPTIONS)).toThrow(/--baudrate/);
  });

  it('"Try it without hardware": the cable, the reader and the shoe, each line as written (their /tmp links in a folder of the test\'s own)', async () => {
    requireSocat();
    const links = folder('documented-shoe');
    const [cable, reader, shoe] = readmeBlock('cards-without-hardware')
      .trim()
      .split('\n')
      .map((line) => line.replaceAll('/tmp/', `${links}/`)) as [string, string, string];
    const running: RunningLine[] = [];
    try {
      running.push(startReadmeLine(cable));
      for (const by = Date.now() + 10_000; !(existsSync(join(links, 'shoeA')) && existsSync(join(links, 'shoeB'))); await sleep(50)) {
        if (Date.now() > by) throw new Error(`${cable}: no ${links}/shoeA and shoeB: ${running[0]?.output()}`);
      }
      const cards = startReadmeLine(reader);
      running.push(cards);
      // Start the reader first, as the page says: opening a port discards whatever was sent before.
      await cards.waitFor(/"state":"connected"/, 60_000);
      const dealer = startReadmeLine(shoe);
      running.push(dealer);
      const read = await cards.waitFor(/(?:\{"type":"card"[^\n]*\n){3}/, 60_000);
      const dealt = await dealer.waitFor(/^1 (\S+)\n2 (\S+)\n3 (\S+)$/m, 10_000);
      const cardsRead = read[0].trim().split('\n').map((line) => (JSON.parse(line) as { card: string }).card);
      expect(cardsRead).toEqual(dealt.slice(1, 4));
    } finally {
      for (const line of running.reverse()) await line.stop();
    }
  }, 90_000);
});
