import { InputError } from '../errors';

/** A structure as the planner reads it (plain JSON), before validation. */
export interface StructureInput {
  readonly chips: readonly number[];
  readonly levels: ReadonlyArray<{ readonly sb: number; readonly bb: number; readonly ante?: number } | { readonly break: number }>;
  readonly startingStack?: number;
  readonly rebuys?: { readonly amount: number; readonly untilLevel: number };
  readonly overrides?: Readonly<Record<string, readonly number[]>>;
}

/**
 * The structure as a spreadsheet sheet, one row per line, for floor staff who keep structures in
 * spreadsheets:
 *   chips,25,100,500,1000,5000
 *   starting stack,10000
 *   rebuys,10000,4
 *   level,25,50
 *   level,50,100,0
 *   break,15
 * `level,SB,BB[,ANTE]` rows are playing levels in order; `break,MINUTES` a break after the level before.
 */
export function structureToCsv(structure: StructureInput): string {
  const rows = [['chips', ...structure.chips]];
  if (structure.startingStack !== undefined) rows.push(['starting stack', structure.startingStack]);
  if (structure.rebuys !== undefined) rows.push(['rebuys', structure.rebuys.amount, structure.rebuys.untilLevel]);
  for (const entry of structure.levels) {
    rows.push('break' in entry ? ['break', entry.break] : ['level', entry.sb, entry.bb, ...(entry.ante ? [entry.ante] : [])]);
  }
  return `${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
}

function number(cell: string | undefined, field: string): number {
  const text = (cell ?? '').trim();
  if (!/^\d+$/.test(text)) throw new InputError(field, `"${text}" is not a whole number`);
  return Number(text);
}

/** Reads the sheet above; the planner then validates what it means. Refuses a malformed line, naming it. */
export function structureFromCsv(text: string): StructureInput {
  let chips: number[] | undefined;
  let startingStack: number | undefined;
  let rebuys: { amount: number; untilLevel: number } | undefined;
  const levels: Array<{ sb: number; bb: number; ante?: number } | { break: number }> = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const cells = line.split(/[,;\t]/).map((cell) => cell.trim());
    const kind = (cells[0] ?? '').toLowerCase();
    const field = `line ${index + 1}`;
    if (cells.every((cell) => cell === '')) return;
    if (kind === 'chips') chips = cells.slice(1).filter((cell) => cell !== '').map((cell, column) => number(cell, `${field}, chip ${column + 1}`));
    else if (kind === 'starting stack') startingStack = number(cells[1], field);
    else if (kind === 'rebuys') rebuys = { amount: number(cells[1], `${field}, amount`), untilLevel: number(cells[2], `${field}, last level`) };
    else if (kind === 'break') levels.push({ break: number(cells[1], `${field}, minutes`) });
    else if (kind === 'level') {
      const ante = cells[3] === undefined || cells[3] === '' ? undefined : number(cells[3], `${field}, ante`);
      levels.push({ sb: number(cells[1], `${field}, small blind`), bb: number(cells[2], `${field}, big blind`), ...(ante === undefined ? {} : { ante }) });
    } else throw new InputError(field, `starts with "${cells[0]}"; a line is chips, starting stack, rebuys, level or break`);
  });
  if (chips === undefined) throw new InputError('chips', 'the sheet needs a "chips" line listing the denominations');
  return { chips, levels, ...(startingStack === undefined ? {} : { startingStack }), ...(rebuys === undefined ? {} : { rebuys }) };
}
