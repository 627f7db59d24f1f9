import { createHash, type Hash } from 'node:crypto';
import type { ChainStatus, JournalFinding } from './findings';
import { CoverHash, type Cover } from './coverHash';
import { damagedSeq, JOURNAL_VERSION, kindOfLine, seqPrefix, type LineKind, type RawLine } from './lineKind';
import { fastRecordLine } from './linePrefix';
import { findingSeq, orderFindings, PlacedRecords } from './order';
import { isJournalNote, type JournalLine, type JournalNote, type JournalReading, type ReaderState, type ReadOptions } from './reading';
import { Sealer, sealIn, sha256, trailingSeal, type ChainKind } from './seal';

/**
 * Reads a journal's bytes as they come (a file in chunks, a writer's appends), line by line,
 * checking every seal and link, the sequence numbers and the order, and hands each record to
 * `onLine` as it goes. Works on bytes, never on decoded text, so an invalid byte cannot move a line
 * boundary; a line cut between two chunks is carried to the next. Nothing is thrown for damage: it
 * is all in the findings `finish` gives, which may be asked for and read on after.
 */
export class JournalReader<T> {
  private readonly key: Buffer | null;
  private readonly check: (record: unknown) => record is T;
  onLine: ReadOptions<T>['onLine'];
  private findings: JournalFinding[] = [];
  private notes: JournalLine<JournalNote>[] = [];
  private sealer: Sealer | null = null;
  private kind: ChainKind | null = null;
  private keyIdInForce: string | null = null;
  /** The key an HMAC chain was first sealed with: a later header may not loosen the seal (to SHA-256, or another key). */
  private hmacKeyId: string | null = null;
  private sealsCheckable = true;
  private headerSeen = false;
  private prevHash: string | null = null;
  /** False right after a line that could not be read: the next link cannot be checked. */
  private prevKnown = true;
  private version = 1;
  private unchained = 0;
  private firstUnchainedSeq = 0;
  private unchainedThrough = 0;
  private looksLikeJournal = false;
  private readOnly: JournalFinding | null = null;
  private lastAt = '';
  /** The highest seq of any line so far, damaged or not: the next record is numbered after it. */
  private lastSeq = 0;
  /** The seq of the last line with one (a damaged line's as damagedSeq gives it). */
  private lineSeq = 0;
  private records = 0;
  private placed = new PlacedRecords();
  /** The seqs placed so far, made only once a seq comes that is not above all before it. */
  private seen: Set<number> | null = null;
  private highestPlaced = 0;
  /** Numbers probably held by lines that could not be read: reported as unreadable, not as missing. */
  private readonly accounted = new Set<number>();
  private tampered: JournalFinding[] = [];
  /** Lines of the sealed part that could not be read: damage, unless a torn-tail note explains them. */
  private readonly unreadableSealed: Array<{ finding: JournalFinding & { code: 'unreadable' | 'not-a-record' }; seq: number; line: number; sha256: string }> = [];
  private missingHeader = false;
  private lineNumber = 0;
  /** Bytes pushed so far. */
  private offset = 0;
  /** The last line read, when it is sealed: what a checkpoint after it is anchored to. */
  private lastSeal: string | null = null;
  /** Where it is in the file (kept as numbers: no object made a line). */
  private lastStart = 0;
  private lastEnd = 0;
  /** A line begun in one chunk and not yet ended. */
  private carry: Buffer | null = null;
  /** SHA-256 of every byte before the first header (its `anchor`), while there is none yet. */
  private beforeHeader: Hash | null = createHash('sha256');
  /** The whole lines read, in blocks (what a checkpoint covers), when asked for. */
  private cover: CoverHash | null;

  constructor(options: ReadOptions<T> & { readonly cover?: boolean; readonly coverBlockBytes?: number }) {
    this.key = options.key ?? null;
    this.check = options.check;
    this.onLine = options.onLine;
    this.cover = options.cover === true ? new CoverHash(options.coverBlockBytes) : null;
  }

