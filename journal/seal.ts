import { createHash, createHmac, hash as oneShotHash } from 'node:crypto';

/**
 * The journal's seal: every line ends with `"hash":"…"`, a SHA-256 (or, with a key kept outside
 * the data folder, an HMAC-SHA256) of the line's own bytes up to that field, and every record
 * carries in `prev` the hash of the line before it. Editing a line breaks its own hash; removing,
 * inserting or reordering lines breaks the `prev` links and the sequence numbers. Without a key
 * a forger could recompute the whole chain after an edit, so the key (or a copy of the last hash
 * kept elsewhere, such as a signed slip) is what makes the seal hold against a careful forger.
 */

export type ChainKind = 'sha256' | 'hmac-sha256';

/** `,"hash":"` + 64 hex digits + `"}`: the end of every sealed line, byte for byte. */
const SEAL_OPEN = Buffer.from(',"hash":"');
const HASH_HEX = 64;
export const SEAL_LENGTH = SEAL_OPEN.length + HASH_HEX + 2;

/** The key's fingerprint, written in the journal's header so a check can tell a wrong key from a forgery. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('chip-race-console journal key').update(key).digest('hex').slice(0, 16);
}

export class Sealer {
  readonly kind: ChainKind;
  readonly keyId: string | null;

  constructor(private readonly key: Buffer | null) {
    this.kind = key === null ? 'sha256' : 'hmac-sha256';
    this.keyId = key === null ? null : keyId(key);
  }

  /** The hash of a line's body: every byte before its `,"hash":` (the seal covers the rest of the line). */
  hash(bodyOpen: Uint8Array): string {
    if (this.key === null) return oneShotHash('sha256', bodyOpen, 'hex');
    return createHmac('sha256', this.key).update(bodyOpen).digest('hex');
  }

  /** The sealed line (without its newline) for a JSON object, and its hash. */
  seal(fields: object): { readonly text: string; readonly hash: string } {
    const body = JSON.stringify(fields);
    const open = body.slice(0, -1);
    const hash = this.hash(Buffer.from(open));
    return { text: `${open},"hash":"${hash}"}`, hash };
  }
}

/**
 * The seal of the line at `start`…`end` of `bytes`, read in place (the journal's start reads a
 * hundred thousand lines, so no copy of each is made): the stored hash and where the bytes it
 * covers end, or null when the line carries no seal.
 */
export function sealIn(bytes: Uint8Array, start: number, end: number): { readonly stored: string; readonly bodyEnd: number } | null {
  if (end - start < SEAL_LENGTH + 2) return null;
  const sealStart = end - SEAL_LENGTH;
  for (let index = 0; index < SEAL_OPEN.length; index += 1) if (bytes[sealStart + index] !== SEAL_OPEN[index]) return null;
  if (bytes[end - 2] !== 0x22 || bytes[end - 1] !== 0x7d) return null;
  // Not checked for hex digits: a stored value that is no hash never matches the one computed.
  const stored = Buffer.prototype.toString.call(bytes, 'latin1', sealStart + SEAL_OPEN.length, end - 2);
  return { stored, bodyEnd: sealStart };
}

/**
 * The seal a damaged line still carries at its end: its last bytes `,"hash":"` + 64 lowercase hex
 * digits + `"}`, read without trusting anything before them; null when the end itself is damaged.
 * It is the hash the line was written under, which the floor holds it under when it arrived before
 * the damage, and which the record after it links to.
 */
export function trailingSeal(line: Uint8Array): string | null {
  const seal = sealIn(line, 0, line.length);
  return seal !== null && /^[0-9a-f]{64}$/.test(seal.stored) ? seal.stored : null;
}

/** A line as read: its stored hash and the bytes it covers, or null when the line carries no seal. */
export function splitSeal(line: Uint8Array): { readonly stored: string; readonly bodyOpen: Uint8Array } | null {
  const seal = sealIn(line, 0, line.length);
  return seal === null ? null : { stored: seal.stored, bodyOpen: line.subarray(0, seal.bodyEnd) };
}

/** SHA-256 of bytes, hex: the anchor of journal lines written before the chain existed. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
