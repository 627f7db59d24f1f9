/**
 * The tournament structure as the Structure screen edits it: rows of levels and breaks with blank
 * fields allowed while typing, turned into the planner's `StructureInput` for the service (which
 * validates it and plans the colour-ups: no rule is decided here). Also the small helpers of the
 * colour-up proposal: which race of it comes next, and the table setting that starts it.
 */
import { InputError } from '../../engine/errors';
import { colorUpMoments, type MomentSource } from '../../engine/plan/structure';
import { isRecord, valueParam } from '../../engine/validate';
import type { StructureInput } from '../../engine/plan/csv';
import type { ColorUpProposal, RaceStep } from '../../engine/plan/planner';
import type { RaceView } from '../../protocol/contract';

/** A number typed into a field, or '' while the field is blank. */
export type Amount = number | '';

export interface LevelRow {
  readonly id: number;
  readonly kind: 'level';
  sb: Amount;
  bb: Amount;
  ante: Amount;
  /** How long the level is played, for the tournament clock; blank: not timed. */
  minutes: Amount;
  /** The floor's choice of chips leaving after this level (structures without breaks); null: the plan's. */
  override: number[] | null;
}

export interface BreakRow {
  readonly id: number;
  readonly kind: 'break';
  minutes: Amount;
  /** The floor's choice of chips leaving at this break; null: the plan's. */
  override: number[] | null;
}

export type StructureRow = LevelRow | BreakRow;

export interface StructureDraft {
  chips: number[];
  rows: StructureRow[];
  startingStack: Amount;
  rebuyAmount: Amount;
  rebuyUntil: Amount;
  /** Overrides no row can hold (no such level): kept, shown, and sent, so the service names them. */
  orphans: Record<string, number[]>;
}

let rowIds = 0;

function nextId(): number {
  rowIds += 1;
  return rowIds;
}

export function newLevel(sb: Amount = '', bb: Amount = '', ante: Amount = '', minutes: Amount = ''): LevelRow {
  return { id: nextId(), kind: 'level', sb, bb, ante, minutes, override: null };
}

export function newBreak(minutes: Amount = ''): BreakRow {
  return { id: nextId(), kind: 'break', minutes, override: null };
}

/** A number from a field or a file, else '' (blank, or not a number). */
export function amountOf(value: unknown): Amount {
  return typeof value === 'number' && Number.isFinite(value) ? value : '';
}

/**
 * The level a row is, or follows: a level's own number (playing levels counted from 1), a break's
 * level before it (0 for a break before any level).
 */
export function levelAt(rows: readonly StructureRow[], index: number): number {
  return rows.slice(0, index + 1).filter((row) => row.kind === 'level').length;
}

export function hasBreaks(rows: readonly StructureRow[]): boolean {
  return rows.some((row) => row.kind === 'break');
}

/** The draft's levels and breaks as the planner's colorUpMoments reads them. */
function momentSource(rows: readonly StructureRow[]): MomentSource {
  return {
    levels: rows.filter((row) => row.kind === 'level').map((_row, index) => ({ level: index + 1 })),
    breaks: rows.flatMap((row, index) => (row.kind === 'break' ? [{ afterLevel: levelAt(rows, index) }] : [])),
  };
}

/** The levels after which a colour-up can happen in this draft: the planner's own answer (colorUpMoments). */
export function momentsOf(rows: readonly StructureRow[]): number[] {
  return colorUpMoments(momentSource(rows));
}

/**
 * Whether this row stands for a colour-up moment (the planner's, see momentsOf): the first break
 * after its level when the draft has breaks, otherwise the level itself.
 */
export function isMoment(rows: readonly StructureRow[], index: number): boolean {
  const row = rows[index];
  if (row === undefined) return false;
  const after = levelAt(rows, index);
  if (!momentsOf(rows).includes(after)) return false;
  const kind = hasBreaks(rows) ? 'break' : 'level';
  return rows.findIndex((other, at) => other.kind === kind && levelAt(rows, at) === after) === index;
}

function chipList(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((chip): chip is number => typeof chip === 'number') : [];
}

