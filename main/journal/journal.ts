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

/**
 * Reads a journal file. A last line cut off by a crash is discarded, reported and trimmed from the
 * file so appends continue cleanly; a corrupt line in the middle is reported and skipped but left
 * in the file as evidence. `check` refuses records of the wrong shape.
 */
export async function readJournal<T>(path: string, check: (record: unknown) => record is T): Promise<JournalReplay<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], problems: [] };
    throw error;
  }
  const problems: string[] = [];
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    problems.push(`the last record was cut off (${Buffer.byteLength(text.slice(end))} bytes, probably a crash while writing) and was discarded`);
    await truncate(path, Buffer.byteLength(text.slice(0, end)));
  }
  const lines: JournalLine<T>[] = [];
  text
    .slice(0, end)
    .split('\n')
    .forEach((raw, index) => {
      if (raw.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        problems.push(`line ${index + 1} is not valid JSON and was skipped`);
        return;
      }
      if (!isLine(parsed) || !check(parsed.record)) {
        problems.push(`line ${index + 1} is not a journal record and was skipped`);
        return;
      }
      lines.push(parsed as JournalLine<T>);
    });
  return { lines, problems };
}

/**
 * An append-only JSON-lines file. Each append is written and fsynced before its promise resolves,
 * so whatever the screen shows is already on disk; appends are queued so lines never interleave.
 */
export class JournalWriter<T> {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: FileHandle,
    private seq: number,
    private readonly clock: () => Date,
  ) {}

  static async open<T>(path: string, lastSeq: number, clock: () => Date = () => new Date()): Promise<JournalWriter<T>> {
    return new JournalWriter<T>(await open(path, 'a'), lastSeq, clock);
  }

  append(record: T): Promise<JournalLine<T>> {
    const write = this.queue.then(async () => {
      const line: JournalLine<T> = { seq: this.seq + 1, at: this.clock().toISOString(), record };
      await this.file.write(`${JSON.stringify(line)}\n`);
      await this.file.sync();
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
