import { DATA_BITS, PARITIES, STOP_BITS, type DeviceProfileInfo, type SourceSettings } from '../../protocol/contract';

/**
 * The card source's device profile as the settings form edits it: the profile chosen (built in or
 * stored in the data folder, as the service offers them in `state.profiles`), and the baud rate,
 * line settings and repeat window over the profile's own. The settings carry a line setting or the
 * repeat window only where it differs from the chosen profile's own value (an override).
 */

export type DataBits = NonNullable<SourceSettings['dataBits']>;
export type Parity = NonNullable<SourceSettings['parity']>;
export type StopBits = NonNullable<SourceSettings['stopBits']>;

// The line's choices as hardware/lineSettings.ts keeps them (through protocol/constants.ts).
export const DATA_BITS_CHOICES: readonly DataBits[] = DATA_BITS;
export const PARITY_CHOICES: readonly Parity[] = PARITIES;
export const STOP_BITS_CHOICES: readonly StopBits[] = STOP_BITS;

/** The largest repeat window a profile or the settings take (hardware/profile.ts's MAX_WINDOW_MS). */
export const MAX_REPEAT_MS = 60_000;

/** What the form shows for a profile: its own baud rate, line settings and repeat window. */
export interface ProfileValues {
  readonly baud: number;
  readonly dataBits: DataBits;
  readonly parity: Parity;
  readonly stopBits: StopBits;
  readonly rtscts: boolean;
  readonly repeatMs: number;
}

/** A profile file's values where it leaves them out (hardware/profile.ts's readProfile). */
export const PROFILE_DEFAULTS: ProfileValues = { baud: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false, repeatMs: 0 };

/** The settings' fields over the profile's own, in the order the service writes them. */
export const OVERRIDES = ['dataBits', 'parity', 'stopBits', 'rtscts', 'repeatMs'] as const;
export type Override = (typeof OVERRIDES)[number];

const isIn = <T extends string | number>(choices: readonly T[], value: unknown): value is T => (choices as readonly unknown[]).includes(value);

/** A profile's own values, as its file (checked by the service) gives them; the defaults where it does not. */
export function profileValues(info: DeviceProfileInfo | undefined): ProfileValues {
  const profile = info?.profile ?? {};
  const whole = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback);
  return {
    baud: whole(profile.baud, PROFILE_DEFAULTS.baud),
    dataBits: isIn(DATA_BITS_CHOICES, profile.dataBits) ? profile.dataBits : PROFILE_DEFAULTS.dataBits,
    parity: isIn(PARITY_CHOICES, profile.parity) ? profile.parity : PROFILE_DEFAULTS.parity,
    stopBits: isIn(STOP_BITS_CHOICES, profile.stopBits) ? profile.stopBits : PROFILE_DEFAULTS.stopBits,
    rtscts: typeof profile.rtscts === 'boolean' ? profile.rtscts : PROFILE_DEFAULTS.rtscts,
    repeatMs: whole(profile.repeatMs, PROFILE_DEFAULTS.repeatMs),
  };
}

/** How the profile's decoder reads a message (`uid`: RFID tag IDs through a tag table), or null. */
export function decoderKind(info: DeviceProfileInfo | undefined): string | null {
  const decoder = info?.profile.decoder;
  if (typeof decoder !== 'object' || decoder === null) return null;
  const kind = (decoder as { kind?: unknown }).kind;
  return typeof kind === 'string' ? kind : null;
}

/** The values in force: the settings' overrides over the profile's own. */
export function effectiveValues(source: SourceSettings, own: ProfileValues): ProfileValues {
  return {
    baud: source.baud,
    dataBits: source.dataBits ?? own.dataBits,
    parity: source.parity ?? own.parity,
    stopBits: source.stopBits ?? own.stopBits,
    rtscts: source.rtscts ?? own.rtscts,
    repeatMs: source.repeatMs ?? own.repeatMs,
  };
}

/** Whether the settings put any value of their own over the profile's. */
export function hasOverrides(source: SourceSettings): boolean {
  return OVERRIDES.some((key) => source[key] !== undefined);
}

type SourcePatch = { -readonly [Key in keyof SourceSettings]?: SourceSettings[Key] | undefined };

/**
 * The settings with `patch` applied, each override kept only where it differs from the profile's
 * own value (`undefined` in the patch: the profile's), the keys in the service's order.
 */
export function sourceWith(source: SourceSettings, patch: SourcePatch, own: ProfileValues): SourceSettings {
  const merged = { ...source, ...patch };
  const overrides: Partial<Record<Override, unknown>> = {};
  for (const key of OVERRIDES) {
    const value = merged[key];
    if (value !== undefined && value !== own[key]) overrides[key] = value;
  }
  return { kind: merged.kind, path: merged.path, baud: merged.baud, decoder: merged.decoder, ...(overrides as Partial<Pick<SourceSettings, Override>>) };
}

/**
 * Another profile chosen: its baud rate, unless the dealer had set another than the last profile's
 * own; the overrides the dealer set kept where they differ from the new profile's own values.
 */
export function sourceWithProfile(source: SourceSettings, name: string, previous: ProfileValues, next: ProfileValues): SourceSettings {
  return sourceWith(source, { decoder: name, baud: source.baud === previous.baud ? next.baud : source.baud }, next);
}

/** The profile's own values again: no override left. */
export function withoutOverrides(source: SourceSettings): SourceSettings {
  return { kind: source.kind, path: source.path, baud: source.baud, decoder: source.decoder };
}

/** The first `deck-N` no profile is named: what "register deck" proposes. */
export function freeDeckName(profiles: readonly DeviceProfileInfo[]): string {
  const taken = new Set(profiles.map((profile) => profile.name));
  let number = 1;
  while (taken.has(`deck-${number}`)) number += 1;
  return `deck-${number}`;
}
