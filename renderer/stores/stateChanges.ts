import type { ConsoleState, ShoeRefusal } from '../../protocol/contract';

// What changed from one pushed state to the next, as the store reacts to it.

/** The open race's or game's id and how many cards it holds (a race's dealt cards; a game's hands and tricks). */
export function cardsTaken(state: ConsoleState | null): { id: string | null; cards: number } {
  if (state?.race) return { id: state.race.id, cards: state.race.summary.cards.length };
  if (state?.game) {
    const { game } = state;
    const cards = game.hands.reduce((sum, hand) => sum + hand.cards.length, 0) + game.tricks.reduce((sum, trick) => sum + trick.cards.length, 0);
    return { id: `${game.id}/${game.dealNumber}`, cards };
  }
  return { id: null, cards: 0 };
}

/**
 * Whether this state ends the deck registration of the one before by storing its profile: the
 * registration gone and its name now the card source's profile (its last tag read, or a profile of
 * that name newly chosen), not stopped.
 */
export function deckRegistered(next: ConsoleState, previous: ConsoleState | null): string | null {
  const registration = previous?.registration ?? null;
  if (registration === null || next.registration !== null) return null;
  if (next.settings.source.decoder !== registration.name) return null;
  const chosenNow = previous?.settings.source.decoder !== registration.name;
  return chosenNow || registration.registered >= registration.total - 1 ? registration.name : null;
}

export function sameRefusal(a: ShoeRefusal, b: ShoeRefusal | null): boolean {
  return b !== null && a.card === b.card && a.field === b.field && a.message === b.message;
}
