import { basename, join } from 'node:path';
import { InputError } from '../../engine/errors';
import type { JournalFinding } from '../../journal/findings';
import { journalPath } from '../../journal/location';
import type { JournalNote } from '../../journal/read';
import { TABLE_NAME_MAX, type ConsoleSettings, type JournalReport } from '../../protocol/contract';
import { isTableName } from '../../protocol/tableName';
import { isSessionRecord, type SessionRecord } from '../../replay/session';
import { floorTargetOf } from '../floorLink/target';
import { loadJournalKey } from '../journal/key';
import { JournalWriter, scanJournal } from '../journal/journal';
import { COUNT_DRAFTS_FILE } from './countDrafts';
import { tightenDataFolder } from './dataFolder';
import { LOCK_FILE } from './dataLock';
import { stationFollowers, type StationFollowers } from './followers';
import { profileMissing, ProfileStore, PROFILES_FOLDER } from './profiles';
import type { ServiceOptions } from './serviceOptions';
import { loadSettings } from './settings';
import { SETTINGS_FILE } from './stationSettings';

/** What a station opens with: its journal read and replayed into the followers, its settings and profiles, what was found. */
export interface OpenedStation {
  /** null when the journal is read-only (a newer version's, or sealed with a key not given). */
  readonly journal: JournalWriter<SessionRecord> | null;
  readonly followers: StationFollowers;
  readonly settings: ConsoleSettings;
  readonly report: JournalReport;
  readonly lastSeq: number;
  readonly profiles: ProfileStore;
  /** The note a torn tail left to write (its bytes kept beside the journal), or null. */
  readonly tornNote: JournalNote | null;
  /** The key the journal is sealed with, if any. */
  readonly key: Buffer | null;
}

/**
 * Opens a station's data folder (prepared and locked by the caller): the environment's floor
 * checked, the journal read once, every line fed to the followers (the same registry every write
 * feeds), the settings and device profiles read, the writer opened after the last line (or none,
 * read-only), the folder's files closed to others, and everything found said as findings.
 */
export async function openStation(options: ServiceOptions): Promise<OpenedStation> {
    if (options.floor !== undefined) {
      // Never the URL itself in the refusal: it holds the station's password.
      if (floorTargetOf(options.floor.url, options.floor.table, 'environment') === null) throw new InputError('CHIP_RACE_DATABASE_URL', { key: 'settings.floorUrl' });
      if (!isTableName(options.floor.table)) throw new InputError('CHIP_RACE_TABLE', { key: 'settings.floorEnvTable', params: { n: TABLE_NAME_MAX } });
    }
    const path = journalPath(options.dataDir);
    const key = options.journalKey ?? (options.journalKeyFile === undefined ? null : await loadJournalKey(options.journalKeyFile, options.dataDir));
    const followers = stationFollowers(options.timers, options.followers);
    const scan = await scanJournal(path, { key, check: isSessionRecord, onLine: (line, _seal, span) => followers.registry.add(line, span) });
    const problems = followers.session.started();
    const { settings, problem, problemSaid } = await loadSettings(join(options.dataDir, SETTINGS_FILE));
    const profiles = await ProfileStore.load(options.dataDir);
    // A journal sealed with a key is continued only with that key: without it, it stays read-only.
    const keyProblem = scan.findings.find((finding) => finding.code === 'key-missing' || finding.code === 'key-wrong') ?? null;
    const readOnly = scan.readOnly ?? (scan.end.kind === 'hmac-sha256' ? keyProblem : null);
    const journal = readOnly === null ? await JournalWriter.open<SessionRecord>(path, scan, { clock: options.clock, monotonic: options.monotonic, key }) : null;
    // The journal just made (the journal opens it with the umask's mode) and whatever an older version
    // left readable by others: the folder itself was closed before anything in it was read.
    await tightenDataFolder(options.dataDir, { files: [basename(path), SETTINGS_FILE, LOCK_FILE, COUNT_DRAFTS_FILE], folders: [PROFILES_FOLDER] });
    const findings: JournalFinding[] = [
      ...scan.findings,
      ...problems,
      ...(problem ? [{ code: 'settings', message: problem, ...(problemSaid ? { said: problemSaid } : {}) } as const] : []),
      ...profiles.findings,
      ...(profiles.has(settings.source.decoder) ? [] : [profileMissing(settings.source.decoder)]),
    ];
    const report: JournalReport = { path, records: scan.records, findings, chain: scan.chain, unchained: scan.unchained, unchainedThrough: scan.unchainedThrough, readOnly };
    return { journal, followers, settings, report, lastSeq: scan.lastSeq, profiles, tornNote: scan.tornNote, key };
}
