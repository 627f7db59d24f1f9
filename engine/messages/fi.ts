import type { EngineCatalog } from './en';

/** What the engine says, in Finnish (the keys of en.ts). */
export const fi: EngineCatalog = {
  common: {
    seat: 'Paikka {seat}',
    seatNamed: 'Paikka {seat} — {name}',
    seatInText: 'paikka {seat}',
    seatNamedInText: 'paikka {seat} — {name}',
    and: '{list} ja {last}',
    nobody: 'Ei kukaan',
  },
  race: {
    refused: {
      duplicate: '{card} on jo jaettu ({seats}), ja kengässä on yksi pakka: väärin luettu tai väärin jaettu kortti; tarkista kortti',
      duplicateDecks: '{card} on jo jaettu {copies} kertaa ({seats}), ja kengässä on vain {decks} pakkaa',
    },
  },
};
