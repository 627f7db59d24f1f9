// The one table-name rule (protocol/tableName.ts), shared by the station and the floor (issue 44:
// bidi and unnormalised table names): no text-direction controls or other invisible formatting
// characters, and one spelling of each name, composed (NFC).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTableName, tableNameOf } from './tableName';

/** The text-direction controls (embeddings, overrides, isolates, marks) and the zero-width characters. */
const INVISIBLE = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u2028', '\u2029'];

describe('a table name', () => {
  it('holds no text-direction control nor any invisible formatting character, wherever it is', () => {
    expect(isTableName('Pöytä 12')).toBe(true);
    expect(isTableName('Стол 3')).toBe(true);
    for (const mark of INVISIBLE) {
      for (const name of [`7${mark}`, `${mark}7`, `T${mark}7`, `Pöytä ${mark}21`]) {
        expect(isTableName(name), JSON.stringify(name)).toBe(false);
        // As typed: refused, or (one trimmed off its edge, as spaces are: U+FEFF, U+2028) a name without it.
        const typed = tableNameOf(name);
        expect(typed === null || !INVISIBLE.some((each) => typed.includes(each)), JSON.stringify(name)).toBe(true);
        if (name.slice(1, -1).includes(mark)) expect(typed, JSON.stringify(name)).toBeNull();
      }
    }
    // "Table 7" written backwards by an override reads as "7 elbaT" on the screen: not a name.
    expect(tableNameOf('\u202E7 elbaT')).toBeNull();
  });

  it('is composed (NFC): the decomposed spelling is no name as it stands, and is the composed one as a person typed it', () => {
    const composed = 'Pöytä 12';
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect(isTableName(decomposed)).toBe(false);
    expect(tableNameOf(decomposed)).toBe(composed);
    expect(tableNameOf(` ${decomposed} `)).toBe(composed);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 32, unit: fc.constantFrom('a', 'o', 'O', '1', ' ', '\u0308', '\u0301', 'ö', 'й', 'и', '\u0306', 'Å', 'A', '\u030A') }), (text) => {
        const name = tableNameOf(text);
        // Whatever was typed, a name it gives is one the rule takes, and the same for either spelling.
        if (name !== null) expect(isTableName(name)).toBe(true);
        expect(tableNameOf(text.normalize('NFD'))).toBe(tableNameOf(text.normalize('NFC')));
      }),
    );
  });
});
