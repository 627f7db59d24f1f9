import { open, readFile, truncate, type FileHandle } from 'node:fs/promises';

/** A journal line: a sequence number, when it was written, and the record itself. */
export interface JournalLine<T> {
  readonly seq: number;
  readonly at: string;
  readonly record: T;
}

export interface JournalReplay<T> {
  readonly lines: readonly JournalLine<T>[];
  /** What was wrong with the file, in words for the floor supervisor; empty when it was clean. */
  readonly problems: readonly string[];
}

function isLine(value: unknown): value is JournalLine<unknown> {
  const line = value as Partial<JournalLine<unknown>> | null;
  return typeof line === 'object' && line !== null && Number.isSafeInteger(line.seq) && typeof line.at === 'string' && line.record !== undefined;
}

/** What reading a journal found besides its records. */
export interface JournalScan {
  /** Records read (lines that were whole, valid and of the right shape). */
  readonly records: number;
  /** The sequence number of the last record read; 0 for an empty journal. */
  readonly lastSeq: number;
  /** What was wrong with the file, in words for the floor supervisor; empty when it was clean. */
  readonly problems: readonly string[];
}

/**
 * Reads a journal file, handing each record to `onLine` as it is parsed, so a long journal is never
 * held in memory twice (as text and as parsed lines). A last line cut off by a crash is discarded,
 * reported and trimmed from the file so appends continue cleanly; a corrupt line in the middle is
 * reported and skipped but left in the file as evidence. `check` refuses records of the wrong shape.
 */
export async function scanJournal<T>(path: string, check: (record: unknown) => record is T, onLine: (line: JournalLine<T>) => void): Promise<JournalScan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: 0, lastSeq: 0, problems: [] };
    throw error;
  }
  const problems: string[] = [];
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    problems.push(`the last record was cut off (${Buffer.byteLength(text.slice(end))} bytes, probably a crash while writing) and was discarded`);
    await truncate(path, Buffer.byteLength(text.slice(0, end)));
  }
  let records = 0;
  let lastSeq = 0;
  let lineNumber = 0;
  for (let start = 0; start < end; ) {
    const newline = text.indexOf('\n', start);
    const raw = text.slice(start, newline);
    start = newline + 1;
    lineNumber += 1;
    if (raw.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      problems.push(`line ${lineNumber} is not valid JSON and was skipped`);
      continue;
    }
    if (!isLine(parsed) || !check(parsed.record)) {
      problems.push(`line ${lineNumber} is not a journal record and was skipped`);
      continue;
    }
    records += 1;
    lastSeq = parsed.seq;
    onLine(parsed as JournalLine<T>);
  }
  return { records, lastSeq, problems };
}

/** Reads a whole journal file into memory (as `scanJournal` reads it): for tests and tools. */
export async function readJournal<T>(path: string, check: (record: unknown) => record is T): Promise<JournalReplay<T>> {
  const lines: JournalLine<T>[] = [];
  const { problems } = await scanJournal(path, check, (line) => lines.push(line));
  return { lines, problems };
}

/**
 * An append-only JSON-lines file. Each append is written and fsynced before its promise resolves,
 * so whatever the screen shows is already on disk; appends are queued so lines never interleave.
 *
 * A record is on disk whole or not at all. A write the disk refuses part-way (full, failing) is
 * not taken for done: the append rejects, and the part of the line that did reach the file is
 * cut off again, so the file holds exactly the records whose appends resolved. Should even that
 * fail, the writer refuses every later append rather than write after a broken line.
 */
export class JournalWriter<T> {
  private queue: Promise<unknown> = Promise.resolve();
  private damaged: Error | null = null;

  private constructor(
    private readonly file: FileHandle,
    private seq: number,
    /** The file's length: where the next record starts, and where a failed one is cut back to. */
    private size: number,
    private readonly clock: () => Date,
  ) {}

  static async open<T>(path: string, lastSeq: number, clock: () => Date = () => new Date()): Promise<JournalWriter<T>> {
    const file = await open(path, 'a');
    return new JournalWriter<T>(file, lastSeq, (await file.stat()).size, clock);
  }

  append(record: T): Promise<JournalLine<T>> {
    const write = this.queue.then(async () => {
      if (this.damaged) throw this.damaged;
      const line: JournalLine<T> = { seq: this.seq + 1, at: this.clock().toISOString(), record };
      const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
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
      this.size += bytes.length;
      this.seq = line.seq;
      return line;
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
