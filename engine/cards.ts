import { describeValue, parseCard, type Card } from './cardCodes';
import { InputError } from './errors';

export * from './cardCodes';

/** Like parseCard, but refuses bad input with an error naming the field. */
export function readCard(value: unknown, field: string): Card {
  if (typeof value !== 'string') {
    throw new InputError(field, { key: 'cards.notText', params: { got: value === undefined ? { message: { key: 'value.nothing' } } : describeValue(value) } });
  }
  const card = parseCard(value);
  if (card === null) throw new InputError(field, { key: 'cards.notACard', params: { text: value } });
  return card;
}
