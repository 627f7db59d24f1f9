import { describe, expect, it } from 'vitest';
import { commandLine } from './testing';

const { fileWith, fileRefusals, runNpm, runDirect, refusedRun } = commandLine('race');

const workedExample = {
  rules: 'classic', removed: 25, next: 100, button: 10,
  seats: [
    { seat: 1, name: 'Matti', chips: 7, other: 5000 },
    { seat: 2, name: 'Teppo', chips: 2, other: 3000 },
    { seat: 3, name: 'Johanna', chips: 2, other: 4000 },
  ],
  cards: ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'],
};

describe('npm run --silent race -- FILE', () => {
  it('prints exactly one JSON document and exits 0 for a valid race', () => {
    const run = runNpm(fileWith('example.json', JSON.stringify(workedExample)));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output).toMatchObject({
      status: 'complete',
      exchange: [{ seat: 1, up: 1, odd: 3 }, { seat: 2, up: 0, odd: 2 }, { seat: 3, up: 0, odd: 2 }],
      raceChips: 2,
      deal: [{ seat: 1, cards: 3 }, { seat: 2, cards: 2 }, { seat: 3, cards: 2 }],
      awaiting: null,
      awards: [1, 2],
      protected: [],
      valueDelta: 25,
    });
  });

  it('reports who gets the next cards while dealing', () => {
    const run = runDirect(fileWith('dealing.json', JSON.stringify({ ...workedExample, cards: ['Ah', 'Kc', '2d', 'Ts'] })));
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'dealing', awaiting: { seat: 2, cards: 1 }, awards: [] });
  });

  it('records which cards broke a tie (two decks) in tiebreaks; none in a race without one', () => {
    expect(JSON.parse(runDirect(fileWith('plain.json', JSON.stringify(workedExample))).stdout).tiebreaks).toEqual([]);
    const tie = { rules: 'tda', removed: 25, next: 100, decks: 2, seats: [1, 2, 3].map((seat) => ({ seat, chips: 1, other: 100 })), cards: ['As', '2c', 'As', '5d', '9c'] };
    const run = runDirect(fileWith('tie.json', JSON.stringify(tie)));
    expect(run.status).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output).toMatchObject({ status: 'complete', awards: [3] });
    expect(output.tiebreaks).toEqual([
      {
        seats: [1, 3],
        card: 'As',
        chips: 1,
        halfChip: false,
        rounds: [{ round: 1, seats: [1, 3], cards: [{ seat: 1, card: '5d' }, { seat: 3, card: '9c' }], outcome: { won: [3], tied: [] } }],
        winners: [3],
      },
    ]);
    expect(output.explanation).toContain('Tie: seat 1 and seat 3 both hold A♠ for the last 100; tie-break round 1: seat 1 draws 5♦, seat 3 draws 9♣ → seat 3 wins');
  });

  it('exits 2 with one line on stderr and nothing on stdout for an invalid race', () => {
    const run = runNpm(fileWith('bad.json', JSON.stringify({ ...workedExample, next: 110 })));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^race: next: 110 is not a whole multiple of the removed denomination 25[^\n]*\n$/);
  });

  it('takes the house variants by the rules page’s names: awards lists a seat once for each chip it wins', () => {
    const takesAll = { ...workedExample, award: 'high-card-takes-all', cards: ['Ah', 'Ts', 'Td'] };
    const run = runDirect(fileWith('takes-all.json', JSON.stringify(takesAll)));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'complete',
      settings: { rounding: 'pooled-half-up', dealStart: 'left-of-button', protection: 'exempt', award: 'high-card-takes-all' },
      deal: [{ seat: 1, cards: 1 }, { seat: 2, cards: 1 }, { seat: 3, cards: 1 }],
      raceChips: 2,
      awards: [1, 1],
      winningCards: [{ seat: 1, card: 'Ah' }, { seat: 1, card: 'Ah' }],
      valueDelta: 25,
    });
    // 6 odd 25s: 150 is 1 whole 100 and exactly half of one over, which is not more than half; the button's seat 2 first.
    const strict = { ...workedExample, rounding: 'pooled-more-than-half', dealStart: 'button', button: 2, seats: workedExample.seats.map((seat) => ({ ...seat, chips: 2 })), cards: [] };
    const output = JSON.parse(runDirect(fileWith('strict.json', JSON.stringify(strict))).stdout);
    expect(output).toMatchObject({ settings: { rounding: 'pooled-more-than-half', dealStart: 'button', award: 'one-chip-each' }, raceChips: 1, deal: [{ seat: 2, cards: 2 }, { seat: 3, cards: 2 }, { seat: 1, cards: 2 }] });
  });

  it.each([
    ['rounding', 'pooled-more-than-half-ish', /^race: rounding: unknown value "pooled-more-than-half-ish"; choose one of pooled-half-up, pooled-more-than-half, /],
    ['dealStart', 'dealer', /^race: dealStart: unknown value "dealer"; choose one of left-of-button, seat-1, button\n$/],
    ['award', 'winner-takes-all', /^race: award: unknown value "winner-takes-all"; choose one of one-chip-each, high-card-takes-all\n$/],
    ['award', null, /^race: award: unknown value null; choose one of one-chip-each, high-card-takes-all\n$/],
  ])('exits 2 naming the field for an unknown %s (%s)', (field, value, message) => {
    expect(refusedRun(fileWith(`${field}.json`, JSON.stringify({ ...workedExample, [field]: value })))).toMatchObject({ status: 2, stdout: '', lines: 2, stderr: expect.stringMatching(message) });
  });

  it.each([
    ['a bad card', () => [fileWith('card.json', JSON.stringify({ ...workedExample, cards: ['Ah', 'Xx'] }))], /^race: cards\[1\]: "Xx" is not a card/],
    ...fileRefusals('{"rules": '),
  ])('exits 2 for %s', (_, args, message) => {
    expect(refusedRun(...args())).toMatchObject({ status: 2, stdout: '', lines: 2, stderr: expect.stringMatching(message) });
  });
});