/** The editable form of a structure (or of none: no levels yet, the table's chips). */
export function draftFromStructure(structure: StructureInput | null, tableChips: readonly number[]): StructureDraft {
  const rows: StructureRow[] = (structure?.levels ?? []).map((entry) =>
    'break' in entry ? newBreak(amountOf(entry.break)) : newLevel(amountOf(entry.sb), amountOf(entry.bb), amountOf(entry.ante), amountOf(entry.minutes)),
  );
  const orphans: Record<string, number[]> = {};
  for (const [key, list] of Object.entries(structure?.overrides ?? {})) {
    const level = Number(key);
    let index = rows.findIndex((_row, at) => isMoment(rows, at) && levelAt(rows, at) === level);
    if (index < 0) index = rows.findIndex((row, at) => row.kind === 'level' && levelAt(rows, at) === level);
    const row = rows[index];
    if (row !== undefined && row.override === null) row.override = chipList(list);
    else orphans[key] = chipList(list);
  }
  return {
    chips: [...(structure?.chips ?? tableChips)],
    rows,
    startingStack: amountOf(structure?.startingStack),
    rebuyAmount: amountOf(structure?.rebuys?.amount),
    rebuyUntil: amountOf(structure?.rebuys?.untilLevel),
    orphans,
  };
}

/**
 * The draft as the planner reads it. A blank blind is left out (the service then names it as
 * missing), a blank break is 0 minutes (refused as too short), a blank ante is no ante.
 */
export function structureFromDraft(draft: StructureDraft): StructureInput {
  const levels = draft.rows.map((row) => {
    if (row.kind === 'break') return { break: row.minutes === '' ? 0 : row.minutes };
    return {
      ...(row.sb === '' ? {} : { sb: row.sb }),
      ...(row.bb === '' ? {} : { bb: row.bb }),
      ...(row.ante === '' ? {} : { ante: row.ante }),
      ...(row.minutes === '' ? {} : { minutes: row.minutes }),
    };
  });
  const overrides: Record<string, number[]> = {};
  draft.rows.forEach((row, index) => {
    const key = String(levelAt(draft.rows, index));
    if (row.override !== null && overrides[key] === undefined) overrides[key] = [...row.override].sort((a, b) => a - b);
  });
  for (const [key, list] of Object.entries(draft.orphans)) if (overrides[key] === undefined) overrides[key] = [...list];
  const rebuys = draft.rebuyAmount === '' && draft.rebuyUntil === '' ? undefined : {
    ...(draft.rebuyAmount === '' ? {} : { amount: draft.rebuyAmount }),
    ...(draft.rebuyUntil === '' ? {} : { untilLevel: draft.rebuyUntil }),
  };
  return {
    chips: [...draft.chips],
    levels,
    ...(draft.startingStack === '' ? {} : { startingStack: draft.startingStack }),
    ...(rebuys === undefined ? {} : { rebuys }),
    ...(Object.keys(overrides).length === 0 ? {} : { overrides }),
  } as StructureInput;
}

/** Where a refused field is on the screen. */
export type FieldTarget =
  | { readonly kind: 'row'; readonly index: number; readonly part: 'sb' | 'bb' | 'ante' | 'minutes' | 'break' | null }
  | { readonly kind: 'levels' }
  | { readonly kind: 'chips' }
  | { readonly kind: 'startingStack' }
  | { readonly kind: 'rebuys'; readonly part: 'amount' | 'untilLevel' | null }
  | { readonly kind: 'override'; readonly afterLevel: number }
  | { readonly kind: 'atBreakAfter' }
  | { readonly kind: 'table' }
  | { readonly kind: 'other' };

/** Reads a refused field (`tournament.structure.levels[3].sb`, `levels[3].sb`, `overrides.4[0]` …). */
export function fieldTarget(field: string): FieldTarget {
  if (field === 'tournament.atBreakAfter') return { kind: 'atBreakAfter' };
  if (field.startsWith('table.')) return { kind: 'table' };
  const path = field.replace(/^tournament\.structure\./, '');
  const row = /^levels\[(\d+)\](?:\.(sb|bb|ante|minutes|break))?/.exec(path);
  if (row) return { kind: 'row', index: Number(row[1]), part: (row[2] as 'sb' | 'bb' | 'ante' | 'minutes' | 'break' | undefined) ?? null };
  if (path === 'levels') return { kind: 'levels' };
  if (/^chips\b/.test(path)) return { kind: 'chips' };
  if (path === 'startingStack') return { kind: 'startingStack' };
  const rebuys = /^rebuys(?:\.(amount|untilLevel))?$/.exec(path);
  if (rebuys) return { kind: 'rebuys', part: (rebuys[1] as 'amount' | 'untilLevel' | undefined) ?? null };
  const override = /^overrides\.(\d+)/.exec(path);
  if (override) return { kind: 'override', afterLevel: Number(override[1]) };
  return { kind: 'other' };
}

