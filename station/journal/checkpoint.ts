import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { COVER_BLOCK_BYTES, CoverHash, sameCover, type Cover } from '../../journal/coverHash';
import type { JournalFinding } from '../../journal/findings';
import { JournalReader, type ReaderState, type ReadOptions } from '../../journal/read';
import { Sealer, sealIn } from '../../journal/seal';
import type { Followers } from '../../replay/follower';
import { writeFileAtomically } from '../service/atomicWrite';
import { readChunks } from './chunks';

/**
 * A checkpoint of the journal's followers (the table's projection, the clock, the race spans...):
 * what they made of the journal up to one line, so that a start reads it and only the lines after
 * that one, however long the history behind it. It is anchored to that line (its place in the
 * file and its seal) and covers every byte up to it (their hashes, in blocks), with the reader's
 * own state there (the chain's end, the numbers, what was found), and is sealed as the journal's
 * lines are (HMAC under the journal's key, else SHA-256). A start that finds it damaged, made with
 * another key, or not matching the journal's bytes (stale: the journal cut back, edited, replaced)
 * says so and replays the whole journal, which gives the same state.
 */
export const CHECKPOINT_FILE = 'journal.checkpoint';
const CHECKPOINT_NAME = 'chip-race-console-checkpoint';
/**
 * The checkpoint's format; a checkpoint of another is stale (the next one replaces it). 2: the
 * floor decisions' follower keeps the races closed on the floor with their seqs (`closings`). 3:
 * the races' spans reach the floor's calls and decisions about them (station/service/raceSpans.ts).
 * 4: the floor's tournament and seating are journaled, and followed (station/service/floorFacts.ts).
 * 5: a journal with damaged lines is checkpointed too, the reader's state saying them (`runs`,
 * `accounted`, `unreadableSealed`), which a console of format 4 would not read. 6: the followers
 * are the table's projection (replay/tableProjection.ts TableProjection), whose colour-up status
 * reading is kept too (`colourUpReading`), and the floor's clock followed is journaled
 * (`floor-clock`) and kept by the clock's follower (station/service/clock.ts): a checkpoint of
 * format 5 has neither, so a start finds it stale and replays the whole journal once (then writes
 * one of format 6).
 */
const CHECKPOINT_FORMAT = 6;

/** At a quiet moment (a race confirmed, a start), a checkpoint is written once this many lines came after the last one. */
export const CHECKPOINT_EVERY_LINES = 2000;

interface CheckpointBody {
  readonly checkpoint: typeof CHECKPOINT_NAME;
  readonly format: number;
  /** The fingerprint of the key it is sealed with (null: SHA-256). */
  readonly keyId: string | null;
  /** The last line it covers: its seq, where it is, and its seal. */
  readonly anchor: { readonly seq: number; readonly start: number; readonly end: number; readonly seal: string };
  readonly cover: Cover;
  readonly reader: ReaderState;
  readonly followers: Readonly<Record<string, unknown>>;
}

export function checkpointPath(dataDir: string): string {
  return join(dataDir, CHECKPOINT_FILE);
}

/** Where a start goes on from: the reader at the anchor, and the followers' states to take up. */
export interface Resume<T> {
  readonly reader: JournalReader<T>;
  readonly from: number;
  readonly followers: Readonly<Record<string, unknown>>;
}

const damaged = (): JournalFinding => ({ code: 'checkpoint-damaged' });
const stale = (): JournalFinding => ({ code: 'checkpoint-stale' });

function isBody(value: unknown): value is CheckpointBody {
  const body = value as Partial<CheckpointBody> | null;
  return typeof body === 'object' && body !== null && body.checkpoint === CHECKPOINT_NAME && typeof body.anchor === 'object' && typeof body.cover === 'object' && typeof body.reader === 'object' && typeof body.followers === 'object' && body.followers !== null;
}

/**
 * The bytes a start from a checkpoint took on trust: the cover's whole blocks, before the block
 * the anchored line ends in, whose hashes the checkpoint holds. checkCover (station/journal/coverCheck.ts)
 * reads and compares them once the console is serving.
 */
export interface CoverToCheck {
  readonly journal: string;
  readonly blocks: readonly string[];
  readonly blockBytes: number;
}

/**
 * The checkpoint beside the journal, checked: its seal, its key, the anchored line's seal at its
 * place, and the bytes of the cover's last block (the one under way, up to the anchor) the same as
 * when it was written. The reader goes on from the cover taken up with the checkpoint's whole-block
 * hashes; those blocks' bytes are read and compared after the start (`toCheck`), so that a long
 * journal's start does not wait on hashing it all. No file: nothing to say. Anything else wrong: a
 * finding, and no resume.
 */
