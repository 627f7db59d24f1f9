import type { ConsoleSettings } from '../../../protocol/contract';
import { DEFAULT_SETTINGS } from '../settings';

/**
 * The seed's worked example (chip-race-rules.md) as service tests play it: Matti, Teppo and Johanna
 * with 7, 2 and 2 odd 25s, the button on seat 3, and its cards in deal order (Matti's ace and
 * Teppo's 10♠ win a 100 each).
 */
export const FINNISH_TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};
export const FINNISH_COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
export const FINNISH_CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