  /**
   * A reader that goes on from a checkpoint's state: `cover` has hashed the bytes up to
   * `state.offset` (the start checks them against the checkpoint's cover while it makes it).
   */
  static resume<T>(state: ReaderState, cover: CoverHash, options: ReadOptions<T>): JournalReader<T> {
    const reader = new JournalReader<T>(options);
    const { inOrder, runs, accounted, unreadableSealed, findings, tampered, notes, offset, ...fields } = state;
    Object.assign(reader, fields);
    reader.offset = offset;
    reader.placed = new PlacedRecords(inOrder, runs);
    for (const seq of accounted ?? []) reader.accounted.add(seq);
    reader.unreadableSealed.push(...(unreadableSealed ?? []).map((entry) => ({ ...entry, finding: { ...entry.finding } })));
    reader.findings = [...findings];
    reader.tampered = [...tampered];
    reader.notes = [...notes];
    reader.headerSeen = true;
    reader.beforeHeader = null;
    reader.cover = cover;
    reader.sealer = reader.kind === 'sha256' ? new Sealer(null) : reader.key === null ? null : new Sealer(reader.key);
    return reader;
  }

  /** The next bytes of the journal. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const base = this.offset;
    let from = 0;
    const carried = this.carry;
    if (carried !== null) {
      // Only the line cut between the chunks is joined (a copy of it alone, not of the chunk).
      const newline = bytes.indexOf(0x0a);
      if (newline < 0) {
        this.carry = Buffer.concat([carried, bytes]);
        this.offset += bytes.length;
        return;
      }
      this.carry = null;
      this.readLines(Buffer.concat([carried, bytes.subarray(0, newline + 1)]), 0, base - carried.length);
      from = newline + 1;
    }
    const start = this.readLines(bytes, from, base);
    this.carry = start < bytes.length ? Buffer.from(bytes.subarray(start)) : null;
    this.offset += bytes.length;
  }

  /**
   * Reads the whole lines of `bytes` from `from` on (`base`: where `bytes` starts in the file), and
   * gives where the first line not ended starts.
   */
  private readLines(bytes: Buffer, from: number, base: number): number {
    let start = from;
    let hashed = from;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline < 0) break;
      if (this.beforeHeader !== null && !this.headerSeen) {
        // Only a header needs the bytes before it hashed (its anchor); a line is hashed once.
        this.beforeHeader.update(bytes.subarray(hashed, start));
        hashed = start;
      }
      this.line(bytes, start, newline, base);
      start = newline + 1;
    }
    if (this.beforeHeader !== null) {
      if (this.headerSeen) this.beforeHeader = null;
      else this.beforeHeader.update(bytes.subarray(hashed, start));
    }
    this.cover?.update(bytes.subarray(from, start));
    return start;
  }

  /** Forgets the bytes after the last newline (the file was cut back to its whole lines). */
  dropTorn(): void {
    if (this.carry === null) return;
    this.offset -= this.carry.length;
    this.carry = null;
  }

  /** Where the whole lines end: the offset the next line starts at. */
  get wholeLength(): number {
    return this.offset - (this.carry?.length ?? 0);
  }

  /** The lines read so far (blank and damaged ones too). */
  get lines(): number {
    return this.lineNumber;
  }

  /** The last line read, its place and seal, when it is sealed. */
  get lastLine(): { readonly start: number; readonly end: number; readonly seal: string } | null {
    return this.lastSeal === null ? null : { start: this.lastStart, end: this.lastEnd, seal: this.lastSeal };
  }

  /** What the checkpoint after the last whole line covers, when the reader was asked to hash it. */
  coverNow(): Cover | null {
    return this.cover?.cover() ?? null;
  }

  /**
   * The state after the last whole line, or null where a checkpoint could not say it in plain
   * data: records whose numbers went back (the order checks need every line's place), a journal
   * with no header yet, or a line under way. Damaged lines are said in it (the runs of records
   * between them, their numbers, what they were), so a journal with one still starts from a
   * checkpoint.
   */
  state(): ReaderState | null {
    if (!this.placed.increasing || this.seen !== null || this.carry !== null || !this.headerSeen) return null;
    const damage = this.placed.inOrder && this.accounted.size === 0 ? {} : { runs: this.placed.runs().map((run) => ({ ...run })), accounted: [...this.accounted], unreadableSealed: this.unreadableSealed.map((entry) => ({ ...entry })) };
    return {
      offset: this.offset,
      lineNumber: this.lineNumber,
      kind: this.kind,
      keyIdInForce: this.keyIdInForce,
      hmacKeyId: this.hmacKeyId,
      sealsCheckable: this.sealsCheckable,
      prevHash: this.prevHash,
      prevKnown: this.prevKnown,
      version: this.version,
      unchained: this.unchained,
      firstUnchainedSeq: this.firstUnchainedSeq,
      unchainedThrough: this.unchainedThrough,
      looksLikeJournal: this.looksLikeJournal,
      readOnly: this.readOnly,
      lastAt: this.lastAt,
      lastSeq: this.lastSeq,
      lineSeq: this.lineSeq,
      records: this.records,
      inOrder: this.placed.length,
      ...damage,
      highestPlaced: this.highestPlaced,
      missingHeader: this.missingHeader,
      findings: [...this.findings],
      tampered: [...this.tampered],
      notes: [...this.notes],
    };
  }

  /**
   * A line that is not a journal record: reported; in the sealed part it is damage, unless a
   * torn-tail note explains it. Its number is taken (never given to another record), and the
   * chain is checked again from the next record (its link to this line cannot be).
   */
  private unreadable(code: 'unreadable' | 'not-a-record', line: number, lineBytes: Uint8Array, known?: number): void {
    const seq = known ?? damagedSeq(seqPrefix(lineBytes, 0, lineBytes.length), this.lineSeq);
    this.lineSeq = seq;
    if (seq > this.lastSeq) this.lastSeq = seq;
    const finding = { code, line, seq } as const;
    this.accounted.add(seq);
    this.prevKnown = false;
    // The next record links to this line as it was written: to the seal still readable at its end
    // (the floor holds the line under it, when it arrived before the damage). With that end damaged
    // too, the link stays the one this line itself carried (the line before's), which the floor's
    // copy of this line holds as its `prev` (migration 19 takes that link).
    const sealed = this.headerSeen ? trailingSeal(lineBytes) : null;
    if (sealed !== null) this.prevHash = sealed;
    if (this.headerSeen) this.unreadableSealed.push({ finding, seq, line, sha256: sha256(lineBytes) });
    else this.findings.push(finding);
  }

  private line(bytes: Buffer, lineStart: number, newline: number, base: number): void {
    this.lineNumber += 1;
    const lineNumber = this.lineNumber;
    this.lastSeal = null;
    // The line is read in place (a view, not a copy): the writer's record lines the short way (only
    // their record parsed as JSON), anything else as the outbox reads it.
    const fast = fastRecordLine(bytes, lineStart, newline);
    let parsed: RawLine | null = fast;
    const line = fast === null ? kindOfLine(bytes.subarray(lineStart, newline)) : null;
    if (line?.kind === 'blank') return;
    if (line?.kind === 'damaged') {
      this.unreadable(line.code, lineNumber, bytes.subarray(lineStart, newline));
      return;
    }
    const seal = fast ?? sealIn(bytes, lineStart, newline);
    if (seal !== null) {
      this.lastStart = base + lineStart;
      this.lastEnd = base + newline + 1;
      this.lastSeal = seal.stored;
    }

    if (line?.kind === 'header') {
      this.looksLikeJournal = true;
      const header = line.parsed;
      const headerVersion = typeof header.version === 'number' ? header.version : Number.NaN;
      if (headerVersion > this.version) this.version = headerVersion;
      this.kind = header.chain === 'hmac-sha256' ? 'hmac-sha256' : 'sha256';
      this.keyIdInForce = typeof header.keyId === 'string' ? header.keyId : null;
      if (this.kind === 'sha256') {
        this.sealer = new Sealer(null);
        this.sealsCheckable = true;
      } else if (this.key === null) {
        this.sealer = null;
        this.sealsCheckable = false;
        this.findings.push({ code: 'key-missing', keyId: this.keyIdInForce ?? '?' });
      } else {
        this.sealer = new Sealer(this.key);
        this.sealsCheckable = this.sealer.keyId === this.keyIdInForce;
        if (!this.sealsCheckable) this.findings.push({ code: 'key-wrong', keyId: this.keyIdInForce ?? '?' });
      }
      const sealHolds = seal !== null && (!this.sealsCheckable || this.sealer === null || this.sealer.hash(bytes.subarray(lineStart, seal.bodyEnd)) === seal.stored);
      // Once sealed with a key, always with that key: a later header that loosens the seal (to
      // SHA-256, which anyone can compute, or to another key) is how a forger without the key
      // would continue the chain.
      const loosened = this.hmacKeyId !== null && (this.kind !== 'hmac-sha256' || this.keyIdInForce !== this.hmacKeyId);
      if (!sealHolds || loosened) this.tampered.push({ code: 'header', line: lineNumber });
      if (this.kind === 'hmac-sha256' && this.hmacKeyId === null && sealHolds) this.hmacKeyId = this.keyIdInForce;
      // A newer version's journal stays read-only, even when its header does not check out here:
      // writing past it is the one thing that must not happen.
      if (!(headerVersion <= JOURNAL_VERSION)) {
        this.readOnly ??= { code: 'newer-version', version: headerVersion };
        this.findings.push(this.readOnly);
      }
      if (!this.headerSeen && this.unchained > 0) {
        // Sealed afresh after lines of the old format: those bytes are covered by the anchor.
        if (header.anchor !== this.beforeHeader?.copy().digest('hex')) this.tampered.push({ code: 'anchor', seq: this.firstUnchainedSeq, records: this.unchained });
      } else if (this.headerSeen && this.prevKnown && header.prev !== this.prevHash && this.sealsCheckable) {
        const last = this.placed.last;
        if (last !== undefined) this.tampered.push({ code: 'rewritten', seq: last });
      }
      this.headerSeen = true;
      this.prevHash = seal?.stored ?? null;
      this.prevKnown = true;
      return;
    }

    parsed ??= (line as Extract<LineKind, { kind: 'record' }>).parsed;
    this.looksLikeJournal = true;
    const { seq } = parsed;
    this.records += 1;
    // Every number written is taken, even an altered or forged line's: a number given twice
    // would read as an insertion, and the floor would refuse the table from there.
    if (seq > this.lastSeq) this.lastSeq = seq;
    this.lineSeq = seq;

    // The seal: the line's own hash, and its link to the line before.
    let altered = false;
    let linked: boolean | null = null;
    if (this.headerSeen) {
      if (seal === null) {
        this.tampered.push({ code: 'unsealed', seq });
      } else {
        if (this.sealsCheckable && this.sealer !== null) {
          altered = this.sealer.hash(new Uint8Array(bytes.buffer, bytes.byteOffset + lineStart, seal.bodyEnd - lineStart)) !== seal.stored;
          if (this.prevKnown) linked = parsed.prev === this.prevHash;
        }
        this.prevHash = seal.stored;
      }
      this.prevKnown = seal !== null;
    } else if (seal !== null || parsed.prev !== undefined || parsed.run !== undefined) {
      // A sealed line with no header before it: the header was taken away (to pass sealed lines off as the old format).
      this.missingHeader = true;
    } else {
      this.unchained += 1;
      if (this.firstUnchainedSeq === 0) this.firstUnchainedSeq = seq;
      if (seq > this.unchainedThrough) this.unchainedThrough = seq;
    }

    // Order: a repeated seq is an insertion; the order itself is judged once every line is read.
    // A seq above every one before cannot repeat one (the usual case: no set needed).
    if (seq <= this.highestPlaced) this.seen ??= new Set(this.placed.seqs());
    if (this.seen?.has(seq)) {
      this.tampered.push({ code: 'duplicate', seq });
    } else {
      this.seen?.add(seq);
      if (seq > this.highestPlaced) this.highestPlaced = seq;
      this.placed.add(seq, linked, altered);
    }

    if (parsed.at < this.lastAt) {
      const seconds = Math.round((Date.parse(this.lastAt) - Date.parse(parsed.at)) / 1000);
      if (Number.isFinite(seconds)) this.findings.push({ code: 'clock-back', seq, seconds });
    }
    this.lastAt = parsed.at;

    const record = parsed.record;
    if (isJournalNote(record)) {
      if (altered) this.tampered.push({ code: 'altered', seq, skipped: false });
      this.notes.push({ seq, at: parsed.at, record });
      return;
    }
    if (!this.check(record)) {
      const recordKind = (record as { kind?: unknown }).kind;
      const kindText = typeof recordKind === 'string' ? recordKind.slice(0, 64) : (JSON.stringify(recordKind) ?? 'none').slice(0, 64);
      if (this.headerSeen && seal !== null && this.sealsCheckable && !altered && typeof recordKind === 'string') {
        // Sealed as written and still of an unknown kind: a newer version wrote it.
        const finding: JournalFinding = { code: 'unknown-record', seq, kind: kindText };
        this.readOnly ??= finding;
        this.findings.push(finding);
      } else if (altered) {
        this.tampered.push({ code: 'altered', seq, skipped: true });
      } else {
        this.unreadable('not-a-record', lineNumber, bytes.subarray(lineStart, newline), seq);
      }
      return;
    }
    if (altered) this.tampered.push({ code: 'altered', seq, skipped: false });
    this.onLine?.({ seq, at: parsed.at, record }, seal?.stored ?? null, { start: base + lineStart, end: base + newline + 1 });
  }

  /** What was read so far, judged whole (order, damage, the chain's verdict); the reader may read on after. */
  finish(): JournalReading {
    const findings = [...this.findings];
    const tampered = [...this.tampered];
    // A line of the sealed part that is no record is damage (never tampering: the records around
    // it are checked as usual, and the one after it from itself), unless it is a torn tail the
    // console itself kept in place (no room for a copy), as the note it wrote then says.
    const keptInPlace = new Set(this.notes.filter((note) => note.record.savedAs === null).map((note) => note.record.sha256));
    const damaged: JournalFinding[] = [];
    for (const { finding, seq, line, sha256: hash } of this.unreadableSealed) {
      if (keptInPlace.has(hash)) findings.push(finding);
      else damaged.push({ code: 'damaged', seq, line });
    }
    findings.push(...damaged);
    if (this.missingHeader) tampered.push({ code: 'no-header', seq: this.placed.first ?? 1 });
    tampered.push(...orderFindings(this.placed, this.accounted));
    tampered.sort((a, b) => findingSeq(a) - findingSeq(b));
    findings.push(...tampered);

    let chain: ChainStatus;
    if (tampered.length > 0) chain = 'broken';
    else if (damaged.length > 0) chain = 'damaged';
    else if (!this.headerSeen) chain = this.records === 0 ? 'empty' : 'unchained';
    else if (!this.sealsCheckable || this.sealer === null) chain = 'unchecked';
    else chain = 'intact';

    return {
      records: this.records,
      lastSeq: this.lastSeq,
      version: this.version,
      unchained: this.unchained,
      unchainedThrough: this.unchainedThrough,
      chain,
      end: { kind: this.kind, keyId: this.keyIdInForce, lastHash: this.prevHash },
      findings,
      readOnly: this.readOnly,
      torn: this.carry === null ? null : Buffer.from(this.carry),
      wholeLength: this.wholeLength,
      looksLikeJournal: this.looksLikeJournal,
      keyed: this.key !== null && this.hmacKeyId !== null && this.hmacKeyId === new Sealer(this.key).keyId,
      notes: [...this.notes],
    };
  }
}
