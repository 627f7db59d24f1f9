import { shallowRef, toRaw, watch } from 'vue';
import type { GameView } from '../../protocol/contract';
import type { Card } from '../../engine/cards';
import type { ConsoleStore } from '../stores/console';
import { playTone, type Tone } from './sound';

/**
 * Every read is seen and heard: a card taken (from the scanner, the shoe, the keyboard or the grid)
 * flashes where it appears and plays the accepted tone; a card refused plays the refused tone.
 */

/** How long the card just dealt stays highlighted (the CSS animation runs as long). */
export const FLASH_MS = 900;

/** The card just dealt: in a race by its place in the order dealt (decks may repeat a card), in a game by the card. */
export type Flash = { readonly kind: 'race'; readonly index: number } | { readonly kind: 'game'; readonly card: Card };

const flash = shallowRef<Flash | null>(null);

/** The card to highlight now, if any (read by the seat cards and the points game's hands and tricks). */
export function useFlash() {
  return flash;
}

function gameCards(game: GameView | null): { id: string | null; hands: readonly Card[]; tricks: readonly Card[] } {
  if (game === null) return { id: null, hands: [], tricks: [] };
  return {
    id: `${game.id}/${game.dealNumber}`,
    hands: game.hands.flatMap((hand) => hand.cards),
    tricks: game.tricks.flatMap((trick) => trick.cards.map((played) => played.card)),
  };
}

/** Watches the store for cards taken and refused; returns the function that stops it. */
export function installReadFeedback(store: ConsoleStore, play: (tone: Tone) => unknown = playTone): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;

  function show(next: Flash): void {
    if (timer !== null) clearTimeout(timer);
    flash.value = next;
    timer = setTimeout(() => {
      timer = null;
      flash.value = null;
    }, FLASH_MS);
  }

  const stops = [
    watch(
      () => ({ id: store.race?.id ?? null, count: store.race?.summary.cards.length ?? 0 }),
      (now, before) => {
        if (now.id === null || now.id !== before.id || now.count <= before.count) return;
        show({ kind: 'race', index: now.count - 1 });
        play('accepted');
      },
    ),
    watch(
      () => gameCards(store.game),
      (now, before) => {
        if (now.id === null || now.id !== before.id) return;
        // A card played moves from a hand to the trick; a card dealt or drawn joins a hand.
        const played = now.tricks.filter((card) => !before.tricks.includes(card));
        const dealt = now.hands.filter((card) => !before.hands.includes(card) && !before.tricks.includes(card));
        const card = played.at(-1) ?? (now.hands.length + now.tricks.length > before.hands.length + before.tricks.length ? dealt.at(-1) : undefined);
        if (card === undefined) return;
        show({ kind: 'game', card });
        play('accepted');
      },
    ),
    watch(
      () => (store.errors.dealCard == null ? null : toRaw(store.errors.dealCard)),
      (error, previous) => {
        if (error !== null && error !== previous) play('refused');
      },
    ),
  ];

  return () => {
    for (const stop of stops) stop();
    if (timer !== null) clearTimeout(timer);
    timer = null;
    flash.value = null;
  };
}
