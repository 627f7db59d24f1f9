export interface BenchFigure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** What the value must meet; a figure without one is shown for reference (the baseline a ratio is taken to). */
  readonly target?: number;
  /** Whether a higher or a lower value meets the target. */
  readonly better: 'higher' | 'lower';
  /**
   * Set on a figure whose target the code does not meet yet: it is measured and shown beside its
   * target, and a miss says so, but it fails no run until the work it names is done (say what).
   */
  readonly notGatedYet?: string;
  /**
   * Set on a figure that is reported beside its target but, by design, gates nothing (the machine's
   * absolute figure where the console's share is gated): say what gates it instead.
   */
  readonly reportOnly?: string;
}

export function meetsTarget(figure: BenchFigure): boolean {
  if (figure.target === undefined) return true;
  return figure.better === 'higher' ? figure.value >= figure.target : figure.value <= figure.target;
}

/** Whether the figure fails the run: it misses a target it is gated on. */
export function failsGate(figure: BenchFigure): boolean {
  return figure.notGatedYet === undefined && figure.reportOnly === undefined && !meetsTarget(figure);
}

/** What the table says of a figure against its target. */
function verdict(figure: BenchFigure): string {
  if (figure.target === undefined) return 'reference, no target';
  if (figure.reportOnly !== undefined) return `${meetsTarget(figure) ? 'ok' : 'missed'}, report only (${figure.reportOnly})`;
  if (meetsTarget(figure)) return 'ok';
  return figure.notGatedYet === undefined ? 'MISSED' : `missed, not a gate yet (${figure.notGatedYet})`;
}

/** One row per figure with its target beside it, so a regression is visible at a glance. */
export function formatTable(figures: readonly BenchFigure[]): string {
  const rows = figures.map((figure) => [
    figure.name,
    `${figure.value.toLocaleString('en-US')} ${figure.unit}`,
    figure.target === undefined ? '—' : `${figure.better === 'higher' ? '≥' : '≤'} ${figure.target.toLocaleString('en-US')} ${figure.unit}`,
    verdict(figure),
  ]);
  const header = ['benchmark', 'measured', 'target', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
