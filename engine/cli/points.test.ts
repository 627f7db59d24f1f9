import { describe, expect, it } from 'vitest';
import { commandLine } from './testing';

const { fileWith, fileRefusals, runNpm, runDirect, refusedRun } = commandLine('points');

// Seed 002's worked example: Anna's heart straight flush scores 8, Ville's last trick 2.
const seedDeal = {
  game: 'pistepokeri',
  players: ['Anna', 'Ville', 'Sanna'],
  scores: { Anna: 0, Ville: 0, Sanna: 0 },
  hands: { Anna: ['5h', '6h', '7h', '8h', '9h'], Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'], Sanna: ['2c', '2s', '3c', '3s', '4c'] },
  tricks: [['9h', 'Ah', '2c'], ['Ks', '2s', '5h'], ['Kc', '3c', '6h'], ['Qd', '3s', '7h'], ['Kd', '4c', '8h']],
};

describe('npm run --silent points -- FILE', () => {
  it('prints exactly the contract’s JSON document and exits 0 for the seed’s example deal', () => {
    const run = runNpm(fileWith('seed.json', JSON.stringify(seedDeal)));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toStrictEqual({
      handPoints: { player: 'Anna', hand: 'straight-flush', points: 8 },
      trickWinners: ['Ville', 'Ville', 'Ville', 'Ville', 'Ville'],
      lastTrick: { player: 'Ville', points: 2 },
      scores: { Anna: 8, Ville: 2, Sanna: 0 },
      winner: null,
    });
  });

  it('takes exchanges and unfinished deals: lastTrick is null until five tricks, handPoints null when nobody scores', () => {
    const input = {
      game: 'chicago',
      players: ['Anna', 'Ville'],
      hands: { Anna: ['2h', '3h', '4h', '5h', '7c'], Ville: ['3c', '8s', 'Td', 'Qh', 'Ac'] },
      exchanges: [{ Anna: { discard: ['7c'], draw: ['9d'] } }],
      tricks: [['2h', 'Qh'], ['Ac']],
    };
    const run = runDirect(fileWith('partial.json', JSON.stringify(input)));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Anna's 2-3-4-5 of hearts with the 9♦ is no straight: both hands are high card, which scores nothing.
    expect(JSON.parse(run.stdout)).toStrictEqual({
      handPoints: null,
      trickWinners: ['Ville'],
      lastTrick: null,
      scores: { Anna: 0, Ville: 0 },
      winner: null,
    });
  });

  it('exits 2 with one line on stderr and nothing on stdout for an illegal play, naming player, trick and card', () => {
    const illegal = { ...seedDeal, tricks: [['9h', 'Ks']] };
    const run = runNpm(fileWith('illegal.json', JSON.stringify(illegal)));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('points: tricks[0][1]: trick 1: Ville may not play Ks: the opening card is 9h and a heart above it must be played (holding Ah)\n');
  });

  it.each([
    ['a card in two hands', () => [fileWith('twice.json', JSON.stringify({ ...seedDeal, hands: { ...seedDeal.hands, Sanna: ['2c', '2s', '3c', '3s', '9h'] } }))], /^points: hands\.Sanna\[4\]: Sanna cannot be dealt 9h: 9h is in Anna's hand/],
    ['an unknown game', () => [fileWith('game.json', JSON.stringify({ ...seedDeal, game: 'bridge' }))], /^points: game: unknown game "bridge"/],
    ['a bad card', () => [fileWith('card.json', JSON.stringify({ ...seedDeal, tricks: [['9h', 'Xx']] }))], /^points: tricks\[0\]\[1\]: "Xx" is not a card/],
    ...fileRefusals('{"game": '),
  ])('exits 2 for %s', (_, args, message) => {
    expect(refusedRun(...args())).toMatchObject({ status: 2, stdout: '', lines: 2, stderr: expect.stringMatching(message) });
  });
});
