/**
 * The card source's readers the settings' schema (settingsSchema.ts) uses where a field needs
 * more than a shape: a serial port's path on this platform, and the line settings, read by the
 * hardware's own reader (readLineSettings), which refuses in keys.
 */
import { InputError, isInputError } from '../../engine/errors';
import { readLineSettings } from '../../hardware/profile';
import type { LineSettings } from '../../hardware/lineSettings';
import { custom, refuse, type Schema } from '../../protocol/schema';

/** A value as a refusal quotes it: its JSON (`"100"`, `11`). */
export const got = (value: unknown): string => String(JSON.stringify(value));

/** Windows' name for a port in its device namespace, a parameter: the screens' message syntax would read its backslashes as escapes. */
const WINDOWS_DEVICE_EXAMPLE = '\\\\.\\COM3';

/** A serial port named from the root: `/dev/ttyUSB0`, `/dev/serial/by-id/…`; on Windows `COM3` or `\\.\COM3`. */
export function isAbsoluteSerialPath(path: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return /^(?:\\\\\.\\)?COM[1-9][0-9]*$/i.test(path);
  return path.startsWith('/');
}

/**
 * A serial port's path, checked: a relative one would be opened from wherever the console was
 * started. Empty is allowed (a serial source chosen, its port not yet: nothing is opened).
 */
export function serialPath(path: string, platform: NodeJS.Platform): string {
  if (path === '' || isAbsoluteSerialPath(path, platform)) return path;
  return refuse({ key: platform === 'win32' ? 'settings.serialPathWindows' : 'settings.serialPathPosix', params: { got: got(path), device: WINDOWS_DEVICE_EXAMPLE } });
}

/**
 * One line setting of the source (`source.<key>`), read by the hardware's reader of them: left out
 * (undefined), the profile's; null is no setting, and the reader refuses it.
 */
export function lineSetting<const Key extends keyof LineSettings>(key: Key): Schema<LineSettings[Key] | undefined> {
  return custom((value) => {
    if (value === undefined) return undefined;
    try {
      return readLineSettings({ [key]: value })[key];
    } catch (error) {
      // The hardware's reader says its refusals in keys (the settings' words: hardware/deviceKind.ts).
      if (isInputError(error)) throw new InputError(`source.${error.field}`, error.said ?? error.reason);
      throw error;
    }
  });
}
