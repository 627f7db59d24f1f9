import { InputError } from '../errors';
import { englishText, type Message } from '../messages';

/** A structure as the planner reads it (plain JSON), before validation. */
export interface StructureInput {
  readonly chips: readonly number[];
  readonly levels: ReadonlyArray<{ readonly sb: number; readonly bb: number; readonly ante?: number; readonly minutes?: number } | { readonly break: number }>;
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
 * `level,SB,BB[,ANTE[,MINUTES]]` rows are playing levels in order (an empty ante before a level's
 * minutes: `level,25,50,,20`); `break,MINUTES` a break after the level before.
 */
export function structureToCsv(structure: StructureInput): string {
  const rows: (string | number)[][] = [['chips', ...structure.chips]];
  if (structure.startingStack !== undefined) rows.push(['starting stack', structure.startingStack]);
  if (structure.rebuys !== undefined) rows.push(['rebuys', structure.rebuys.amount, structure.rebuys.untilLevel]);
  for (const entry of structure.levels) {
    if ('break' in entry) rows.push(['break', entry.break]);
    else rows.push(['level', entry.sb, entry.bb, ...(entry.minutes !== undefined ? [entry.ante ? entry.ante : '', entry.minutes] : entry.ante ? [entry.ante] : [])]);
  }
  return `${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
}

/** The cells of a line a refusal names (`plan.csv.cell.*`): `line 2, big blind`. */
type CellName = 'chip' | 'startingStack' | 'amount' | 'lastLevel' | 'minutes' | 'smallBlind' | 'bigBlind' | 'ante';

/**
 * Reads a whole number from a cell. The refusal's field names the line and cell in English
 * (`line 2, big blind`, as the tools match it); its message says them again in the dealer's language,
 * since the screen shows the message, not the field.
 */
function number(cell: string | undefined, line: number, name: CellName, column?: number): number {
  const text = (cell ?? '').trim();
  if (!/^\d+$/.test(text)) {
    const at: Message = { key: `plan.csv.cell.${name}`, params: { line, ...(column === undefined ? {} : { n: column }) } };
    throw new InputError(englishText(at), { key: 'plan.csv.notWhole', params: { at: { message: at }, text } });
  }
  return Number(text);
}

/** A sheet line's cells, trimmed: `,` `;` or a tab between them (spreadsheet exports in any locale). */
export function sheetCells(row: string): string[] {
  return row.split(/[,;\t]/).map((cell) => cell.trim());
}

/** Reads the sheet above; the planner then validates what it means. Refuses a malformed line, naming it. */
export function structureFromCsv(text: string): StructureInput {
  let chips: number[] | undefined;
  let startingStack: number | undefined;
  let rebuys: { amount: number; untilLevel: number } | undefined;
  const levels: Array<{ sb: number; bb: number; ante?: number; minutes?: number } | { break: number }> = [];
  text.split(/\r\n|\r|\n/).forEach((row, index) => {
    const cells = sheetCells(row);
    const kind = (cells[0] ?? '').toLowerCase();
    const line = index + 1;
    if (cells.every((cell) => cell === '')) return;
    if (kind === 'chips') chips = cells.slice(1).filter((cell) => cell !== '').map((cell, column) => number(cell, line, 'chip', column + 1));
    else if (kind === 'starting stack') startingStack = number(cells[1], line, 'startingStack');
    else if (kind === 'rebuys') rebuys = { amount: number(cells[1], line, 'amount'), untilLevel: number(cells[2], line, 'lastLevel') };
    else if (kind === 'break') levels.push({ break: number(cells[1], line, 'minutes') });
    else if (kind === 'level') {
      const ante = cells[3] === undefined || cells[3] === '' ? undefined : number(cells[3], line, 'ante');
      const minutes = cells[4] === undefined || cells[4] === '' ? undefined : number(cells[4], line, 'minutes');
      levels.push({ sb: number(cells[1], line, 'smallBlind'), bb: number(cells[2], line, 'bigBlind'), ...(ante === undefined ? {} : { ante }), ...(minutes === undefined ? {} : { minutes }) });
    } else throw new InputError(`line ${line}`, { key: 'plan.csv.unknownLine', params: { line, start: cells[0] ?? '' } });
  });
  if (chips === undefined) throw new InputError('chips', { key: 'plan.csv.noChips' });
  return { chips, levels, ...(startingStack === undefined ? {} : { startingStack }), ...(rebuys === undefined ? {} : { rebuys }) };
}
