import { readProfile } from '../profile';

/** How `read` (the profile reader unless given) refuses `value`: the field it names and why, in English. Fails the test if it accepts it. */
export function profileRefusal(value: unknown, read: (value: unknown) => unknown = readProfile): { field: string; reason: string } {
  try {
    read(value);
  } catch (error) {
    const { field, reason } = error as { field: string; reason: string };
    return { field, reason };
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}
