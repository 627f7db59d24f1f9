import { readFileSync } from 'node:fs';
import process from 'node:process';
import { InputError } from '../../engine/errors';
import { ALL_BUILT_IN_PROFILES, readLineSettings, readProfile, type DeviceProfile, type LineSettings } from '../profile';

/** The argument handling shared by the hardware command lines (`shoe`, `cards`). */

export type OptionSpec =
  | { readonly kind: 'text'; readonly required?: boolean }
  | { readonly kind: 'whole' | 'number'; readonly min: number; readonly max: number; readonly required?: boolean }
  /** A switch: `--name` alone is true; `--name=true` and `--name=false` say it outright. */
  | { readonly kind: 'flag'; readonly required?: false };

type ValueOf<S extends OptionSpec> = S['kind'] extends 'text' ? string : S['kind'] extends 'flag' ? boolean : number;
export type ParsedOptions<Spec extends Readonly<Record<string, OptionSpec>>> = { -readonly [K in keyof Spec]?: ValueOf<Spec[K]> };

function readNumber(name: string, text: string, spec: Extract<OptionSpec, { min: number }>): number {
  const whole = spec.kind === 'whole';
  const pattern = whole ? /^-?\d+$/ : /^-?(?:\d+\.?\d*|\.\d+)$/;
  const value = Number(text);
  if (!pattern.test(text) || !Number.isFinite(value) || value < spec.min || value > spec.max) {
    const what = whole ? `a whole number from ${spec.min} to ${spec.max}` : `a number from ${spec.min} to ${spec.max}`;
    throw new InputError(`--${name}`, `must be ${what} (got "${text}")`);
  }
  return value;
}

/**
 * Reads `--name value` and `--name=value` options (a bare `--` is skipped, as npm passes it).
 * Unknown options, repeated options, missing values, stray words and values out of range are
 * refused with an InputError naming the option.
 */
export function parseOptions<Spec extends Readonly<Record<string, OptionSpec>>>(args: readonly string[], spec: Spec): ParsedOptions<Spec> {
  const result: Record<string, string | number | boolean> = {};
  const known = Object.keys(spec);
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--') continue;
    if (!arg.startsWith('--')) throw new InputError(arg, `unexpected argument; options are ${known.map((name) => `--${name}`).join(', ')}`);
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const option = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (option === undefined) throw new InputError(`--${name}`, `unknown option; options are ${known.map((known) => `--${known}`).join(', ')}`);
    if (Object.hasOwn(result, name)) throw new InputError(`--${name}`, 'given twice');
    if (option.kind === 'flag') {
      const value = equals === -1 ? 'true' : arg.slice(equals + 1);
      if (value !== 'true' && value !== 'false') throw new InputError(`--${name}`, `is a switch: give --${name} alone, or --${name}=true or --${name}=false (got "${value}")`);
      result[name] = value === 'true';
      continue;
    }
    let text: string;
    if (equals !== -1) {
      text = arg.slice(equals + 1);
    } else {
      const next = args[index + 1];
      if (next === undefined || next.startsWith('--')) throw new InputError(`--${name}`, 'needs a value');
      text = next;
      index += 1;
    }
    if (text.trim() === '') throw new InputError(`--${name}`, 'needs a value');
    result[name] = option.kind === 'text' ? text : readNumber(name, text, option);
  }
  for (const [name, option] of Object.entries(spec)) {
    if (option.required === true && !Object.hasOwn(result, name)) throw new InputError(`--${name}`, 'is required');
  }
  return result as ParsedOptions<Spec>;
}

export const BUILT_IN_NAMES = Object.keys(ALL_BUILT_IN_PROFILES);

export function builtInProfile(name: string, option: string): DeviceProfile {
  const profile = Object.hasOwn(ALL_BUILT_IN_PROFILES, name) ? ALL_BUILT_IN_PROFILES[name] : undefined;
  if (profile === undefined) throw new InputError(option, `unknown format "${name}"; choose ${BUILT_IN_NAMES.join(', ')}`);
  return profile;
}

type ReadFile = (path: string, encoding: 'utf8') => string;

/**
 * A built-in profile name, or a path to a JSON profile file (validated by readProfile). The
 * option's name says what was asked for: `--decoder morse` is an unknown decoder, `--format morse`
 * an unknown format.
 */
export function profileArgument(value: string, option: string, readFile: ReadFile = readFileSync): DeviceProfile {
  if (Object.hasOwn(ALL_BUILT_IN_PROFILES, value)) return ALL_BUILT_IN_PROFILES[value] as DeviceProfile;
  let text: string;
  try {
    text = readFile(value, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !/[/\\.]/.test(value)) {
      const noun = option.replace(/^--/, '');
      throw new InputError(option, `unknown ${noun} "${value}"; choose ${BUILT_IN_NAMES.join(', ')} or give the path of a JSON profile file`);
    }
    throw new InputError(option, code === 'ENOENT' ? `${value}: no such file` : `${value}: cannot read (${code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(option, `${value}: not valid JSON (${(error as Error).message})`);
  }
  try {
    return readProfile(json);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(option, `${value}: ${error.message}`);
    throw error;
  }
}

/** The line-setting options of the command lines, by the profile field each sets. */
export const LINE_OPTIONS = { 'data-bits': 'dataBits', parity: 'parity', 'stop-bits': 'stopBits', rtscts: 'rtscts' } as const;

export const LINE_OPTION_SPECS = {
  'data-bits': { kind: 'text' },
  parity: { kind: 'text' },
  'stop-bits': { kind: 'text' },
  rtscts: { kind: 'flag' },
} as const;

/**
 * The profile with the line settings given as options (`--data-bits 7 --parity even`) in place of
 * its own, checked by the profile's own validator; a bad value is refused naming the option.
 */
export function withLineOptions(profile: DeviceProfile, options: Readonly<Partial<Record<keyof typeof LINE_OPTIONS, string | boolean>>>): DeviceProfile {
  const given: Record<string, unknown> = {};
  for (const [option, field] of Object.entries(LINE_OPTIONS)) {
    const value = options[option as keyof typeof LINE_OPTIONS];
    if (value === undefined) continue;
    // Numbers as numbers (`1.5`), anything else as the text typed, so the refusal quotes it.
    given[field] = typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : value;
  }
  let line: LineSettings;
  try {
    line = readLineSettings(given, profile);
  } catch (error) {
    const option = error instanceof InputError ? Object.entries(LINE_OPTIONS).find(([, field]) => field === error.field)?.[0] : undefined;
    if (error instanceof InputError && option !== undefined) throw new InputError(`--${option}`, error.reason);
    throw error;
  }
  return { ...profile, ...line };
}

/**
 * Runs a command-line entry: an InputError (bad arguments) prints one line on stderr, nothing on
 * stdout, and exits 2; otherwise the exit code is what `main` returns.
 */
export function runCommand(name: string, main: (args: readonly string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message = error instanceof InputError ? error.message : error instanceof Error ? error.message : String(error);
      process.stderr.write(`${name}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
      process.exitCode = error instanceof InputError ? 2 : 1;
    },
  );
}
