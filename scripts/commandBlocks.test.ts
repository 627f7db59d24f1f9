// Issue 45, point 6: every command sequence the documentation gives still runs as written, by a
// test. A shell block of README.md or docs/*.md carries a marker, `<!-- NAME: … -->` on the line
// before its fence, and a test finds it by that name (readmeBlock('NAME'), or findInDocumentation
// with the marker) and runs it; a block no test can run as written is listed below with the reason.
// So a block added to the documentation without a test that runs it fails here, naming it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, PROJECT_ROOT } from '../floor/testing/documentation';

/** The blocks no test runs as written, and why (what runs in their stead). */
const NOT_RUN: Readonly<Record<string, string>> = {
  'run-it':
    "README.md's `npm install && npm start`: installs the packages and opens the Electron window. `npm start` itself is run as written by e2e/floor-readme.spec.ts (the floor-station line), scripts/start.test.ts tests scripts/start.mjs, and .ci/run installs with `npm ci`.",
  'test-it':
    "README.md's `npm ci && npm test`: the whole suite, which a test cannot run inside itself. .ci/run runs exactly these two commands on a clean clone (its `npm ci` adds only --no-audit --no-fund).",
  'floor-standby-start':
    "docs/floor.md's standby start: Debian's /etc/postgresql/15/main, `sudo tee` into it and `systemctl start`, none of which a test machine's throwaway cluster has. system/floorStandby.test.ts gives its standby the same settings (listen, ssl, its own certificate) through startStandby.",
  'floor-standby-floor':
    "docs/floor.md's floor console on the floor and standby list: two computers' names (floor.local, standby.local) a test machine does not resolve. system/floorStandby.test.ts runs a floor console on both loopback clusters' list; the options (--host, --name, --token-file, --tls-cert, --tls-key) are the floor-lan block's, which system/cardroom.test.ts runs as written.",
};

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'shell-session']);
/** A line of an unlabelled block that reads as a command (a command block must say `sh`, and so carry a marker). */
const COMMAND_LINE = /^\s*(?:\$ |npm |npx |node |sudo |runuser |psql |openssl |socat |export |cat > |[A-Z][A-Z0-9_]*=\S)/;

interface Block {
  readonly file: string;
  readonly line: number;
  readonly language: string;
  readonly body: string;
  /** The marker's name on the line before the fence, if there is one. */
  readonly name: string | undefined;
  readonly marker: string | undefined;
}

function text(file: string): string {
  return readFileSync(join(PROJECT_ROOT, file), 'utf8');
}

