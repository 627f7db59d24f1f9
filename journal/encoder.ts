import { randomBytes } from 'node:crypto';
import { JOURNAL_NAME, JOURNAL_VERSION, type JournalHeader } from './lineKind';
import { Sealer } from './seal';

export type HeaderFields = Omit<JournalHeader, 'prev' | 'created'>;

/**
 * The bytes of journal lines: each record numbered, timed and sealed, linked to the line before,
 * with the header first where one is due. The writer encodes with it, and so does anything that
 * must produce a journal exactly as the writer would (the benchmarks' long journals).
 */
export class JournalEncoder {
  constructor(
    private readonly sealer: Sealer,
    private seq: number,
    private prev: string | null,
    /** The header still to write before the next record (a new journal, or one sealed afresh). */
    private header: HeaderFields | null,
    /** This run's id: lines of one run share it, and their `t` only goes forward. */
    readonly run: string = randomBytes(4).toString('hex'),
  ) {}

  /** A new journal's encoder: its header comes first. */
  static fresh(key: Buffer | null = null): JournalEncoder {
    const sealer = new Sealer(key);
    return new JournalEncoder(sealer, 0, null, JournalEncoder.headerOf(sealer));
  }

  static headerOf(sealer: Sealer, anchor?: string): HeaderFields {
    return { journal: JOURNAL_NAME, version: JOURNAL_VERSION, chain: sealer.kind, ...(sealer.keyId === null ? {} : { keyId: sealer.keyId }), ...(anchor === undefined ? {} : { anchor }) };
  }

  /** The text (with newlines) of the next record, without taking it: `commit` does once it is on disk. */
  encode(at: string, t: number, record: unknown): { readonly text: string; readonly seq: number; readonly hash: string; readonly lineBytes: number } {
    let text = '';
    let prev = this.prev;
    if (this.header !== null) {
      const header = this.sealer.seal({ ...this.header, created: at, prev });
      text += `${header.text}\n`;
      prev = header.hash;
    }
    const seq = this.seq + 1;
    if (!Number.isSafeInteger(seq)) throw new Error(`the journal's sequence numbers are used up (the last is ${this.seq}): start a new journal`);
    const line = this.sealer.seal({ seq, at, run: this.run, t, prev, record });
    return { text: `${text}${line.text}\n`, seq, hash: line.hash, lineBytes: Buffer.byteLength(line.text) + 1 };
  }

  /** The encoded record is written: the next one follows it. */
  commit(encoded: { readonly seq: number; readonly hash: string }): void {
    this.seq = encoded.seq;
    this.prev = encoded.hash;
    this.header = null;
  }

  /** Encodes and commits at once, for journals made in memory. */
  next(at: string, t: number, record: unknown): string {
    const encoded = this.encode(at, t, record);
    this.commit(encoded);
    return encoded.text;
  }
}
