import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { JournalFinding } from '../../journal/findings';
import { JournalEncoder, type HeaderFields } from '../../journal/encoder';
import { damagedSeq, JournalReader, seqPrefix, type JournalLine, type JournalNote, type JournalReading, type ReadOptions } from '../../journal/read';
import { Sealer, sha256 } from '../../journal/seal';
import { readChunks } from './chunks';

/** A journal as the console opens it: what was read, and what was done to the file to go on writing. */
export interface JournalScan extends JournalReading {
  /** The torn tail cut off at this start and where its bytes were kept, or null. */
  readonly tornNote: JournalNote | null;
}

/** The file open for reading, or null when there is none (an empty journal). */
async function openToRead(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Reads the file into `reader` from `from` on, a chunk at a time (never the whole file in one
 * buffer: a journal may be larger than any buffer), and what it found. A missing file is empty.
 */
export async function readInto<T>(path: string, reader: JournalReader<T>, from = 0): Promise<JournalReading> {
  const file = await openToRead(path);
  if (file !== null) {
    try {
      await readChunks(file, (chunk) => reader.push(chunk), from);
    } finally {
      await file.close();
    }
  }
  return reader.finish();
}

/** Writes `bytes` to a new file (never over an existing one) and makes it durable. */
async function writeNewFile(path: string, bytes: Uint8Array): Promise<void> {
  const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** Keeps the torn bytes as `journal.jsonl.torn-1` (then -2, …): evidence is never destroyed. */
async function keepTornBytes(path: string, bytes: Buffer): Promise<string> {
  for (let number = 1; ; number += 1) {
    const copy = `${path}.torn-${number}`;
    try {
      await writeNewFile(copy, bytes);
      await syncDirectory(dirname(path));
      return basename(copy);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Reads a journal file for the console, handing each record to `onLine` as it is read. A last
 * line cut off by a crash (no newline) is not part of the journal: its bytes are copied beside
 * the journal, then cut from it, so appends continue after the last whole line; the finding says
 * where the copy is. Where no copy can be made (a full or read-only disk), nothing is cut: the
 * writer ends the torn line with a newline before its first record, so the bytes stay in place as
 * a line of their own. Damage and tampering anywhere else are reported and left in the file.
 * Nothing is changed in a journal that must stay read-only (a newer version wrote it).
 */
export async function scanJournal<T>(path: string, options: ReadOptions<T> & { readonly cover?: boolean }, resumed?: { readonly reader: JournalReader<T>; readonly from: number }): Promise<JournalScan & { readonly reader: JournalReader<T> }> {
  const reader = resumed?.reader ?? new JournalReader(options);
  const reading = await readInto(path, reader, resumed?.from);
  const scanned = await keepTorn(path, reading);
  // Cut off, the torn bytes are no longer in the file the reader reads on from (the writer's appends).
  if (scanned.tornNote !== null && scanned.tornNote.savedAs !== null) reader.dropTorn();
  return { ...scanned, reader };
}

/** The torn tail a scan found, copied beside the journal and cut from it (see scanJournal). */
async function keepTorn(path: string, reading: JournalReading): Promise<JournalScan> {
  if (reading.torn === null || reading.readOnly !== null) return { ...reading, tornNote: null };
  let savedAs: string | null = null;
  try {
    savedAs = await keepTornBytes(path, reading.torn);
    const file = await open(path, 'r+');
    try {
      await file.truncate(reading.wholeLength);
      await file.sync();
    } finally {
      await file.close();
    }
  } catch {
    // No room (or no right) for the copy: the evidence stays where it is.
    savedAs = null;
  }
  const finding: JournalFinding = { code: 'torn-tail', bytes: reading.torn.length, savedAs };
  const tornNote: JournalNote = { kind: 'journal', note: 'torn-tail', bytes: reading.torn.length, savedAs, sha256: sha256(reading.torn) };
  // Kept in place, the torn bytes become a line of their own once the next record ends them, and
  // take their number as any damaged line does: the next record is numbered after it.
  const lastSeq = savedAs === null ? damagedSeq(seqPrefix(reading.torn, 0, reading.torn.length), reading.lastSeq) : reading.lastSeq;
  return { ...reading, lastSeq, findings: [finding, ...reading.findings], tornNote };
}

/** Reads a whole journal file into memory, without changing it: for tests and tools. */
export async function readJournal<T>(path: string, check: (record: unknown) => record is T, key: Buffer | null = null): Promise<{ lines: JournalLine<T>[]; reading: JournalReading }> {
  const lines: JournalLine<T>[] = [];
  const reading = await readInto(path, new JournalReader({ check, key, onLine: (line) => lines.push(line) }));
  return { lines, reading };
}

export interface WriterOptions {
  readonly clock?: () => Date;
  /** Milliseconds that only go forward (performance.now): kept beside the wall clock in every line. */
  readonly monotonic?: () => number;
  /** Seals with HMAC-SHA256 under this key instead of SHA-256. */
  readonly key?: Buffer | null;
  /** Told the exact bytes of each append once they are on disk (the start's reader reads on with them, for checkpoints). */
  readonly written?: (bytes: Uint8Array) => void;
}

/**
 * An append-only, sealed JSON-lines file. Each append is written and fsynced before its promise
 * resolves, so whatever the screen shows is already on disk; appends are queued so lines never
 * interleave. Every line carries the hash of the line before it and its own seal (see seal.ts),
 * the wall clock (`at`), and this run's id with the milliseconds since it started (`run`, `t`),
 * so a clock set back shows as such. The first line of a journal is its header; a journal of the
 * old, unsealed format gets a header after its last line, anchoring those lines by their hash.
 *
 * A record is on disk whole or not at all. A write the disk refuses part-way (full, failing) is
 * not taken for done: the append rejects, and the part of the line that did reach the file is
 * cut off again, so the file holds exactly the records whose appends resolved. Should even that
 * fail, the writer refuses every later append rather than write after a broken line.
 */
export class JournalWriter<T> {
  private queue: Promise<unknown> = Promise.resolve();
  private damaged: Error | null = null;
  private readonly started: number;
  /** The file ends inside a line (a torn tail kept in place): the next write starts with a newline. */
  private endTornLine = false;

  private constructor(
    private readonly file: FileHandle,
    private readonly encoder: JournalEncoder,
    /** The file's length: where the next record starts, and where a failed one is cut back to. */
    private size: number,
    private readonly clock: () => Date,
    private readonly monotonic: () => number,
    private readonly written: (bytes: Uint8Array) => void,
  ) {
    this.started = monotonic();
  }

  /**
   * Opens the journal to append after what `reading` found in it (its last seq and last hash).
   * The chain goes on as it was, or a header starts it: for a new file, for lines of the old
   * format, or when the kind of seal changes (a key given or taken away).
   */
  static async open<T>(path: string, reading: Pick<JournalReading, 'lastSeq' | 'end' | 'unchained' | 'readOnly'> | null, options: WriterOptions = {}): Promise<JournalWriter<T>> {
    if (reading?.readOnly) throw new Error('the journal is read-only: it was written by a newer version');
    const sealer = new Sealer(options.key ?? null);
    // Appending (O_APPEND), and reading: to see whether the file ends inside a line.
    const file = await open(path, 'a+');
    const size = (await file.stat()).size;
    const end = reading?.end ?? { kind: null, keyId: null, lastHash: null };
    let header: HeaderFields | null = null;
    if (end.kind === 'hmac-sha256' && (sealer.kind !== 'hmac-sha256' || end.keyId !== sealer.keyId)) {
      // Sealed with a key: going on without it (or with another) would loosen the seal.
      throw new Error('the journal is sealed with a key this console was not given: it stays read-only');
    }
    const endsInLine = size > 0 && (await lastByte(file, size)) !== 0x0a;
    if (end.kind === null) {
      // A new journal, or one of the old format: the header anchors whatever is already there
      // (with the newline that ends a torn line kept in place, as the header will follow it).
      const anchored = size > 0 && (reading?.unchained ?? 0) > 0 ? await anchorOf(file, endsInLine) : undefined;
      header = JournalEncoder.headerOf(sealer, anchored);
    } else if (end.kind !== sealer.kind || end.keyId !== sealer.keyId) {
      header = JournalEncoder.headerOf(sealer);
    }
    const encoder = new JournalEncoder(sealer, reading?.lastSeq ?? 0, end.lastHash, header);
    const writer = new JournalWriter<T>(file, encoder, size, options.clock ?? (() => new Date()), options.monotonic ?? (() => performance.now()), options.written ?? (() => undefined));
    // A torn last line that could not be cut off (no copy could be kept): end it, so the next record starts a line.
    writer.endTornLine = endsInLine;
    return writer;
  }

  /** Appends a record; resolves with its line once it is on disk, and where that line is in the file. */
  append<R extends T | JournalNote>(record: R): Promise<JournalLine<R> & { readonly span: { readonly start: number; readonly end: number } }> {
    const write = this.queue.then(async () => {
      if (this.damaged) throw this.damaged;
      const at = this.clock().toISOString();
      const encoded = this.encoder.encode(at, Math.round(this.monotonic() - this.started), record);
      const bytes = Buffer.from(this.endTornLine ? `\n${encoded.text}` : encoded.text);
      try {
        // appendFile, unlike write, goes on after a short write until every byte is written or
        // the disk refuses with an error (ENOSPC).
        await this.file.appendFile(bytes);
        await this.file.sync();
      } catch (error) {
        try {
          await this.file.truncate(this.size);
          await this.file.sync();
        } catch (repair) {
          this.damaged = Object.assign(new Error(`the journal could not be repaired after a failed write (${(repair as Error).message}); restart the console`), {
            code: (repair as NodeJS.ErrnoException).code,
          });
        }
        throw error;
      }
      const span = { start: this.size + bytes.length - encoded.lineBytes, end: this.size + bytes.length };
      this.size += bytes.length;
      this.endTornLine = false;
      this.encoder.commit(encoded);
      this.written(bytes);
      return { seq: encoded.seq, at, record, span };
    });
    // A failed append (disk full) must not block the ones after it from reporting their own outcome.
    this.queue = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.file.close();
  }
}

/** SHA-256 of the file's bytes (a chunk at a time), and of the newline a torn last line will get. */
async function anchorOf(file: FileHandle, endsInLine: boolean): Promise<string> {
  const hash = createHash('sha256');
  await readChunks(file, (chunk) => hash.update(chunk));
  if (endsInLine) hash.update('\n');
  return hash.digest('hex');
}

async function lastByte(file: FileHandle, size: number): Promise<number | undefined> {
  const byte = Buffer.alloc(1);
  await file.read(byte, 0, 1, size - 1);
  return byte[0];
}
