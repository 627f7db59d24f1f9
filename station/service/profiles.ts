import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError, isInputError } from '../../engine/errors';
import { englishText, type Message, type MessageParam } from '../../engine/messages';
import type { JournalFinding } from '../../journal/findings';
import { ALL_BUILT_IN_PROFILES, DEFAULT_PROFILE, profileSummary, readProfile, type DeviceProfile } from '../../hardware/profile';
import { DEFAULT_SCANNER_PROFILE, type DeviceProfileInfo, type SourceSettings } from '../../protocol/contract';
import { writeFileAtomically } from './atomicWrite';

/** The folder, inside the data folder, of the device profiles imported or registered in the console. */
export const PROFILES_FOLDER = 'profiles';

/** A profile's name as the settings name it: letters, digits, `.`, `_`, `-`; not a built-in's. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** The name a stored profile is saved and chosen under, or why not. */
export function storedName(name: string): string {
  if (!NAME.test(name)) throw new InputError('profile.name', { key: 'service.profile.badName', params: { got: String(JSON.stringify(name)) } });
  if (Object.hasOwn(ALL_BUILT_IN_PROFILES, name)) throw new InputError('profile.name', { key: 'service.profile.builtIn', params: { name } });
  return name;
}

export function profileInfo(profile: DeviceProfile, builtIn: boolean): DeviceProfileInfo {
  return { name: profile.name, builtIn, summary: profileSummary(profile), profile: profile as unknown as Readonly<Record<string, unknown>> };
}

/**
 * The device profiles a console knows: the built-in ones and those stored in its data folder
 * (imported from a profile file, or made by registering an RFID deck), each validated by the
 * hardware's own reader of profiles (readProfile), the same as `cards --decoder FILE`.
 */
export class ProfileStore {
  private constructor(
    private readonly folder: string,
    private readonly stored: Map<string, DeviceProfile>,
    /** Profile files that could not be read: kept in the folder, not offered, reported (in English). */
    readonly problems: readonly string[],
    /** The same as journal findings, each in keys too. */
    readonly findings: readonly Extract<JournalFinding, { code: 'settings' }>[],
  ) {}

  static async load(dataDir: string): Promise<ProfileStore> {
    const folder = join(dataDir, PROFILES_FOLDER);
    const stored = new Map<string, DeviceProfile>();
    const findings: Extract<JournalFinding, { code: 'settings' }>[] = [];
    const problem = (said: Message) => findings.push({ code: 'settings', message: englishText(said), said });
    let files: string[] = [];
    try {
      files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem({ key: 'settings.file.profilesUnreadable', params: { why: (error as Error).message } });
    }
    for (const file of files) {
      try {
        const profile = readProfile(JSON.parse(await readFile(join(folder, file), 'utf8')));
        storedName(profile.name);
        if (`${profile.name}.json` !== file) throw new InputError('name', `is "${profile.name}", not the file's name`);
        stored.set(profile.name, profile);
      } catch (error) {
        const why: MessageParam = !isInputError(error) ? (error as Error).message : error.said === undefined ? `${error.field}: ${error.reason}` : { message: { key: 'common.field', params: { field: error.field, reason: { message: error.said } } } };
        problem({ key: 'settings.file.profileDamaged', params: { file: `${PROFILES_FOLDER}/${file}`, why } });
      }
    }
    return new ProfileStore(folder, stored, findings.map((finding) => finding.message), findings);
  }

  /** Built-in and stored, in that order: what the settings screen offers. */
  list(): DeviceProfileInfo[] {
    return [...Object.values(ALL_BUILT_IN_PROFILES).map((profile) => profileInfo(profile, true)), ...[...this.stored.values()].map((profile) => profileInfo(profile, false))];
  }

  has(name: string): boolean {
    return Object.hasOwn(ALL_BUILT_IN_PROFILES, name) || this.stored.has(name);
  }

  get(name: string): DeviceProfile | undefined {
    return ALL_BUILT_IN_PROFILES[name] ?? this.stored.get(name);
  }

  /** Saves a profile under its name (replacing one of that name), whole or not at all. */
  async save(profile: DeviceProfile): Promise<void> {
    storedName(profile.name);
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const path = join(this.folder, `${profile.name}.json`);
    await writeFileAtomically(path, `${JSON.stringify(profile, null, 2)}\n`);
    this.stored.set(profile.name, profile);
  }
}

/**
 * The profile a card source reads with: the one the settings name (built-in or stored), with the
 * settings' baud rate, line settings and repeat window over its own.
 */
export function effectiveProfile(source: SourceSettings, store: ProfileStore): DeviceProfile {
  const base = store.get(source.decoder) ?? DEFAULT_PROFILE;
  return {
    ...base,
    baud: source.baud,
    ...(source.dataBits === undefined ? {} : { dataBits: source.dataBits }),
    ...(source.parity === undefined ? {} : { parity: source.parity }),
    ...(source.stopBits === undefined ? {} : { stopBits: source.stopBits }),
    ...(source.rtscts === undefined ? {} : { rtscts: source.rtscts }),
    ...(source.repeatMs === undefined ? {} : { repeatMs: source.repeatMs }),
  };
}

/**
 * The profile a keyboard-wedge scanner's text is decoded with: the one the settings choose for the
 * scanner (built-in or stored), independent of the shoe's; none chosen (or one no longer stored),
 * the default. Only its decoding counts: a scan opens no port.
 */
export function scannerProfile(source: SourceSettings, store: ProfileStore): DeviceProfile {
  return store.get(source.scanner ?? DEFAULT_SCANNER_PROFILE) ?? DEFAULT_PROFILE;
}

/** The finding when the settings name a device profile the data folder does not hold: the text profile is used until another is chosen. */
export function profileMissing(name: string): Extract<JournalFinding, { code: 'settings' }> {
  const said: Message = { key: 'settings.file.profileMissing', params: { name } };
  return { code: 'settings', message: englishText(said), said };
}
