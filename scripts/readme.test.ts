// Issue 45: the README is what a newcomer reads in five minutes (what it is, the two commands, a
// first race, where to read on), at most 200 lines; the rest is in docs/, a page per reader. These
// tests hold it to that: the README's length, every relative link of README.md and docs/*.md to a
// file that exists (and to a heading of it, when the link names one), every marked command block
// found exactly once, and the README's first race run as written.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentationFiles, findInDocumentation, PROJECT_ROOT, readmeBlock, runReadmeLines } from '../floor/testing/readme';

const README_MOST_LINES = 200;

function text(file: string): string {
  return readFileSync(join(PROJECT_ROOT, file), 'utf8');
}

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading, a `[x](y)` in one no link). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, a repeat numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** Every relative link target of a page (`[text](target)`, `![alt](target)`), outside code. */
function relativeLinks(markdown: string): string[] {
  const outsideInlineCode = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...outsideInlineCode.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the README and docs/ (issue 45)', () => {
  it(`the README is at most ${README_MOST_LINES} lines`, () => {
    const lines = text('README.md').split('\n').length - (text('README.md').endsWith('\n') ? 1 : 0);
    expect(lines, 'README.md: move the rest to the reader\'s page in docs/').toBeLessThanOrEqual(README_MOST_LINES);
  });

  it('the README links each page of docs/ (where to read on)', () => {
    const linked = new Set(relativeLinks(text('README.md')).map((target) => target.split('#')[0]));
    for (const file of documentationFiles().filter((name) => name !== 'README.md')) expect(linked, `README.md links ${file}`).toContain(file);
  });

  it('every relative link of README.md and docs/*.md points at a file that exists, and at a heading of it when it names one', () => {
    const broken: string[] = [];
    for (const file of documentationFiles()) {
      for (const target of relativeLinks(text(file))) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
        if (linked.startsWith('..') || !existsSync(join(PROJECT_ROOT, linked))) {
          broken.push(`${file}: ${target} (no ${linked})`);
          continue;
        }
        if (anchor !== undefined && linked.endsWith('.md') && statSync(join(PROJECT_ROOT, linked)).isFile() && !headingAnchors(text(linked)).has(decodeURIComponent(anchor))) {
          broken.push(`${file}: ${target} (${linked} has no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every marked command block is found exactly once across README.md and docs/*.md', () => {
    const names = new Set<string>();
    for (const file of documentationFiles()) {
      for (const match of text(file).matchAll(/<!-- ([a-z0-9-]+):[^\n]*-->\n```sh\n/g)) names.add(match[1] as string);
    }
    expect(names.size).toBeGreaterThanOrEqual(12);
    for (const name of names) expect(readmeBlock(name), name).not.toBe('');
  });

  it('finds the anchors GitHub makes', () => {
    expect([...headingAnchors('# The floor: every table (PostgreSQL)\n## Rule sets\n```sh\n# prints a URL\n```\n## Rule sets\n')]).toEqual([
      'the-floor-every-table-postgresql',
      'rule-sets',
      'rule-sets-1',
    ]);
  });
});

describe("the README's first race, run as written", () => {
  afterAll(() => rmSync(join(PROJECT_ROOT, 'race.json'), { force: true }));

  it('writes race.json and races it: Matti and Teppo win a 100 each, value +25', async () => {
    const block = readmeBlock('first-race');
    const outcome = await runReadmeLines(block);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const race = JSON.parse(outcome.stdout) as { status: string; awards: number[]; valueDelta: number; nextStep: string };
    expect(race).toMatchObject({ status: 'complete', awards: [1, 2], valueDelta: 25 });
    // What the README says it prints, word for word.
    const readme = text('README.md').replace(/\s+/g, ' ');
    expect(readme).toContain(`"status": "${race.status}"`);
    expect(readme).toContain(`"awards": [${race.awards.join(', ')}]`);
    expect(readme).toContain(`"valueDelta": ${race.valueDelta}`);
    expect(readme).toContain(`"${race.nextStep}"`);
  }, 60_000);
});

/** A marked block of docs/dealer.md and the JSON blocks after it (the input it reads, the output it prints). */
function blockWithJson(name: string, jsonBlocks: number): { readonly lines: string; readonly json: string[] } {
  const json = '[\\s\\S]*?```json\\n([\\s\\S]*?)```'.repeat(jsonBlocks);
  const { match } = findInDocumentation(`${name} block and its JSON`, new RegExp(`<!-- ${name}:[^\\n]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`${json}`));
  return { lines: match[1] as string, json: match.slice(2) as string[] };
}

describe("the dealer's planner and race from the command line (docs/dealer.md), run as written", () => {
  afterAll(() => {
    for (const file of ['structure.json', 'race.json']) rmSync(join(PROJECT_ROOT, file), { force: true });
  });

  it('the planner reads the input given and prints the output given', async () => {
    const { lines, json: [input, output] } = blockWithJson('planner-cli', 2);
    writeFileSync(join(PROJECT_ROOT, 'structure.json'), input as string);
    const outcome = await runReadmeLines(lines);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual(JSON.parse(output as string));
  }, 60_000);

  it('the race reads the input given and prints each field the page names', async () => {
    const { lines, json: [input] } = blockWithJson('race-cli', 1);
    writeFileSync(join(PROJECT_ROOT, 'race.json'), input as string);
    const outcome = await runReadmeLines(lines);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const race = JSON.parse(outcome.stdout) as Record<string, unknown>;
    const named = /Output \(abridged\):([\s\S]*?)translate/.exec(text('docs/dealer.md'))?.[1] ?? '';
    const fields = ['status', 'exchange', 'settings', 'raceChips', 'deal', 'awaiting', 'awards', 'protected', 'valueDelta', 'tiebreaks', 'nextStep', 'explanation', 'said'];
    for (const field of fields) {
      expect(named, `docs/dealer.md's output names ${field}`).toContain(`\`${field}\``);
      expect(race, `the race prints ${field}`).toHaveProperty(field);
    }
    expect(race).toMatchObject({ status: 'complete', awards: [1, 2], valueDelta: 25 });
  }, 60_000);
});