export type StepState = 'done' | 'running' | 'next' | 'waiting';

export interface StepView extends RaceStep {
  readonly index: number;
  readonly state: StepState;
}

/**
 * The races of the proposed colour-up (smallest chip first) and where each stands: the open race
 * if it is one of them, the ones confirmed (by the chip that left), and the next one to start.
 */
export function colorUpSteps(proposal: ColorUpProposal, race: RaceView | null, done: readonly number[]): StepView[] {
  let offered = race !== null;
  return proposal.races.map((step, index) => {
    let state: StepState = 'waiting';
    if (race !== null && race.summary.removed === step.removed && race.summary.next === step.next) state = 'running';
    else if (done.includes(step.removed)) state = 'done';
    else if (!offered) {
      state = 'next';
      offered = true;
    }
    return { ...step, index, state };
  });
}

function numberOrAbsent(value: unknown, field: string): void {
  if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new InputError(field, { key: 'plan.file.notNumber', params: { got: valueParam(value) } });
  }
}

/**
 * A structure read from a JSON file, checked only for the shape the form can hold (numbers where
 * numbers go); the planner judges the rest when it is saved.
 */
export function structureFromJson(text: string): StructureInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's own words are the browser's English: the dealer is told what the file is not.
    throw new InputError('file', { key: 'plan.file.notJson' });
  }
  if (!isRecord(value)) throw new InputError('structure', { key: 'plan.notObject', params: { got: valueParam(value) } });
  if (!Array.isArray(value.chips)) throw new InputError('chips', { key: 'plan.chips.notList', params: { got: valueParam(value.chips) } });
  value.chips.forEach((chip, index) => numberOrAbsent(chip ?? 'null', `chips[${index}]`));
  if (!Array.isArray(value.levels)) {
    throw new InputError('levels', { key: 'plan.levels.notList', params: { example: '[{"sb": 25, "bb": 50}, {"break": 15}]', got: valueParam(value.levels) } });
  }
  value.levels.forEach((entry, index) => {
    if (!isRecord(entry)) throw new InputError(`levels[${index}]`, { key: 'plan.levels.notEntry', params: { level: '{"sb": 25, "bb": 50}', break: '{"break": 15}', got: valueParam(entry) } });
    for (const key of ['sb', 'bb', 'ante', 'minutes', 'break']) numberOrAbsent(entry[key], `levels[${index}].${key}`);
  });
  numberOrAbsent(value.startingStack, 'startingStack');
  if (value.rebuys !== undefined && value.rebuys !== null) {
    if (!isRecord(value.rebuys)) throw new InputError('rebuys', { key: 'plan.rebuys.notObject', params: { example: '{"amount": 10000, "untilLevel": 4}', got: valueParam(value.rebuys) } });
    numberOrAbsent(value.rebuys.amount, 'rebuys.amount');
    numberOrAbsent(value.rebuys.untilLevel, 'rebuys.untilLevel');
  }
  if (value.overrides !== undefined && value.overrides !== null) {
    if (!isRecord(value.overrides)) throw new InputError('overrides', { key: 'plan.overrides.notObject', params: { example: '{"4": [25]}', got: valueParam(value.overrides) } });
    for (const [key, list] of Object.entries(value.overrides)) {
      if (!Array.isArray(list)) throw new InputError(`overrides.${key}`, { key: 'plan.file.notChipList', params: { got: valueParam(list) } });
      list.forEach((chip, index) => numberOrAbsent(chip ?? 'null', `overrides.${key}[${index}]`));
    }
  }
  return value as unknown as StructureInput;
}
