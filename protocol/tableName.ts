import { TABLE_NAME_MAX } from './constants';

/**
 * What no table name holds: control characters, format characters (the text-direction overrides
 * and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C, the zero-width
 * ones: a name that reads as another on the screen, or as nothing), line and paragraph separators.
 */
const NOT_IN_A_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * A table's name as the floor files it and a station's CHIP_RACE_TABLE names it: 1 to
 * TABLE_NAME_MAX characters, no spaces around it, none of NOT_IN_A_NAME, composed (Unicode NFC:
 * "Pöytä" typed with a combining diaeresis is the same table as with "ö", and is filed so). One
 * rule for the station and the floor, so a table the station may name is one the floor takes.
 */
export function isTableName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() === value && value.length >= 1 && value.length <= TABLE_NAME_MAX && !NOT_IN_A_NAME.test(value) && value.normalize('NFC') === value;
}

/**
 * A table's name as a person gave it (a seat list's cell, a form, the command line, the station's
 * settings, CHIP_RACE_TABLE): composed (NFC) and trimmed; null when that is no table name (isTableName).
 */
export function tableNameOf(text: string): string | null {
  const name = text.normalize('NFC').trim();
  return isTableName(name) ? name : null;
}
