/**
 * The colour-up rules the service and the screens' fakes share: which race of the proposed
 * colour-up a race with these chips runs, and the table's setting when the structure's chips
 * become its chip set. Pure: plain data in and out.
 */
import type { ColorUpProposal, RaceStep } from '../engine/plan/planner';
import type { TableSettings } from './contract';
import { isMultipleOf } from '../engine/chips';
import type { Message } from '../engine/messages';

/** An ISO time as the station's clock on the wall shows it: `14:05` (the station's time zone, as on the dealer's screen beside it). */
export function wallClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/**
 * Why a race of `removed` is refused at the break after `level`: race `raceId`, confirmed at
 * `confirmedAt` (ISO), already raced those chips off there.
 */
export function racedOffSaid(removed: number, level: number, raceId: string, confirmedAt: string): Message {
  return { key: 'service.colorUp.racedOff', params: { removed, level, race: raceId, time: wallClock(confirmedAt) } };
}

/**
 * The race of `proposal` that a race of `removed` → `next` runs: the step with those chips not
 * yet `done` (the chips already raced off); null when it runs none.
 */
export function colorUpStepOf(proposal: ColorUpProposal | null, done: readonly number[], removed: number, next: number): RaceStep | null {
  if (proposal === null || done.includes(removed)) return null;
  return proposal.races.find((step) => step.removed === removed && step.next === next) ?? null;
}

/**
 * The table's setting with the structure's chips: the chip leaving and the next one kept when they
 * still fit, otherwise the smallest chip and the next one up that is a whole multiple of it.
 */
export function tableWithChips(table: TableSettings, chips: readonly number[]): TableSettings {
  const fits = (removed: number, next: number) => chips.includes(removed) && chips.includes(next) && next > removed && isMultipleOf(next, removed);
  if (fits(table.removed, table.next)) return { ...table, chipSet: [...chips] };
  for (const removed of chips) {
    const next = chips.find((chip) => chip > removed);
    if (next !== undefined && fits(removed, next)) return { ...table, chipSet: [...chips], removed, next };
  }
  return { ...table, chipSet: [...chips] };
}
