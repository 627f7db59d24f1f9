import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportReport } from './exportChild';
import { writeLongJournal } from './journalStart';
import { benchDataFolder, playTemplateRaces } from './journal';
import type { BenchFigure } from './report';
import { benchDir, round1 } from './support';

/**
 * The whole history exported, streaming, memory flat: a journal of 1,000,000 lines (about 30,600
 * confirmed races of the template's) started in a process of its own (bench/exportChild.ts), its
 * CSV and JSON downloaded from browser mode's address and the CSV saved to a file. Targets: the
 * process's resident memory while exporting ≤ 300 MB; the heap an export leaves behind ≤ 8 MB
 * (flat: it keeps nothing of the history); the JSON's output at least 10× what the resident memory
 * grew by while it ran (the CSV's shown beside, not gated); the speed shown in the names.
 * Run alone with `npm run bench -- historyExport`.
 */

const LINES = Number(process.env.CHIP_RACE_BENCH_EXPORT_LINES ?? 1_000_000);
const ROOT = join(import.meta.dirname, '..');

export function exportOnce(dataDir: string, outDir: string): ExportReport {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', 'exportChild.ts'), dataDir, outDir], { cwd: ROOT, encoding: 'utf8', timeout: 1_800_000, maxBuffer: 16 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`bench: the export process failed (${child.status ?? child.signal}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as ExportReport;
}

/** The figures of one export run (bench/exportChild.ts) on a journal of LINES lines. */
export function exportFigures(report: ExportReport, written: { readonly bytes: number; readonly confirmed: number }): BenchFigure[] {
  const lines = `${LINES.toLocaleString('en-US')}-line journal (${round1(written.bytes / 1024 ** 2)} MiB, ${written.confirmed.toLocaleString('en-US')} races)`;
  const peak = Math.max(...report.runs.map((run) => run.rssPeakMb));
  const left = Math.max(...report.runs.map((run) => run.heapAfterMb - run.heapBeforeMb));
  const figures: BenchFigure[] = [
    { name: `history export of the ${lines}: peak RSS of the station while exporting (${Math.round(report.maxRssMb)} MB over the process's life, its start included)`, value: Math.round(peak), unit: 'MB', target: 300, better: 'lower' },
    // Flat: what an export leaves behind (the heap after a full GC, against before it) does not grow with the history.
    { name: `history export: heap left behind by an export, the most of its ${report.runs.length} runs (after a full GC; summaries kept on the history: ${report.summariesKept.after - report.summariesKept.before})`, value: round1(left), unit: 'MB', target: 8, better: 'lower' },
    ...report.runs.map((run): BenchFigure => {
      const grew = Math.max(run.rssPeakMb - run.rssBeforeMb, 1);
      const outMb = run.bytes / 1024 ** 2;
      const csv = run.format === 'csv';
      return {
        name: `history export, ${run.format.toUpperCase()} ${run.how === 'download' ? "downloaded from browser mode's address" : 'saved to a file'}: output ÷ RSS growth (${round1(outMb)} MB out, RSS ${Math.round(run.rssBeforeMb)}→${Math.round(run.rssPeakMb)} MB, heap ${Math.round(run.heapBeforeMb)}→${Math.round(run.heapPeakMb)} MB at most, ${round1(outMb / (run.ms / 1000))} MB/s, ${Math.round((run.ms * 1000) / report.races)} µs a race)`,
        value: round1(outMb / grew),
        unit: '×',
        target: 10,
        better: 'higher',
        // The CSV is small beside the work behind it (a row of about 440 bytes a race, each race's ~12 KB of journal lines read back for it): its growth is the collector's working room, not the output's.
        ...(csv ? { reportOnly: "the CSV is a few MB, about the collector's room; flatness is gated by the heap left behind and the JSON's ratio" } : {}),
      };
    }),
  ];
  return figures;
}

export async function historyExportBenchmarks(): Promise<{ figures: BenchFigure[]; details: Record<string, unknown> }> {
  const dir = benchDir('history-export');
  try {
    const templateDir = join(dir, 'template');
    const races = await playTemplateRaces(templateDir);
    const { folder, written } = benchDataFolder(dir, templateDir, 'long', (path) => writeLongJournal(path, races, { events: LINES }));
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    const report = exportOnce(folder, outDir);
    if (report.races !== written.confirmed) throw new Error(`bench: the station read ${report.races} races of the ${written.confirmed} written`);
    const figures = exportFigures(report, written);
    return {
      figures,
      details: {
        method: `ConsoleService.start and browser mode in a fresh Node process (bench/exportChild.ts, --expose-gc) on a data folder whose journal.jsonl holds ${LINES} lines of the template races; each export's memory sampled every 10 ms from a full GC before it; the downloads' bytes counted and dropped by an HTTP client in the same process`,
        journalBytes: written.bytes,
        races: written.confirmed,
        startMs: round1(report.startMs),
        maxRssMb: round1(report.maxRssMb),
        summariesKept: report.summariesKept,
        runs: report.runs.map((run) => ({ ...run, ms: round1(run.ms), rssBeforeMb: round1(run.rssBeforeMb), rssPeakMb: round1(run.rssPeakMb), heapBeforeMb: round1(run.heapBeforeMb), heapPeakMb: round1(run.heapPeakMb), heapAfterMb: round1(run.heapAfterMb) })),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
