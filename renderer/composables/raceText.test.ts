// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { RaceSummary } from '../../engine/race/summary';
import type { Locale } from '../i18n';
import { raceSummary } from '../../engine/race/summary';
import { makeEngineRace, type RaceInput } from '../testing/fixtures';

/** The engine's whole summary, its explanation mid-race too (a race view leaves it out until the result). */
const makeSummary = (input: RaceInput) => raceSummary(makeEngineRace(input));
import { prepare } from '../testing/setup';
import { useRaceText } from './raceText';

/** Seats 1 (Matti), 2 (Teppo) and 3 (Johanna) hold one odd 25 each: 75 → one 100 raced, dealt from seat 1. */
const ONE_EACH = [1, 2, 3].map((seat) => ({ seat, chips: 1, hasOther: true }));

/** Two decks: Matti and Johanna both get A♠; both draw 7♥ (tied again), then K♦ beats 3♣. */
const TWO_ROUNDS: RaceInput = { decks: 2, counts: ONE_EACH, cards: ['As', '2c', 'As', '7h', '7h', 'Kd', '3c'] };

/** Three decks, Teppo 3 odd chips (6 × 25 → two 100s): all three hold A♠; 9♥ wins one, the two 4♣ draw again. */
const THREE_WAY: RaceInput = {
  decks: 3,
  counts: [{ seat: 1, chips: 1, hasOther: true }, { seat: 2, chips: 1, hasOther: true }, { seat: 3, chips: 1, hasOther: true }, { seat: 4, chips: 3, hasOther: true }],
  cards: ['As', 'As', 'As', '2c', '3c', '5c', '9h', '4c', '4c', '2d', 'Jd'],
};

/** The race's tie-break lines and whole explanation (the engine's messages) as the screens say them in `locale`. */
async function textIn(locale: Locale, summary: RaceSummary) {
  const prepared = await prepare({ locale });
  let tiebreaks: string[] = [];
  let explanation: string[] = [];
  const Probe = defineComponent({
    setup() {
      const text = useRaceText();
      explanation = text.explanation(summary);
      tiebreaks = explanation.filter((_, index) => summary.said.explanation[index]?.key === 'race.explain.tie.line');
      return () => h('div');
    },
  });
  mount(Probe, { global: { plugins: prepared.plugins } }).unmount();
  return { tiebreaks, explanation, missing: prepared.missing };
}

/** English words of the tie-break lines, and card codes where a card should be shown. */
const ENGLISH = /\b(tie|tie-break|seat|round|draws?|wins?|still|tied|both|all|hold|for|last|nobody|and)\b/i;
const CARD_CODE = /\b[2-9TJQKA][shdc]\b/;

