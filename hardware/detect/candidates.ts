import { ALL_BUILT_IN_PROFILES, DEFAULT_MESSAGES, type DecoderConfig, type DeviceProfile, type FramingConfig, type Parity } from '../profile';
import { DEFAULT_INDEX_OPTIONS } from '../decoding/indexed';
import { CHECKSUMS } from '../framing/stxEtx';

/**
 * What `cards --detect` tries: the line settings (most likely first) and the profiles it reads
 * what it heard with. The candidates are every built-in profile as it is, then every framing a
 * built-in uses (new built-ins, binary frames included, join by themselves) and lines, STX…ETX
 * with each checksum (counting the STX or not) and silence, each with every general decoder.
 */

/** One trial line setting: a baud rate with 8N1, 7E1 or 7O1. */
export interface TrialSetting {
  readonly baud: number;
  readonly dataBits: 7 | 8;
  readonly parity: Extract<Parity, 'none' | 'even' | 'odd'>;
}

/** The bauds tried, most likely first: 9600 (the commonest reader default), the fast ones, then the slow. */
export const TRIAL_BAUDS = [9600, 115200, 19200, 38400, 57600, 4800, 2400, 1200] as const;
export const TRIAL_FORMATS: readonly Omit<TrialSetting, 'baud'>[] = [
  { dataBits: 8, parity: 'none' },
  { dataBits: 7, parity: 'even' },
  { dataBits: 7, parity: 'odd' },
];

/** Every trial setting, each baud's three formats together (the parity evidence compares them). */
export function trialSettings(bauds: readonly number[] = TRIAL_BAUDS): TrialSetting[] {
  return bauds.flatMap((baud) => TRIAL_FORMATS.map((format) => ({ baud, ...format })));
}

/** `9600 8N1`, `2400 7E1`. */
export function settingName(setting: TrialSetting): string {
  return `${setting.baud} ${setting.dataBits}${setting.parity === 'none' ? 'N' : setting.parity === 'even' ? 'E' : 'O'}1`;
}

/** The decoders tried with every framing: those that need no table or pattern of the device's own. */
const GENERAL_DECODERS: readonly DecoderConfig[] = [
  { kind: 'text' },
  { kind: 'suit-number' },
  { kind: 'index', ...DEFAULT_INDEX_OPTIONS },
  { kind: 'index', ...DEFAULT_INDEX_OPTIONS, base: 0 },
  { kind: 'uid', cards: {} },
];

/** The framings tried beside the built-ins' own. */
const GENERAL_FRAMINGS: readonly FramingConfig[] = [
  { kind: 'lines' },
  ...CHECKSUMS.flatMap((checksum): FramingConfig[] =>
    checksum === 'none' ? [{ kind: 'stx-etx', checksum }] : [{ kind: 'stx-etx', checksum }, { kind: 'stx-etx', checksum, checksumIncludesStx: true }],
  ),
  { kind: 'silence', idleMs: 50 },
];

/** A framing or decoder as a comparable key (the built-ins leave defaults out: `checksum` of stx-plain …). */
const keyOf = (value: object): string => JSON.stringify(Object.entries(value).filter(([, entry]) => entry !== undefined && !(typeof entry === 'object' && entry !== null && Object.keys(entry).length === 0)).sort(([a], [b]) => a.localeCompare(b)));

/** A decoder with a tag table of its own is tried without it: a new reader's tags are not in it. */
function general(decoder: DecoderConfig): DecoderConfig {
  return decoder.kind === 'uid' ? { ...decoder, cards: {} } : decoder;
}

/** The decoders that make sense after a framing: a built-in's own first, then the general ones. */
function decodersFor(own: readonly DecoderConfig[]): DecoderConfig[] {
  const seen = new Set<string>();
  return [...own.map(general), ...GENERAL_DECODERS].filter((decoder) => {
    const key = keyOf(decoder);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The candidate profiles, in the order they are preferred when they read equally well: the
 * built-ins by their names, then each framing (built-ins' first) with each decoder, named
 * `detected`. Their line settings are filled in by the setting they are tried at.
 */
export function candidateProfiles(builtIns: Readonly<Record<string, DeviceProfile>> = ALL_BUILT_IN_PROFILES): DeviceProfile[] {
  const candidates: DeviceProfile[] = [];
  const seen = new Set<string>();
  const add = (profile: DeviceProfile) => {
    const key = `${keyOf(profile.framing)}|${keyOf(general(profile.decoder))}`;
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push(profile.decoder.kind === 'uid' ? { ...profile, decoder: general(profile.decoder) } : profile);
  };
  for (const profile of Object.values(builtIns)) add(profile);
  const framings = new Map<string, { framing: FramingConfig; decoders: DecoderConfig[] }>();
  for (const framing of [...Object.values(builtIns).map((profile) => profile.framing), ...GENERAL_FRAMINGS]) {
    const key = keyOf(framing);
    const entry = framings.get(key) ?? { framing, decoders: [] };
    framings.set(key, entry);
  }
  for (const profile of Object.values(builtIns)) framings.get(keyOf(profile.framing))?.decoders.push(profile.decoder);
  for (const { framing, decoders } of framings.values()) {
    for (const decoder of decodersFor(decoders)) {
      add({ name: 'detected', baud: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false, framing, decoder, messages: DEFAULT_MESSAGES, repeatMs: 0, graceMs: 0, codeId: false });
    }
  }
  return candidates;
}
