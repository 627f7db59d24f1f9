import type { EngineCatalog } from './en';

/** What the engine says, in Russian (the keys of en.ts; plurals `one | few | many`). */
export const ru: EngineCatalog = {
  common: {
    seat: 'Место {seat}',
    seatNamed: 'Место {seat} — {name}',
    seatInText: 'место {seat}',
    seatNamedInText: 'место {seat} — {name}',
    and: '{list} и {last}',
    nobody: 'Никто',
  },
  race: {
    refused: {
      duplicate: '{card} уже роздана ({seats}), а в шузе одна колода: ошибка чтения или раздачи; проверьте карту',
      duplicateDecks: '{card} уже роздана столько раз: {copies} ({seats}), а в шузе колод только {decks}',
    },
  },
};