describe('tie-break lines of the explanation', () => {
  it('say in English which seats were tied on which card and which cards broke it', async () => {
    const summary = makeSummary(TWO_ROUNDS);
    expect(summary.awards).toEqual([1]);
    const { tiebreaks, explanation, missing } = await textIn('en', summary);
    expect(missing).toEqual([]);
    expect(tiebreaks).toEqual([
      'Tie: seat 1 — Matti and seat 3 — Johanna both hold A♠ for the last 100; tie-break round 1: seat 1 — Matti draws 7♥, seat 3 — Johanna draws 7♥ → still tied; tie-break round 2: seat 1 — Matti draws K♦, seat 3 — Johanna draws 3♣ → seat 1 — Matti wins',
    ]);
    // Between the deal and the award it decided.
    const tie = explanation.indexOf(tiebreaks[0] as string);
    expect(explanation[tie - 1]).toMatch(/^Deal 3 cards/);
    expect(explanation[tie + 1]).toBe('Seat 1 — Matti wins a 100 with A♠');
  });

  it('read right for a three-way tie over two chips', async () => {
    const summary = makeSummary(THREE_WAY);
    expect(summary.awards).toEqual([1, 3]);
    expect((await textIn('en', summary)).tiebreaks).toEqual([
      'Tie: seat 1 — Matti, seat 2 — Teppo and seat 3 — Johanna all hold A♠ for the last 2 × 100; tie-break round 1: seat 1 — Matti draws 9♥, seat 2 — Teppo draws 4♣, seat 3 — Johanna draws 4♣ → seat 1 — Matti wins; seat 2 — Teppo and seat 3 — Johanna still tied; tie-break round 2: seat 2 — Teppo draws 2♦, seat 3 — Johanna draws J♦ → seat 3 — Johanna wins',
    ]);
  });

  it('show the rounds so far while the tie-break is dealt', async () => {
    const summary = makeSummary({ ...TWO_ROUNDS, cards: ['As', '2c', 'As', '7h'] });
    expect(summary.status).toBe('tiebreak');
    expect((await textIn('en', summary)).tiebreaks).toEqual([
      'Tie: seat 1 — Matti and seat 3 — Johanna both hold A♠ for the last 100; tie-break round 1: seat 1 — Matti draws 7♥, seat 3 — Johanna to draw',
    ]);
    expect((await textIn('fi', summary)).tiebreaks).toEqual([
      'Tasapeli viimeisestä pelimerkistä (100): paikka 1 — Matti ja paikka 3 — Johanna, molemmilla A♠; uusintakierros 1: paikka 1 — Matti saa ratkaisukortin 7♥, ratkaisukortti vielä jakamatta: paikka 3 — Johanna',
    ]);
  });

  it('are there in Finnish', async () => {
    const { tiebreaks, missing } = await textIn('fi', makeSummary(TWO_ROUNDS));
    expect(missing).toEqual([]);
    expect(tiebreaks).toEqual([
      'Tasapeli viimeisestä pelimerkistä (100): paikka 1 — Matti ja paikka 3 — Johanna, molemmilla A♠; uusintakierros 1: paikka 1 — Matti saa ratkaisukortin 7♥, paikka 3 — Johanna saa ratkaisukortin 7♥ → yhä tasoissa; uusintakierros 2: paikka 1 — Matti saa ratkaisukortin K♦, paikka 3 — Johanna saa ratkaisukortin 3♣ → paikka 1 — Matti voittaa',
    ]);
    const threeWay = (await textIn('fi', makeSummary(THREE_WAY))).tiebreaks;
    expect(threeWay).toEqual([
      'Tasapeli viimeisistä 2 pelimerkistä (100): paikka 1 — Matti, paikka 2 — Teppo ja paikka 3 — Johanna, kaikilla A♠; uusintakierros 1: paikka 1 — Matti saa ratkaisukortin 9♥, paikka 2 — Teppo saa ratkaisukortin 4♣, paikka 3 — Johanna saa ratkaisukortin 4♣ → paikka 1 — Matti voittaa; paikka 2 — Teppo ja paikka 3 — Johanna yhä tasoissa; uusintakierros 2: paikka 2 — Teppo saa ratkaisukortin 2♦, paikka 3 — Johanna saa ratkaisukortin J♦ → paikka 3 — Johanna voittaa',
    ]);
  });

  it('are there in Russian', async () => {
    const { tiebreaks, missing } = await textIn('ru', makeSummary(TWO_ROUNDS));
    expect(missing).toEqual([]);
    expect(tiebreaks).toEqual([
      'Ничья за последнюю фишку 100: место 1 — Matti и место 3 — Johanna — у обоих A♠; переигровка, круг 1: место 1 — Matti получает 7♥, место 3 — Johanna получает 7♥ → снова ничья; переигровка, круг 2: место 1 — Matti получает K♦, место 3 — Johanna получает 3♣ → место 1 — Matti выигрывает',
    ]);
    const threeWay = (await textIn('ru', makeSummary(THREE_WAY))).tiebreaks;
    expect(threeWay).toEqual([
      'Ничья за последние 2 фишки 100: место 1 — Matti, место 2 — Teppo и место 3 — Johanna — у всех A♠; переигровка, круг 1: место 1 — Matti получает 9♥, место 2 — Teppo получает 4♣, место 3 — Johanna получает 4♣ → место 1 — Matti выигрывает; ничья сохраняется: место 2 — Teppo и место 3 — Johanna; переигровка, круг 2: место 2 — Teppo получает 2♦, место 3 — Johanna получает J♦ → место 3 — Johanna выигрывает',
    ]);
  });

  it.each(['fi', 'ru'] as const)('in %s show cards as cards and no English, in the explanation too', async (locale) => {
    for (const input of [TWO_ROUNDS, THREE_WAY, { ...TWO_ROUNDS, cards: ['As', '2c', 'As'] }]) {
      const summary = makeSummary(input);
      const { tiebreaks, explanation, missing } = await textIn(locale, summary);
      expect(missing).toEqual([]);
      expect(tiebreaks).toHaveLength(1);
      const [line] = tiebreaks as [string];
      expect(explanation).toContain(line);
      expect(line).toContain('A♠');
      for (const draw of summary.tiebreaks[0]?.rounds.flatMap((round) => round.cards) ?? []) expect(line).toContain(draw.card.replace('T', '10').replace(/[shdc]$/, (suit) => ({ s: '♠', h: '♥', d: '♦', c: '♣' })[suit] as string));
      expect(line.replace(/Matti|Teppo|Johanna/g, '')).not.toMatch(ENGLISH);
      expect(line).not.toMatch(CARD_CODE);
    }
  });
});
