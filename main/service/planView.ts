import { planColorUps, proposeColorUp } from '../../engine/plan/planner';
import type { PlanView, TournamentSettings } from '../../protocol/contract';

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