export async function loadCheckpoint<T>(
  path: string,
  journal: string,
  options: ReadOptions<T> & { readonly coverBlockBytes?: number },
): Promise<{ readonly resume: Resume<T> | null; readonly finding: JournalFinding | null; readonly toCheck: CoverToCheck | null }> {
  const refused = (finding: JournalFinding | null) => ({ resume: null, finding, toCheck: null });
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return refused(null);
    return refused(damaged());
  }
  const sealer = new Sealer(options.key ?? null);
  const end = bytes.length - 1;
  const seal = end > 0 && bytes[end] === 0x0a ? sealIn(bytes, 0, end) : null;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return refused(damaged());
  }
  if (seal === null || !isBody(body)) return refused(damaged());
  // Another key (or none now): its seal cannot be checked here, and the state it holds is another reader's.
  if (body.keyId !== sealer.keyId || body.format !== CHECKPOINT_FORMAT) return refused(stale());
  if (sealer.hash(bytes.subarray(0, seal.bodyEnd)) !== seal.stored) return refused(damaged());
  const blockBytes = options.coverBlockBytes ?? COVER_BLOCK_BYTES;
  const cover = await coverOf(journal, body.anchor, body.cover, blockBytes);
  if (cover === null || !sameCover(cover.cover(), body.cover)) return refused(stale());
  const toCheck = body.cover.blocks.length === 0 ? null : { journal, blocks: body.cover.blocks, blockBytes };
  return { resume: { reader: JournalReader.resume(body.reader, cover, options), from: body.anchor.end, followers: body.followers }, finding: null, toCheck };
}

/**
 * The cover taken up from the checkpoint's whole blocks and the journal's bytes of the block under
 * way (to the anchor) hashed again, when the anchored line is there with its seal and the cover's
 * shape fits the anchor (else null).
 */
async function coverOf(journal: string, anchor: CheckpointBody['anchor'], stored: Cover, blockBytes: number): Promise<CoverHash | null> {
  const { start, end } = anchor;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start) return null;
  if (stored.bytes !== end || !Array.isArray(stored.blocks) || stored.blocks.length !== Math.floor(end / blockBytes) || !stored.blocks.every((block) => typeof block === 'string')) return null;
  let file;
  try {
    file = await open(journal, 'r');
  } catch {
    return null;
  }
  try {
    if ((await file.stat()).size < end) return null;
    const line = Buffer.alloc(end - start);
    await file.read(line, 0, line.length, start);
    if (line[line.length - 1] !== 0x0a || sealIn(line, 0, line.length - 1)?.stored !== anchor.seal) return null;
    const cover = CoverHash.resume(stored.blocks, blockBytes);
    await readChunks(file, (chunk) => cover.update(chunk), stored.blocks.length * blockBytes, end);
    return cover.bytes === end ? cover : null;
  } finally {
    await file.close();
  }
}

/**
 * Writes the station's checkpoints: at a quiet moment (`due`), once enough lines came since the
 * last, what the reader (fed every line the writer appends) and the followers hold now, written
 * beside the journal by way of a temporary file, synced and renamed. Never more than one write at
 * a time; a newer checkpoint waiting replaces an older one. A write that fails changes nothing:
 * the start replays from the checkpoint before (or from the journal's start).
 */
export class Checkpoints {
  private writing: Promise<void> = Promise.resolve();
  private waiting: string | null = null;
  /** The reader's line count at the last checkpoint taken (or the one the start resumed from). */
  private lastLines: number;
  private readonly sealer: Sealer;

  constructor(
    private readonly path: string,
    private readonly reader: JournalReader<unknown>,
    private readonly followers: Followers,
    key: Buffer | null,
    private readonly every: number = CHECKPOINT_EVERY_LINES,
    resumedAtLine = 0,
  ) {
    this.sealer = new Sealer(key);
    this.lastLines = resumedAtLine;
  }

  /** A quiet moment: a checkpoint is taken when enough lines came since the last one. */
  due(): void {
    const state = this.reader.state();
    if (state === null || state.lineNumber - this.lastLines < this.every) return;
    this.take(state);
  }

  /** `due` once the moment's work is done (a start's last step: the start is not kept waiting for it). */
  dueSoon(): void {
    this.writing = this.writing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.due());
  }

  /** Until the checkpoints taken so far are on disk (or failed). */
  async settled(): Promise<void> {
    for (let last: Promise<void> | null = null; last !== this.writing; ) {
      last = this.writing;
      await last;
    }
  }

  private take(state: ReaderState): void {
    const anchor = this.reader.lastLine;
    const cover = this.reader.coverNow();
    const followers = this.followers.snapshot();
    if (anchor === null || cover === null || followers === null || anchor.seal !== state.prevHash || anchor.end !== state.offset) return;
    const body: CheckpointBody = { checkpoint: CHECKPOINT_NAME, format: CHECKPOINT_FORMAT, keyId: this.sealer.keyId, anchor: { seq: state.lastSeq, ...anchor }, cover, reader: state, followers };
    this.lastLines = state.lineNumber;
    const first = this.waiting === null;
    this.waiting = `${this.sealer.seal(body).text}\n`;
    if (!first) return;
    this.writing = this.writing.then(async () => {
      const text = this.waiting as string;
      this.waiting = null;
      // An optimisation only: a checkpoint that cannot be written leaves the one before in force.
      await writeFileAtomically(this.path, text).catch(() => undefined);
    });
  }
}
