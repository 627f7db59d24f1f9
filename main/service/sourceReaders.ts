/**
 * The card source's readers the settings' schema (settingsSchema.ts) uses where a field needs
 * more than a shape: a serial port's path on this platform, and the line settings, read by the
 * hardware's own reader (readLineSettings) and refused in keys where its English allows.
 */
import { InputError, isInputError } from '../../engine/errors';
import { englishText, type Message } from '../../engine/messages';
import { readLineSettings } from '../../hardware/profile';
import { DATA_BITS, PARITIES, STOP_BITS, type LineSettings } from '../../hardware/lineSettings';
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

/** The choices of each line setting, as the hardware's reader of them has them. */
const LINE_CHOICES: Readonly<Record<string, readonly (string | number)[]>> = { dataBits: DATA_BITS, parity: PARITIES, stopBits: STOP_BITS };

/**
 * A line setting's refusal as a key, where the hardware's reader (readLineSettings) words it in
 * English only: its choices, or true or false. Said only when its English is the reader's very
 * words, so the message stays the reader's whatever it comes to say.
 */
function lineRefusal(error: InputError, value: unknown): Message | string {
  const choices = LINE_CHOICES[error.field];
  const params = { got: got(value) };
  const said: Message | null =
    error.field === 'rtscts' ? { key: 'settings.notBoolean', params }
    : choices === undefined ? null
    : typeof choices[0] === 'number'
      ? { key: 'settings.mustBe', params: { ...params, choices: { message: { key: 'poker.or', params: { list: choices.slice(0, -1).join(', '), last: String(choices.at(-1)) } } } } }
      : { key: 'settings.oneOf', params: { ...params, options: choices.join(', ') } };
  return said !== null && englishText(said) === error.reason ? said : error.reason;
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
      if (isInputError(error)) throw new InputError(`source.${error.field}`, error.said ?? lineRefusal(error, value));
      throw error;
    }
  });
}
