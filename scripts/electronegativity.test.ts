// The Electronegativity gate: the scan of the app's shipped sources must report nothing of medium
// severity or above. The scanner always exits 0, so the gate reads its report (CSV) and fails on
// any such row, on any source file it could not parse, and on any suppression not listed below.
// A scan of a deliberately insecure window first proves the scanner really finds things here
// (offline, through our runner), so an empty report means a clean app, not a broken scan.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SHIPPED_FOLDERS } from './shippedFolders.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'];

/**
 * Every `eng-disable` in the shipped sources, and why. A new one fails the gate until it is
 * reviewed and listed here with its reason (and justified in a comment where it is written).
 */
const ALLOWED_SUPPRESSIONS: Record<string, string> = {
  'station/electron/security.ts PRELOAD_JS_CHECK':
    'a "review required" flag on every preload; the preload exposes only the command API through contextBridge (station/electron/preload.test.ts)',
};

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly confidence: string;
  readonly file: string;
  readonly location: string;
  readonly sample: string;
}

/** Parses the scanner's CSV: quoted fields, "" for a quote inside one. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      if (row.some((cell) => cell.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

async function scan(dir?: string): Promise<{ findings: Finding[]; summary: { checks: number; findings: number; unparsed: string[] } }> {
  const report = join(mkdtempSync(join(tmpdir(), 'electronegativity-report-')), 'report.csv');
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts', 'electronegativity.mjs'), report, ...(dir ? [dir] : [])], {
    cwd: root,
    // One libuv thread: the scanner's unawaited header write and row append stay in order.
    env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    timeout: 90_000,
  });
  const summary = JSON.parse(stdout) as { checks: number; findings: number; unparsed: string[] };
  const [header, ...rows] = parseCsv(readFileSync(report, 'utf8'));
  expect(header?.map((cell) => cell.trim())).toEqual(['issue', 'severity', 'confidence', 'filename', 'location', 'sample', 'description', 'url']);
  const findings = rows.map(([id = '', severity = '', confidence = '', file = '', location = '', sample = '']) => ({ id, severity, confidence, file, location, sample }));
  // The report holds every finding the scan returned: an empty file is never taken for a clean app.
  expect(findings).toHaveLength(summary.findings);
  for (const finding of findings) expect(SEVERITIES).toContain(finding.severity);
  return { findings, summary };
}

const serious = (findings: readonly Finding[]) => findings.filter((finding) => SEVERITIES.indexOf(finding.severity) >= SEVERITIES.indexOf('MEDIUM'));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sourcesUnder(path) : /\.(ts|js|mjs|cjs|vue|html)$/.test(name) ? [path] : [];
  });
}

describe('Electronegativity gate', () => {
  it('finds what it should in a deliberately insecure window (the scan works offline)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'electronegativity-canary-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'canary', devDependencies: { electron: '45.5.0' } }));
    writeFileSync(
      join(dir, 'src', 'main.ts'),
      "import { BrowserWindow } from 'electron';\nexport const window = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
    );
    const { findings } = await scan(dir);
    expect(serious(findings).map((finding) => finding.id)).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'AUXCLICK_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK']));
  }, 100_000);

  it('reports nothing of medium severity or above in the app, and could read every file', async () => {
    const { findings, summary } = await scan();
    expect(summary.checks).toBeGreaterThan(30);
    expect(summary.unparsed).toEqual([]);
    expect(serious(findings), JSON.stringify(serious(findings), null, 2)).toEqual([]);
  }, 100_000);

  it('has no suppression that is not reviewed and listed', () => {
    const found = SHIPPED_FOLDERS.flatMap((folder) =>
      sourcesUnder(join(root, folder)).flatMap((path) =>
        [...readFileSync(path, 'utf8').matchAll(/(?:\/\*|\/\/|<!--)[ \t]*eng-disable[ \t]+([\w \t]+)/g)].flatMap((match) =>
          (match[1] as string).trim().split(/[ \t,]+/).map((check) => `${relative(root, path)} ${check}`),
        ),
      ),
    );
    expect(found.sort()).toEqual(Object.keys(ALLOWED_SUPPRESSIONS).sort());
  });
});
