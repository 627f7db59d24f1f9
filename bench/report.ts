export interface BenchFigure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target: number;
  /** Whether a higher or a lower value meets the target. */
  readonly better: 'higher' | 'lower';
}

export function meetsTarget(figure: BenchFigure): boolean {
  return figure.better === 'higher' ? figure.value >= figure.target : figure.value <= figure.target;
}

/** One row per figure with its target beside it, so a regression is visible at a glance. */
export function formatTable(figures: readonly BenchFigure[]): string {
  const rows = figures.map((figure) => [
    figure.name,
    `${figure.value.toLocaleString('en-US')} ${figure.unit}`,
    `${figure.better === 'higher' ? '≥' : '≤'} ${figure.target.toLocaleString('en-US')} ${figure.unit}`,
    meetsTarget(figure) ? 'ok' : 'MISSED',
  ]);
  const header = ['benchmark', 'measured', 'target', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
