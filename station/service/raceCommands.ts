import { hostname } from 'node:os';
import { InputError, isInputError } from '../../engine/errors';
import { nextStep } from '../../engine/race/next';
import { startRace, type RaceEvent } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import { colorUpStepOf } from '../../protocol/colorUp';
import { REASON_MAX } from '../../protocol/constants';
import { settingChoicesOf, type CommandResult, type InputSource, type SeatCount, type SeatCountDraft } from '../../protocol/contract';
import type { HeldTaken } from './cardInputs';
import type { CountDrafts } from './countDrafts';
import { STATION_MAX, type ActiveRace } from '../../replay/session';
import { stillOpen, type CommandContext } from './commandContext';
import { failure, ok, refused } from './failures';
import { racedOffRefusal } from './racedOff';
import { refusalFor } from './refusalRuns';

/**
 * The race commands: a race previewed, started (claimed for the colour-up it runs), its cards and
 * voids applied (a card the engine refuses kept on record as refused), confirmed or abandoned.
 */
export class RaceCommands {
  /** `drafts`: the counts being typed for the next race, which an abandoned race's counts become. */
  constructor(
    private readonly ctx: CommandContext,
    private readonly drafts: CountDrafts,
  ) {}

  /** The counts being typed for the table's next race (station/service/countDrafts.ts): refused while a race is open. */
  saveCountDrafts(counts: readonly SeatCountDraft[]): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const session = this.ctx.session();
      const open = session.race;
      if (open) return refused('race', { key: 'service.draftsRaceOpen', params: { race: open.id } });
      if (await this.drafts.save(counts, `race-${session.racesStarted + 1}`, this.ctx.settings().table)) this.ctx.kernel.publish();
      return ok(null);
    });
  }

  private raceInput(counts: readonly SeatCount[]) {
    const { table } = this.ctx.settings();
    const names = Object.fromEntries(table.seats.map((seat) => [seat.seat, seat.name]));
    // The counts screen lists the table's seats; a count for any other seat is a stale or forged call.
    counts.forEach((count, index) => {
      if (!(count.seat in names)) throw new InputError(`counts[${index}].seat`, { key: 'service.seatNotAtTable', params: { seat: count.seat, seats: table.seats.map((seat) => seat.seat).join(', ') } });
    });
    return {
      names,
      race: {
        rules: table.rules,
        // The race settings the table (or the floor's house) chooses over the rule set's: on the race-start record, so it replays as run.
        ...settingChoicesOf(table),
        removed: table.removed,
        next: table.next,
        button: table.button,
        decks: table.decks,
        // Only whether a player has other chips matters to the race (a broke player is protected).
        seats: counts.map((count) => ({ seat: count.seat, name: names[count.seat] ?? '', chips: count.chips, other: count.hasOther ? table.next : 0 })),
      },
    };
  }

  /**
   * A race starting with the chips of a race of the proposed colour-up not yet run: journaled as
   * that race's. The level the colour-up's break follows, when it is one; null otherwise.
   */
  private async claimColorUpRace(raceId: string, removed: number, next: number): Promise<number | null> {
    const proposal = this.ctx.plan()?.proposal ?? null;
    if (proposal === null) return null;
    const step = colorUpStepOf(proposal, this.ctx.kernel.followers.colorUps.doneChips(proposal.afterLevel), removed, next);
    if (step === null) return null;
    await this.ctx.kernel.save({ kind: 'color-up-race', race: raceId, afterLevel: proposal.afterLevel, removed, next });
    return proposal.afterLevel;
  }

  /** The station kept with each race: the one given, or the host name (cut to what a record takes). */
  private station(): string {
    return (this.ctx.station ?? hostname()).slice(0, STATION_MAX);
  }

  previewRace(counts: readonly SeatCount[]): Promise<CommandResult<ReturnType<typeof raceSummary>>> {
    return this.ctx.kernel.serial(async () => ok(raceSummary(startRace(this.raceInput(counts).race))));
  }

  startRace(counts: readonly SeatCount[]): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const busy = stillOpen(this.ctx.session()) ?? this.ctx.readerSetUp();
      if (busy !== null) return busy;
      const { race, names } = this.raceInput(counts);
      startRace(race); // refuses bad counts before anything is journaled
      // A second race of chips already raced off at this break (a recount after "Colour-up done").
      const racedOff = racedOffRefusal(this.ctx.settings(), this.ctx.kernel.followers.colorUps, race.removed);
      if (racedOff !== null) return racedOff;
      const raceId = `race-${this.ctx.session().racesStarted + 1}`;
      const level = await this.claimColorUpRace(raceId, race.removed, race.next);
      const { name: table } = this.ctx.settings().table;
      const station = this.station();
      await this.ctx.commit({ kind: 'race-start', raceId, race, counts, names, ...(table ? { table } : {}), ...(station ? { station } : {}), ...(level !== null ? { level } : {}) });
      return ok(null);
    });
  }

  /**
   * The open race a command names, or why not: a screen that shows an older race (a stale tab, a
   * second window) must not act on the one open now.
   */
  private openRace(raceId: string, none: 'service.noRace' | 'service.noRaceStart'): { race: ActiveRace } | { refusal: CommandResult<never> } {
    const race = this.ctx.session().race;
    if (!race) return { refusal: refused('race', { key: none }) };
    if (race.id !== raceId) return { refusal: refused('race', { key: 'service.notOpenRace', params: { given: raceId, open: race.id } }) };
    return { race };
  }

  /** `held`: taken by the dealer after it was held (`readAt`: read at that seat's antenna, not the one dealt to). */
  async applyToRace(race: ActiveRace, event: RaceEvent, input: string, source: InputSource, held: HeldTaken = false): Promise<CommandResult> {
    try {
      await this.ctx.commit({ kind: 'race-event', raceId: race.id, event, source, ...(held === false ? {} : { held: true as const, ...(held === true ? {} : { readAt: held.readAt }) }) });
    } catch (error) {
      if (!isInputError(error)) throw error;
      await this.ctx.refusals.refuse(refusalFor({ raceId: race.id }, input, error.reason, source, error.said));
      return failure(error);
    }
    return ok(null);
  }

  voidCards(raceId: string, count: number, reason: string): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const open = this.openRace(raceId, 'service.noRaceStart');
      return 'refusal' in open ? open.refusal : this.applyToRace(open.race, { type: 'void', count, reason }, `void ${count}`, 'manual');
    });
  }

  confirmRace(raceId: string): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const open = this.openRace(raceId, 'service.noRace');
      if ('refusal' in open) return open.refusal;
      const { race } = open;
      if (race.state.progress.status !== 'complete') return refused('race', { key: 'service.notComplete', params: { race: race.id, next: { message: nextStep(race.state) } } });
      const { dealer } = this.ctx.settings().table;
      await this.ctx.refuseHeldFor(race.id, 'race');
      await this.ctx.commit({ kind: 'race-confirm', raceId: race.id, ...(dealer ? { by: dealer } : {}) });
      return ok(null);
    });
  }

  /** The race ended without a result, with why (required: the command's schema refuses a blank one, and so does this for a direct call). */
  abandonRace(raceId: string, reason: string): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const open = this.openRace(raceId, 'service.noRace');
      if ('refusal' in open) return open.refusal;
      const why = reason.trim();
      if (why === '') return refused('reason', { key: 'command.abandonReason' });
      await this.abandon(raceId, why);
      return ok(null);
    });
  }

  /**
   * The open race abandoned: its held cards refused first, then the record (in the command queue);
   * then its counts are the drafts of the re-race (kept across a restart as any drafts are), so
   * the dealer corrects the wrong one rather than typing every count again.
   */
  private async abandon(raceId: string, reason: string): Promise<void> {
    const counts = this.ctx.session().race?.counts ?? [];
    await this.ctx.refuseHeldFor(raceId, 'race');
    await this.ctx.commit({ kind: 'race-abandon', raceId, reason });
    if (await this.drafts.restore(counts, `race-${this.ctx.session().racesStarted + 1}`, this.ctx.settings().table)) this.ctx.kernel.publish();
  }

  /**
   * The open race abandoned when the director closed it on the floor (a `race-closed` decision
   * naming it, journaled by the floor link after the race started: a table broken mid-colour-up),
   * the director's note its reason (cut to what a reason holds; the decision keeps it whole). Once
   * abandoned it is open no more, so a decision read again, or a restart, abandons nothing twice; a
   * race the floor did not close, or none open, is left alone (the decision is kept and shown all
   * the same). Runs in the command queue, after the decisions are journaled; returns whether it
   * abandoned one.
   */
  async abandonClosedOnFloor(): Promise<boolean> {
    const race = this.ctx.session().race;
    const closing = race === null ? null : this.ctx.kernel.followers.floorDecisions.closing(race.id, race.firstSeq);
    if (race === null || closing === null) return false;
    await this.abandon(race.id, closing.note.slice(0, REASON_MAX).trim());
    return true;
  }
}
