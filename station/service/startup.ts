import { basename, join } from 'node:path';
import { InputError } from '../../engine/errors';
import type { JournalFinding } from '../../journal/findings';
import { journalPath } from '../../journal/location';
import type { JournalLine, JournalNote, JournalReader } from '../../journal/read';
import { TABLE_NAME_MAX, type ConsoleSettings, type JournalReport } from '../../protocol/contract';
import { isTableName } from '../../protocol/tableName';
import { isSessionRecord, type SessionRecord } from '../../replay/session';
import { floorUrlProblem } from '../floorLink/target';
import { loadJournalKey } from '../journal/key';
import { JournalWriter, scanJournal } from '../journal/journal';
import { Checkpoints, checkpointPath, loadCheckpoint, type CoverToCheck } from '../journal/checkpoint';
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
  /** Whether the start read on from a checkpoint (station/journal/checkpoint.ts) rather than from the journal's first line. */
  readonly fromCheckpoint: boolean;
  /** The checkpoint's whole blocks the start took on trust, to check while the console serves (station/journal/coverCheck.ts); null: none. */
  readonly coverToCheck: CoverToCheck | null;
}

/**
 * Reads the journal into a fresh set of followers: from the checkpoint on when there is a good one
 * (its states taken up, then the lines after it), else every line. A checkpoint that cannot be
 * used is a finding, and the followers start afresh for the whole journal.
 */
async function readJournalInto(options: ServiceOptions, path: string, key: Buffer | null) {
  let followers = stationFollowers(path, options.timers, options.followers);
  const read = { key, coverBlockBytes: options.coverBlockBytes, check: isSessionRecord, onLine: (line: JournalLine<SessionRecord>, _seal: string | null, span: { readonly start: number; readonly end: number }) => followers.registry.add(line, span) };
  const loaded = await loadCheckpoint(checkpointPath(options.dataDir), path, read);
  let checkpointFinding = loaded.finding;
  let resume = loaded.resume;
  if (resume !== null) {
    try {
      followers.registry.restore(resume.followers);
    } catch {
      checkpointFinding = { code: 'checkpoint-damaged' };
      resume = null;
      followers = stationFollowers(path, options.timers, options.followers);
    }
  }
  const resumedAtLine = resume?.reader.lines ?? 0;
  const scan = await scanJournal(path, { ...read, cover: true }, resume ?? undefined);
  return { followers, scan: { ...scan, resumedAtLine }, checkpointFinding, fromCheckpoint: resume !== null, coverToCheck: resume === null ? null : loaded.toCheck };
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
      const problem = floorUrlProblem(options.floor.url);
      if (problem !== null) throw new InputError('CHIP_RACE_DATABASE_URL', problem);
      if (!isTableName(options.floor.table)) throw new InputError('CHIP_RACE_TABLE', { key: 'settings.floorEnvTable', params: { n: TABLE_NAME_MAX } });
    }
    const path = journalPath(options.dataDir);
    const key = options.journalKey ?? (options.journalKeyFile === undefined ? null : await loadJournalKey(options.journalKeyFile, options.dataDir));
    const { followers, scan, checkpointFinding, fromCheckpoint, coverToCheck } = await readJournalInto(options, path, key);
    const problems = followers.session.started();
    const { settings, problem, problemSaid } = await loadSettings(join(options.dataDir, SETTINGS_FILE));
    const profiles = await ProfileStore.load(options.dataDir);
    // A journal sealed with a key is continued only with that key: without it, it stays read-only.
    const keyProblem = scan.findings.find((finding) => finding.code === 'key-missing' || finding.code === 'key-wrong') ?? null;
    const readOnly = scan.readOnly ?? (scan.end.kind === 'hmac-sha256' ? keyProblem : null);
    // The reader reads on with every append (for the checkpoints), the followers fed by the kernel from now on.
    scan.reader.onLine = undefined;
    const journal = readOnly === null ? await JournalWriter.open<SessionRecord>(path, scan, { clock: options.clock, monotonic: options.monotonic, key, written: (bytes) => scan.reader.push(bytes) }) : null;
    if (journal !== null) {
      const checkpoints = new Checkpoints(checkpointPath(options.dataDir), scan.reader as JournalReader<unknown>, followers.registry, key, options.checkpointEvery, scan.resumedAtLine);
      followers.checkpoint = checkpoints;
      // Just started, nothing under way yet: a quiet moment, after a long replay worth keeping.
      checkpoints.dueSoon();
    }
    // The journal just made (the journal opens it with the umask's mode) and whatever an older version
    // left readable by others: the folder itself was closed before anything in it was read.
    await tightenDataFolder(options.dataDir, { files: [basename(path), SETTINGS_FILE, LOCK_FILE, COUNT_DRAFTS_FILE], folders: [PROFILES_FOLDER] });
    const findings: JournalFinding[] = [
      ...(checkpointFinding === null ? [] : [checkpointFinding]),
      ...scan.findings,
      ...problems,
      ...(problem ? [{ code: 'settings', message: problem, ...(problemSaid ? { said: problemSaid } : {}) } as const] : []),
      ...profiles.findings,
      ...(profiles.has(settings.source.decoder) ? [] : [profileMissing(settings.source.decoder)]),
    ];
    const report: JournalReport = { path, records: scan.records, findings, chain: scan.chain, unchained: scan.unchained, unchainedThrough: scan.unchainedThrough, readOnly };
    return { journal, followers, settings, report, lastSeq: scan.lastSeq, profiles, tornNote: scan.tornNote, key, fromCheckpoint, coverToCheck };
}
