import type { Catalog } from './message';

/**
 * What the engine says, in English: the command line prints these, and the screens show them in
 * English. Keys are stable (see message.ts); fi.ts and ru.ts have every key of this one (a test says so).
 */
export const en = {
  common: {
    seat: 'Seat {seat}',
    seatNamed: 'Seat {seat} — {name}',
    seatInText: 'seat {seat}',
    seatNamedInText: 'seat {seat} — {name}',
    and: '{list} and {last}',
    nobody: 'Nobody',
  },
  race: {
    refused: {
      duplicate: '{card} was already dealt (to {seats}) and the shoe holds one deck: a misread or misdeal; check the card',
      duplicateDecks: '{card} was already dealt {copies} times (to {seats}) and the shoe holds only {decks} decks',
    },
  },
  value: {
    nothing: 'nothing',
    notNumber: '{what} must be a number (got {got})',
    notWhole: '{what} must be a whole number (got {got})',
    tooSmall: '{what} must be at least {min} (got {got})',
    tooLarge: '{what} is too large (got {got})',
    missing: 'missing: {what}',
  },
  cards: {
    notText: 'a card code must be text such as "As" or "10h" (got {got})',
    notACard: '"{text}" is not a card; write rank then suit, e.g. "As", "10h", "Td", "K♠"',
  },
  plan: {
    and: '{list} and {last}',
    part: { structure: 'a structure', level: 'a level', break: 'a break', rebuy: 'a rebuy' },
    unknownKey: '"{key}" is not part of {part}, which has {allowed} only',
    what: {
      chip: 'a chip value',
      smallBlind: "level {level}'s small blind",
      bigBlind: "level {level}'s big blind",
      ante: "level {level}'s ante",
      breakMinutes: "the break's length in minutes",
      startingStack: 'the starting stack',
      rebuyAmount: 'the rebuy amount',
      rebuyUntil: 'the last rebuy level',
    },
    missing: {
      chips: 'the chip values in play, e.g. [25, 100, 500]',
      levels: 'the levels and breaks, in playing order',
      rebuyAmount: 'the chips a rebuy or add-on gives',
      rebuyUntil: 'the last level a rebuy or add-on is offered',
    },
    notPayable: '{what} {amount} is not a multiple of any chip ({chips}), so it cannot be paid',
    notObject: 'a structure must be a JSON object with "chips" and "levels" (got {got})',
    chips: {
      notList: 'must be a list of the chip values in play, ascending, e.g. [25, 100, 500] (got {got})',
      none: 'at least one chip is needed',
      tooMany: 'at most {max} chips (got {n})',
      twice: '{chip} appears twice (also {first})',
      order: '{chip} comes after {before}; list the chips in ascending order',
    },
    level: {
      noBlinds: 'level {level} has no blinds; a level needs "sb" and "bb", e.g. {example} (a break is {breakExample})',
      bigBelowSmall: "level {level}'s big blind {bb} is smaller than its small blind {sb}",
    },
    levels: {
      notList: 'must be a list of levels and breaks, e.g. {example} (got {got})',
      none: 'at least one level is needed',
      tooMany: 'at most {max} levels and breaks in all (got {n})',
      notEntry: 'each entry must be a level like {level} or a break like {break} (got {got})',
      levelAndBreak: 'an entry is either a level or a break, not both: a break has no blinds or ante',
      breakFirst: 'a break cannot come before the first level: a break follows the level before it',
    },
    rebuys: {
      notObject: 'must be an object like {example} (got {got})',
    },
    overrides: {
      notObject: 'must map a level number to the chips leaving after it, e.g. {example} (got {got})',
      notLevel: '"{key}" is not a level number; key each override by the level it follows, e.g. "4"',
      noSuchLevel: 'there is no level {level}: the structure has {n} level | there is no level {level}: the structure has {n} levels',
      noMoments: 'this structure has no moment for one',
      momentsAre: 'possible after level {levels} | possible after levels {levels}',
      noBreakAfter: 'there is no break after level {level}, and colour-ups happen at breaks ({where})',
      lastLevel: 'level {level} is the last level, so no play follows it ({where})',
      notList: 'must be a list of the chips leaving after level {level}, e.g. [25], or [] for none (got {got})',
      notAChip: '{chip} is not one of the chips ({chips})',
      largest: '{chip} is the largest chip, which never leaves play',
      twice: '{chip} is listed twice',
      leavesOnce: '{chip} already leaves after level {level} (overrides.{level}); a chip leaves once',
    },
    need: {
      sb: 'its small blind {amount}',
      bb: 'its big blind {amount}',
      ante: 'its ante {amount}',
      startingStack: 'its starting stack {amount}',
      rebuys: 'its rebuy {amount}',
    },
    override: {
      neededToEnd: '{chip} cannot leave after level {level}: it is the last level and needs {needed} ({need}), and a chip needed to the end never leaves',
      stillNeeded: '{chip} cannot leave after level {level}: level {later} still needs it ({need})',
      smallerNeeded: '{chip} cannot leave after level {level}: level {later} still needs the smaller {needed} ({need}), and chips leave smallest first',
      neverLeaves: 'never leaves',
      leavesAfter: 'leaves after level {level}',
      smallerStays: '{chip} cannot leave after level {level} while the smaller {smaller} stays in play (it {when}); chips leave smallest first, so list {smaller} there too',
      largerLeaves: '{chip} cannot stay in play until after level {level} while the larger {larger} leaves after level {early}; chips leave smallest first',
    },
    warning: {
      notMultiple: 'after level {level}: {next} is not a whole multiple of {removed}, so the {removed} chips cannot be exchanged for {next} chips in a race',
    },
    file: {
      notJson: 'not JSON: the file is not a JSON document',
      notNumber: 'must be a number (got {got})',
      notChipList: 'must be a list of chips, e.g. [25] (got {got})',
    },
    csv: {
      cell: {
        chip: 'line {line}, chip {n}',
        startingStack: 'line {line}',
        amount: 'line {line}, amount',
        lastLevel: 'line {line}, last level',
        minutes: 'line {line}, minutes',
        smallBlind: 'line {line}, small blind',
        bigBlind: 'line {line}, big blind',
        ante: 'line {line}, ante',
      },
      notWhole: '{at}: "{text}" is not a whole number',
      unknownLine: 'line {line}: starts with "{start}"; a line is chips, starting stack, rebuys, level or break',
      noChips: 'the sheet needs a "chips" line listing the denominations',
    },
  },
} as const satisfies Catalog;

/** The shape every language's catalog has: the same keys as the English one. */
export type EngineCatalog = DeepStrings<typeof en>;
type DeepStrings<T> = { readonly [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
