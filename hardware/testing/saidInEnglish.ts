import { expect } from 'vitest';
import { englishText, isMessageKey, type Message } from '../../engine/messages';

/**
 * For tests that write what the card sources say in English: importing this file makes `toEqual`
 * take a Message as equal to a string when its English (cards as codes, the command line's) is
 * that string, and an event or status carrying `said` beside its English (`reason`, `message`) as
 * equal to one written without it, once `said` says exactly that English. So a test keeps the
 * sentences a person reads, and still fails when a key or a parameter says something else.
 */

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

function isMessage(value: unknown): value is Message {
  return isFields(value) && isMessageKey(value.key) && Object.keys(value).every((name) => name === 'key' || name === 'params');
}

const isMatcher = (value: unknown): boolean => isFields(value) && typeof value.asymmetricMatch === 'function';

/** The English an object carries beside its `said`: an unknown frame's reason, a status's message, a refusal's message. */
function englishOf(value: Fields): unknown {
  return 'reason' in value ? value.reason : value.message;
}

function withoutSaid(value: Fields): Fields | null {
  if (!isMessage(value.said)) return null;
  const { said, ...rest } = value;
  return englishText(said) === englishOf(rest) ? rest : null;
}

function saidInEnglish(this: { equals: (a: unknown, b: unknown, testers?: unknown[]) => boolean }, a: unknown, b: unknown, testers: unknown[]): boolean | undefined {
  if (isMessage(a) && typeof b === 'string') return englishText(a) === b;
  if (typeof a === 'string' && isMessage(b)) return englishText(b) === a;
  // A Message against `expect.stringMatching(…)`: its English is matched.
  if (isMessage(a) && isMatcher(b)) return this.equals(englishText(a), b, testers);
  if (isMatcher(a) && isMessage(b)) return this.equals(a, englishText(b), testers);
  if (isFields(a) && isFields(b) && ('said' in a) !== ('said' in b)) {
    const [carrying, plain] = 'said' in a ? [a, b] : [b, a];
    // A `said` that is no Message (a race summary's) is not this tester's to judge.
    if (!isMessage(carrying.said)) return undefined;
    const rest = withoutSaid(carrying);
    return rest !== null && this.equals(rest, plain, testers);
  }
  return undefined;
}

expect.addEqualityTesters([saidInEnglish as Parameters<typeof expect.addEqualityTesters>[0][number]]);
