import { open } from 'node:fs/promises';
import type { RaceRecord } from '../../protocol/contract';
import type { RaceDamage } from '../../protocol/races';
import type { ChainReport } from '../../journal/findings';
import type { JournalLine } from '../../journal/read';
import { splitSeal } from '../../journal/seal';
import { buildRecord } from '../../replay/raceRecord';
import { isSessionRecord, type SessionRecord } from '../../replay/session';

/** Where a race's lines stand in the journal file: from its start's line to its last line. */
export interface RaceSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * A race's full record, read back from the journal file itself (not from memory): every card in
 * deal order with its seat, round and source, every void with its reason, every refusal with how
 * often it came, the confirmation, and what the seal chain says about the race's records. Only the
 * race's own bytes are read (its span, known from the start-up scan and from every append since),
 * so a long journal costs nothing more; the chain's verdict is the one the start-up check gave,
 * and the console's own appends since then. Cards are given to seats by replaying the race
 * through the engine, exactly as on start.
 */
export async function readRaceRecord(path: string, raceId: string, span: RaceSpan, chain: ChainReport, damaged?: RaceDamage): Promise<RaceRecord | null> {
  const file = await open(path, 'r');
  let bytes: Buffer;
  try {
    bytes = Buffer.alloc(span.end - span.start);
    const { bytesRead } = await file.read(bytes, 0, bytes.length, span.start);
    bytes = bytes.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  const lines: Array<{ line: JournalLine<SessionRecord>; seal: string | null }> = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const text = bytes.subarray(start, end);
    start = end + 1;
    let parsed: { seq?: unknown; at?: unknown; record?: unknown };
    try {
      parsed = JSON.parse(text.toString('utf8')) as typeof parsed;
    } catch {
      continue; // reported by the start-up check
    }
    const { record } = parsed;
    if (!Number.isSafeInteger(parsed.seq) || typeof parsed.at !== 'string' || !isSessionRecord(record) || !('raceId' in record) || record.raceId !== raceId) continue;
    // Race ids count races started, so one id is one race: the record starts at its start.
    if (record.kind === 'race-start' && lines.length > 0) break;
    lines.push({ line: { seq: parsed.seq as number, at: parsed.at, record }, seal: splitSeal(text)?.stored ?? null });
  }
  // A race a damaged line cut short: its history entry's mark (replay/session.ts), which the slip says.
  return lines.length === 0 ? null : buildRecord(raceId, lines, chain, damaged);
}
