/**
 * The views the service pushes in every state, built from the engine's own values: the race
 * under way and the colour-up plan. Pure functions, here so that the service and the screens'
 * test fixtures build them alike (a fixture's race looks exactly like one the service pushes).
 */
import { planColorUps, proposeColorUp } from '../engine/plan/planner';
import type { RaceState } from '../engine/race/race';
import { raceSummary, type RaceSummary } from '../engine/race/summary';
import { whatOtherRulesSay } from '../engine/race/whatIf';
import type { PlanView, RaceView, SeatCount, TournamentSettings } from './contract';

/** What a race view is made of: the race as the session holds it (replay/session.ts's ActiveRace). */
export interface RaceViewSource {
  readonly id: string;
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly state: RaceState;
}

/**
 * The engine's summary as a race view carries it: the explanation once the race is complete, when
 * the result screen shows it. Saying it after every card of the deal, which no screen shows, was
 * half of the service's own work per card.
 */
export function raceViewSummary(state: RaceState): RaceSummary {
  return raceSummary(state, { explain: state.progress.status === 'complete' });
}

/** The race as the screens show it: its counts and names, the engine's summary, and how many cards were voided. */
export function raceView(race: RaceViewSource): RaceView {
  return {
    id: race.id,
    startedAt: race.startedAt,
    counts: race.counts,
    names: race.names,
    summary: raceViewSummary(race.state),
    corrections: race.state.corrections.length,
    // "What would the other rules say?" for the result screen: complete races only (null before).
    whatIf: whatOtherRulesSay(race.state),
  };
}

/** The saved structure's plan, and the colour-up proposed at the break the tournament is on. */
export function planView(tournament: TournamentSettings | undefined): PlanView | null {
  if (!tournament?.structure) return null;
  // Saved settings were validated, so the structure plans without refusal.
  const plan = planColorUps(tournament.structure);
  return {
    colorUps: plan.colorUps,
    moments: plan.moments,
    needs: plan.needs,
    warnings: plan.warnings,
    proposal: tournament.atBreakAfter === null ? null : proposeColorUp(plan, tournament.atBreakAfter),
  };
}

/**
 * Each seat that won race chips, once, with how many, in the order they were won: a seat is listed
 * once a chip in `awards`, twice when it took two (high card takes all, issue 25).
 */
export function chipsWonBySeat(awards: readonly number[]): { readonly seat: number; readonly chips: number }[] {
  const won = new Map<number, number>();
  for (const seat of awards) won.set(seat, (won.get(seat) ?? 0) + 1);
  return [...won].map(([seat, chips]) => ({ seat, chips }));
}
