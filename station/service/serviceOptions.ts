import type { PortInfo } from '../../protocol/contract';
import type { JournalFollower } from '../../replay/follower';
import type { FloorLinkTiming } from '../floorLink/link';
import type { CardSourceFactory } from './cardSource';
import type { ClockTimers } from './clock';
import type { ChooseExportFile } from './historyCommands';
import type { ReaderDetector } from './readerDetection';

/** How a station is started: its data folder, and what tests and the app set otherwise. */
export interface ServiceOptions {
  readonly dataDir: string;
  readonly clock?: () => Date;
  /** Milliseconds that only go forward, kept in every journal line beside the wall clock. */
  readonly monotonic?: () => number;
  /** The key that seals the journal with HMAC-SHA256 (kept outside the data folder), or none. */
  readonly journalKey?: Buffer | null;
  /** The file to read that key from (CHIP_RACE_JOURNAL_KEY), when `journalKey` is not given. */
  readonly journalKeyFile?: string;
  /** How the dealer chooses another data folder where this runs, in words (for the refusal of an unusable one). */
  readonly chooseAnotherFolder?: string;
  /** How long a run of identical refusals is counted in memory before its count is written. */
  readonly repeatFlushMs?: number;
  /** Distinct refusals written one by one per input source before they are only counted (REFUSAL_BURST), and how often one more is (REFUSAL_REFILL_MS). */
  readonly refusalBurst?: number;
  readonly refusalRefillMs?: number;
  readonly cardSources?: CardSourceFactory;
  readonly listPorts?: () => Promise<readonly PortInfo[]>;
  /** "Find the settings for this reader" (hardware/detect's listening on the real port unless given). */
  readonly detectReader?: ReaderDetector;
  /** Pace of the simulated shoe (tests deal faster). */
  readonly simulatedCardMs?: number;
  /** The station's name kept with each race (the dealer's station in the history): the computer's host name unless given. */
  readonly station?: string;
  /** The tournament clock's one timer (tests fire it themselves); its time is `clock`'s. */
  readonly timers?: ClockTimers;
  /** The floor link CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE set up: over the settings' floor and table name. */
  readonly floor?: { readonly url: string; readonly table: string };
  /** The floor link's waits (tests make them short). */
  readonly floorTiming?: Partial<FloorLinkTiming>;
  /** More journal followers, fed on start and live exactly as the console's own (station/service/followers.ts). */
  readonly followers?: readonly JournalFollower[];
  /** Lines between two checkpoints of the followers (station/journal/checkpoint.ts; tests make it small). */
  readonly checkpointEvery?: number;
  /** The bytes one hash of a checkpoint's cover covers (journal/coverHash.ts): tests make it small, to have whole blocks in a small journal. */
  readonly coverBlockBytes?: number;
  /** Where the dealer saves an export (Electron's save dialog, station/electron/index.ts); none (browser mode): the page downloads it instead. */
  readonly chooseExportFile?: ChooseExportFile;
}
