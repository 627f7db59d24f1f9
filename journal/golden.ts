/**
 * The journal line's grammar, as golden vectors: a header and three records exactly as the
 * console writes them (SHA-256 and HMAC-SHA256 chains; UTF-8 beyond ASCII, so the seal is shown
 * to cover bytes, not characters). The writer must encode them byte for byte, the reader and the
 * outbox must read them, and the floor's trigger (PL/pgSQL, its own implementation of the same
 * grammar) must take them and refuse them changed by one byte: journal/golden.test.ts,
 * floor/db/golden.test.ts. A change to the grammar changes these lines, and every side's test
 * says so at once.
 */

/** What each vector's records were made from: the encoder's run id, each record's time and `t`, and the record. */
export const GOLDEN_RUN = 'c0ffee01';
export const GOLDEN_RECORDS: readonly { readonly at: string; readonly t: number; readonly record: object }[] = [
  { at: '2026-12-01T20:00:00.000Z', t: 0, record: { kind: 'note', text: 'Pöytä 7 — стол ♥' } },
  { at: '2026-12-01T20:00:01.250Z', t: 1250, record: { kind: 'refused', raceId: 'race-1', input: 'Zz', reason: 'not a card', source: 'manual' } },
  { at: '2026-12-01T20:00:02.500Z', t: 2500, record: { kind: 'refused-again', raceId: 'race-1', input: 'Zz', count: 3, source: 'shoe' } },
];

/** The key of the HMAC vector: 32 bytes of 7. */
export const GOLDEN_KEY = Buffer.alloc(32, 7);

/** The journal's lines, without their newlines: the header first, then records 1 to 3. */
export const GOLDEN_JOURNALS: Readonly<Record<'sha256' | 'hmac-sha256', readonly string[]>> = {
  sha256: [
    '{"journal":"chip-race-console","version":2,"chain":"sha256","created":"2026-12-01T20:00:00.000Z","prev":null,"hash":"b6f650b30f7aec1df83e438faa6f67c2727a357ffc814510b18e1daa8768b70a"}',
    '{"seq":1,"at":"2026-12-01T20:00:00.000Z","run":"c0ffee01","t":0,"prev":"b6f650b30f7aec1df83e438faa6f67c2727a357ffc814510b18e1daa8768b70a","record":{"kind":"note","text":"Pöytä 7 — стол ♥"},"hash":"50bcecc2d8e9f732a82402216ba75e1285214dd5cb62ce559b51236b504272c2"}',
    '{"seq":2,"at":"2026-12-01T20:00:01.250Z","run":"c0ffee01","t":1250,"prev":"50bcecc2d8e9f732a82402216ba75e1285214dd5cb62ce559b51236b504272c2","record":{"kind":"refused","raceId":"race-1","input":"Zz","reason":"not a card","source":"manual"},"hash":"0a1b3cef138e72c1872c9386fb385cb63114fa72cfa8a1c6c59a78c87104e3f7"}',
    '{"seq":3,"at":"2026-12-01T20:00:02.500Z","run":"c0ffee01","t":2500,"prev":"0a1b3cef138e72c1872c9386fb385cb63114fa72cfa8a1c6c59a78c87104e3f7","record":{"kind":"refused-again","raceId":"race-1","input":"Zz","count":3,"source":"shoe"},"hash":"9c0731580e5350856efa6e1ff4c42cebdf2fb0bdba7f4b49f3ecaa8a7612b656"}',
  ],
  'hmac-sha256': [
    '{"journal":"chip-race-console","version":2,"chain":"hmac-sha256","keyId":"77c12251d9686587","created":"2026-12-01T20:00:00.000Z","prev":null,"hash":"3466b18856004bec047d011b9c77e6eb85f5efc31a4f259e38db7721cdae43a1"}',
    '{"seq":1,"at":"2026-12-01T20:00:00.000Z","run":"c0ffee01","t":0,"prev":"3466b18856004bec047d011b9c77e6eb85f5efc31a4f259e38db7721cdae43a1","record":{"kind":"note","text":"Pöytä 7 — стол ♥"},"hash":"6ca4f1cbb89db8ab2e2a75e0ad24053f621158fa6fac08237d14902317aca168"}',
    '{"seq":2,"at":"2026-12-01T20:00:01.250Z","run":"c0ffee01","t":1250,"prev":"6ca4f1cbb89db8ab2e2a75e0ad24053f621158fa6fac08237d14902317aca168","record":{"kind":"refused","raceId":"race-1","input":"Zz","reason":"not a card","source":"manual"},"hash":"9287522620576b33007d7bef9b515188499644c0da75ccabccace414d0a61762"}',
    '{"seq":3,"at":"2026-12-01T20:00:02.500Z","run":"c0ffee01","t":2500,"prev":"9287522620576b33007d7bef9b515188499644c0da75ccabccace414d0a61762","record":{"kind":"refused-again","raceId":"race-1","input":"Zz","count":3,"source":"shoe"},"hash":"46d0e9db9277e89fd5253545a0ad3846d362970b5874dfd28b2431a3c8b41d34"}',
  ],
};
