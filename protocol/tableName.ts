import { TABLE_NAME_MAX } from './constants';

/**
 * A table's name as the floor files it and a station's CHIP_RACE_TABLE names it: 1 to
 * TABLE_NAME_MAX characters, no spaces around it, no control characters. One rule for the station
 * and the floor, so a table the station may name is one the floor takes.
 */
export function isTableName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() === value && value.length >= 1 && value.length <= TABLE_NAME_MAX && !/[\p{Cc}]/u.test(value);
}
