import { describe, expect, it } from 'vitest';
import en from './en.json';
import fi from './fi.json';
import ru from './ru.json';

/** Dotted paths of every leaf ('app.name'), sorted. */
function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages)
    .flatMap(([key, value]: [string, unknown]) =>
      typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
    )
    .sort();
}

/** Every leaf value. */
function leaves(messages: object): unknown[] {
  return Object.values(messages).flatMap((value: unknown) =>
    typeof value === 'object' && value !== null ? leaves(value) : [value],
  );
}

describe('locale files', () => {
  it.each([
    ['fi', fi],
    ['ru', ru],
  ] as const)('%s has exactly the keys of en', (_name, messages) => {
    expect(keys(messages)).toEqual(keys(en));
  });

  it.each([
    ['en', en],
    ['fi', fi],
    ['ru', ru],
  ] as const)('%s has only non-empty string messages', (_name, messages) => {
    for (const value of leaves(messages)) {
      expect(typeof value).toBe('string');
      expect((value as string).trim()).not.toBe('');
    }
  });
});
