import { writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import { engineBenchmarks } from './engine';
import { formatTable, meetsTarget } from './report';

const figures = engineBenchmarks();
figures.push(...(await import('./poker')).pokerBenchmarks());
console.log(formatTable(figures));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  machine: `${platform()} ${arch()}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}`,
  figures: figures.map((figure) => ({ ...figure, meetsTarget: meetsTarget(figure) })),
};
const file = join(import.meta.dirname, 'results.json');
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nsaved ${file}`);
// A missed target fails the run, so a regression cannot pass unnoticed.
if (figures.some((figure) => !meetsTarget(figure))) process.exitCode = 1;