/** Every fenced block of the documentation, with the marker before it. */
function fencedBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of documentationFiles()) {
    const lines = text(file).split('\n');
    for (let index = 0; index < lines.length; index++) {
      const open = /^(```|~~~)\s*([\w-]*)/.exec(lines[index] as string);
      if (open === null) continue;
      const fence = open[1] as string;
      let end = index + 1;
      while (end < lines.length && !(lines[end] as string).startsWith(fence)) end++;
      const marker = /^<!-- ([a-z0-9-]+):(.*)-->\s*$/.exec(lines[index - 1] ?? '');
      blocks.push({ file, line: index + 1, language: open[2] as string, body: lines.slice(index + 1, end).join('\n'), name: marker?.[1], marker: marker?.[2] });
      index = end;
    }
  }
  return blocks;
}

/** The project's TypeScript sources (tests and their helpers), this file left out; node_modules and what builds write are not walked. */
function sources(): { readonly file: string; readonly text: string }[] {
  const skipped = new Set(['node_modules', 'out', 'dist', 'coverage', 'test-results', 'playwright-report']);
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(PROJECT_ROOT, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory() && !skipped.has(entry.name) && !entry.name.startsWith('.')) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts') && path !== 'scripts/commandBlocks.test.ts') found.push(path);
    }
  };
  walk('');
  return found.sort().map((file) => ({ file, text: text(file) }));
}

/**
 * The sources that find block NAME in the documentation: they read blocks (readmeBlock or
 * findInDocumentation) and name this one ('NAME', or its marker `<!-- NAME:` in a pattern).
 */
function claimants(name: string, files: readonly { readonly file: string; readonly text: string }[]): string[] {
  return files
    .filter(({ text: source }) => /\b(?:readmeBlock|findInDocumentation)\(/.test(source) && (source.includes(`'${name}'`) || source.includes(`<!-- ${name}:`)))
    .map(({ file }) => file);
}

describe("the documentation's command blocks, each run by a test (issue 45, point 6)", () => {
  const blocks = fencedBlocks();
  const shell = blocks.filter((block) => SHELL_LANGUAGES.has(block.language));
  const files = sources();

  it('finds the blocks (the reader of the fences works)', () => {
    expect(shell.length).toBeGreaterThanOrEqual(28);
    expect(shell.find((block) => block.name === 'first-race')).toMatchObject({ file: 'README.md', language: 'sh' });
  });

  it('an unlabelled block holds no command (a command block says `sh`, so that it is held to a test)', () => {
    const commands = blocks
      .filter((block) => block.language === '')
      .flatMap((block) => block.body.split('\n').filter((line) => COMMAND_LINE.test(line)).map((line) => `${block.file}:${block.line}: ${line}`));
    expect(commands).toEqual([]);
  });

  it('every shell block has a marker on the line before its fence', () => {
    expect(shell.filter((block) => block.name === undefined).map((block) => `${block.file}:${block.line}: ${block.body.split('\n')[0]}`)).toEqual([]);
  });

  it('every marked shell block is run by a test that finds it by its marker, or is listed as not run with the reason', () => {
    const unclaimed = shell
      .filter((block) => block.name !== undefined && NOT_RUN[block.name] === undefined && claimants(block.name, files).length === 0)
      .map((block) => `${block.file}:${block.line}: ${block.name} (no test finds it: readmeBlock('${block.name}'), or list it in NOT_RUN with the reason)`);
    expect(unclaimed).toEqual([]);
  });

  it("the first test a marker names finds its block; a block listed as not run is in the documentation and no test's", () => {
    const wrong: string[] = [];
    for (const block of shell) {
      if (block.name === undefined || NOT_RUN[block.name] !== undefined) continue;
      // The first test a marker names is the one said to run it (others it names run the same options).
      const named = block.marker?.match(/[\w/.-]+\.(?:test|spec)\.ts|floor\/testing\/\w+\.ts/)?.[0];
      const finders = claimants(block.name, files);
      if (named !== undefined && !finders.includes(named)) wrong.push(`${block.file}:${block.line}: ${block.name}'s marker names ${named}, which does not find it (${finders.join(', ') || 'no test'} does)`);
    }
    for (const name of Object.keys(NOT_RUN)) {
      if (!shell.some((block) => block.name === name)) wrong.push(`${name}: listed as not run, but no shell block has that marker`);
      const finders = claimants(name, files);
      if (finders.length > 0) wrong.push(`${name}: listed as not run, but ${finders.join(', ')} find it: take it off the list`);
    }
    expect(wrong).toEqual([]);
  });

  it('every `npm run` in a shell block names a script of package.json', () => {
    const scripts = Object.keys((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts);
    const unknown = shell.flatMap((block) =>
      [...block.body.matchAll(/\bnpm run (?:--silent |-s )?([\w:-]+)/g)].map((match) => match[1] as string).filter((script) => !scripts.includes(script)).map((script) => `${block.file}:${block.line}: npm run ${script}`),
    );
    expect(unknown).toEqual([]);
  });

  // `npm run bench` measures for some twelve minutes: no test runs it. What a test can check is
  // that each `npm run bench …` the documentation gives names the script and only groups it has
  // (bench/run.ts refuses any other name, exit 2).
  it('each `npm run bench …` of the documentation names only benchmark groups bench/run.ts has', () => {
    expect((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts.bench).toMatch(/\btsx bench\/run\.ts$/);
    const groupsSource = /const GROUPS[^=]*=\s*\[([\s\S]*?)\n\];/.exec(text('bench/run.ts'))?.[1] ?? '';
    const groups = [...groupsSource.matchAll(/\{ name: '(\w+)'/g)].map((match) => match[1] as string);
    expect(groups).toContain('floorRoom');
    const commands = documentationFiles().flatMap((file) => [...text(file).matchAll(/`npm run (?:--silent |-s )?bench((?: [^`\s]+)*)`/g)].map((match) => ({ file, args: (match[1] as string).trim() })));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    const wrong = commands.flatMap(({ file, args }) =>
      args
        .split(/\s+/)
        .filter((arg) => arg !== '' && arg !== '--')
        .filter((arg) => !groups.includes(arg))
        .map((arg) => `${file}: npm run bench ${args}: no group ${arg} (groups: ${groups.join(', ')})`),
    );
    expect(wrong).toEqual([]);
  });
});
