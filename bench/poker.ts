import { createRequire } from 'node:module';
import { ALL_CARDS, cardStrength, type Card } from '../engine/cards';
import { replayDeal, type PokerEvent } from '../engine/poker/deal';
import { evaluateFive, evaluateHand } from '../engine/poker/hands';
import { playRandomDeal, randomSetup } from '../engine/poker/testing';
import { seededRandom, shuffled } from '../engine/shoe';
import type { BenchFigure } from './report';

/**
 * Hand evaluations per second, ours beside an established npm evaluator measured in the same run
 * on the same hands: `phe` (a JavaScript port of the perfect-hash PokerHandEvaluator), through its
 * public API. `phe` ships no types, so it is loaded with `require` and given the two signatures used.
 */
interface Phe {
  /** Card codes 0–51 (rank × 4 + suit); smaller results are better hands. */
  evaluateCardCodes(codes: readonly number[]): number;
  /** Card strings such as "Ah", "Td"; smaller results are better hands. */
  evaluateCardsFast(cards: readonly string[]): number;
}
const load = createRequire(import.meta.url);
const phe = load('phe') as Phe;
const pheVersion = (load('phe/package.json') as { version: string }).version;

const HANDS = 100_000;

interface Sample {
  /** Our card indexes, five per hand, flat. */
  readonly indexes: Int32Array;
  /** The same hands as phe's codes (phe orders the suits s, h, d, c; ours c, d, h, s). */
  readonly pheCodes: readonly (readonly number[])[];
  readonly strings: readonly (readonly Card[])[];
}

function sampleHands(): Sample {
  const random = seededRandom(20261130);
  const indexes = new Int32Array(HANDS * 5);
  const pheCodes: number[][] = [];
  const strings: Card[][] = [];
  for (let hand = 0; hand < HANDS; hand += 1) {
    const cards = shuffled(ALL_CARDS, random).slice(0, 5);
    cards.forEach((card, position) => {
      indexes[hand * 5 + position] = cardStrength(card);
    });
    pheCodes.push(cards.map((card) => (cardStrength(card) & ~3) | (3 - (cardStrength(card) & 3))));
    strings.push(cards);
  }
  return { indexes, pheCodes, strings };
}

/** Both evaluators must agree on which of two hands is better, or the race would compare different work. */
function checkAgreement({ indexes, pheCodes }: Sample): void {
  const ours = (hand: number) => evaluateFive(indexes[hand * 5] as number, indexes[hand * 5 + 1] as number, indexes[hand * 5 + 2] as number, indexes[hand * 5 + 3] as number, indexes[hand * 5 + 4] as number);
  for (let hand = 1; hand < HANDS; hand += 1) {
    const a = Math.sign(ours(hand) - ours(hand - 1));
    const b = Math.sign(phe.evaluateCardCodes(pheCodes[hand - 1] as number[]) - phe.evaluateCardCodes(pheCodes[hand] as number[]));
    if (a !== b) throw new Error(`evaluators disagree on sample hands ${hand - 1} and ${hand}`);
  }
}

/** Every loop's result lands here, so no measured loop can be optimised away. */
let sink = 0;

/** The median of seven short samples of `run` (which evaluates every sample hand once), after a warm-up. */
function perSecond(run: () => number): number {
  const measure = (seconds: number) => {
    let hands = 0;
    const start = performance.now();
    const until = start + seconds * 1000;
    while (performance.now() < until) {
      sink ^= run();
      hands += HANDS;
    }
    return hands / ((performance.now() - start) / 1000);
  };
  measure(0.3);
  return [0, 1, 2, 3, 4, 5, 6].map(() => measure(0.2)).sort((a, b) => a - b)[3] as number;
}

/** Ours and theirs measured alternately, so a slow moment of a shared machine hits both. */
function sideBySide(ours: () => number, theirs: () => number): { ours: number; theirs: number } {
  const oursRuns: number[] = [];
  const theirsRuns: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    oursRuns.push(perSecond(ours));
    theirsRuns.push(perSecond(theirs));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[1] as number;
  return { ours: median(oursRuns), theirs: median(theirsRuns) };
}

function comparison(label: string, result: { ours: number; theirs: number }): BenchFigure[] {
  const ours = Math.round(result.ours);
  const theirs = Math.round(result.theirs);
  return [
    { name: `poker: 5-card hand evaluations, ours (${label})`, value: ours, unit: 'hands/s', target: theirs, better: 'higher' },
    { name: `poker: 5-card hand evaluations, phe ${pheVersion} (${label})`, value: theirs, unit: 'hands/s', target: ours, better: 'lower' },
    { name: `poker: ours ÷ phe (${label})`, value: Math.round((result.ours / result.theirs) * 100) / 100, unit: '×', target: 1, better: 'higher' },
  ];
}

/** Whole deals replayed from their events: setup, deal, exchanges (with reshuffles), five tricks. */
function dealsPerSecond(): { perSecond: number; eventsPerDeal: number } {
  const random = seededRandom(20261131);
  const logs: PokerEvent[][] = Array.from({ length: 300 }, () => playRandomDeal(randomSetup(random, 'chicago'), random).events);
  const events = logs.reduce((sum, log) => sum + log.length, 0);
  const measure = (seconds: number) => {
    let deals = 0;
    const start = performance.now();
    while (performance.now() < start + seconds * 1000) {
      for (const log of logs) sink ^= replayDeal(log).scores.length;
      deals += logs.length;
    }
    return deals / ((performance.now() - start) / 1000);
  };
  measure(0.3);
  return { perSecond: [0, 1, 2, 3, 4].map(() => measure(0.3)).sort((a, b) => a - b)[2] as number, eventsPerDeal: events / logs.length };
}

export function pokerBenchmarks(): BenchFigure[] {
  const sample = sampleHands();
  checkAgreement(sample);
  const { indexes, pheCodes, strings } = sample;
  const integers = sideBySide(
    () => {
      let check = 0;
      for (let at = 0; at < indexes.length; at += 5) {
        check ^= evaluateFive(indexes[at] as number, indexes[at + 1] as number, indexes[at + 2] as number, indexes[at + 3] as number, indexes[at + 4] as number);
      }
      return check;
    },
    () => {
      let check = 0;
      for (const codes of pheCodes) check ^= phe.evaluateCardCodes(codes);
      return check;
    },
  );
  const texts = sideBySide(
    () => {
      let check = 0;
      for (const cards of strings) check ^= evaluateHand(cards);
      return check;
    },
    () => {
      let check = 0;
      for (const cards of strings) check ^= phe.evaluateCardsFast(cards);
      return check;
    },
  );
  const deals = dealsPerSecond();
  // Hand values and score counts are whole numbers, and so is anything XORed from them.
  if (!Number.isInteger(sink)) throw new Error('a benchmark loop returned something that is not a hand value');
  return [
    ...comparison('card indexes', integers),
    ...comparison('card codes such as "Ah"', texts),
    {
      name: `poker: whole Chicago deal replayed from its events (2–6 players, ${deals.eventsPerDeal.toFixed(1)} events/deal)`,
      value: Math.round(deals.perSecond),
      unit: 'deals/s',
      // A console replays an evening's journal (tens of deals) on start: 1,000 deals/s keeps that instant.
      target: 1_000,
      better: 'higher',
    },
  ];
}
