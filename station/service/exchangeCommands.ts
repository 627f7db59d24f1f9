import { readChipExchange, type ChipExchange } from '../../engine/race/exchange';
import type { CommandResult } from '../../protocol/contract';
import { chipExchangeRecord } from '../../replay/chipExchange';
import { summaryFiguresOf } from '../../replay/session';
import type { CommandContext } from './commandContext';
import { ok, refused } from './failures';

/**
 * Chips exchanged at equal value outside a race (engine/race/exchange.ts), journaled as a
 * `chip-exchange` record: late-found chips (TDA 24C) against a race this station confirmed, at
 * that race's chips; a colour-up of one or more players' chips (TDA 25B), with its reason, when no
 * race is being dealt. It changes no race: the station lists it, the floor adds it to the table's
 * chips (replay/tableFold.ts).
 */
export class ExchangeCommands {
  constructor(private readonly ctx: CommandContext) {}

  /** Why late-found chips cannot be recorded against their race: not a race confirmed here, or not its chips. Null when they can. */
  private lateFoundRefusal(exchange: ChipExchange): CommandResult<never> | null {
    const race = exchange.raceId as string;
    const session = this.ctx.session();
    if (session.race?.id === race) return refused('raceId', { key: 'service.exchange.raceOpen', params: { race } });
    const entry = session.history.find((confirmed) => confirmed.id === race);
    if (entry === undefined) return refused('raceId', { key: 'service.exchange.notConfirmed', params: { race } });
    // The race's own chips (its numbers only: a summary not made yet is not kept for this).
    const { removed, next } = summaryFiguresOf(entry);
    if (exchange.removed !== removed || exchange.next !== next) {
      return refused(exchange.removed !== removed ? 'removed' : 'next', { key: 'service.exchange.otherChips', params: { race, raceRemoved: removed, raceNext: next, removed: exchange.removed, next: exchange.next } });
    }
    return null;
  }

  recordChipExchange(exchange: ChipExchange): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      // Read again for a direct call (the command table's check has read one from a screen): refused in the same words.
      const read = readChipExchange(exchange);
      const open = this.ctx.session().race;
      const refusal = read.reason === 'late-found' ? this.lateFoundRefusal(read) : open === null ? null : refused('reason', { key: 'service.exchange.raceDealing', params: { race: open.id } });
      if (refusal !== null) return refusal;
      await this.ctx.commit(chipExchangeRecord(read));
      return ok(null);
    });
  }
}
