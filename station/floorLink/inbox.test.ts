import { describe, expect, it } from 'vitest';
import { FloorInbox, inboxFor, type FloorMessage, type InboxQueryable } from './inbox';

/** A floor as the inbox queries it: the clock row, this table's seating head and seats, its decisions. */
function floor(rows: { clock?: unknown[]; head?: unknown[]; seats?: unknown[]; decisions?: unknown[] }): InboxQueryable & { rows: typeof rows } {
  return {
    rows,
    async query<Row>(text: string) {
      const pick = text.includes('FROM floor_clock') ? rows.clock : text.includes('floor_seating_tables') ? rows.head : text.includes('FROM floor_seating') ? rows.seats : rows.decisions;
      return { rows: (pick ?? []) as Row[] };
    },
  };
}

const NOW = new Date('2026-12-07T20:00:00.000Z');
const clockRow = { structure: { levels: [] }, events: [], house: null, held: null, hold_breaks: null, floor_now: NOW.getTime() };

function inbox(after = 0): { inbox: FloorInbox; said: FloorMessage[] } {
  const said: FloorMessage[] = [];
  return { said, inbox: new FloorInbox({ table: 'T1', reads: { clock: true, seating: true, decisions: true }, decisionsAfter: () => after, deliver: (message) => said.push(message), now: () => NOW }) };
}

describe("the floor's inbox", () => {
  it('hands on the clock, the seating and the decisions as typed messages, each only when it changed', async () => {
    const { inbox: box, said } = inbox();
    const at = new Date('2026-12-07T19:59:00.000Z');
    const db = floor({
      clock: [clockRow],
      head: [{ version: '3', broken: false }],
      seats: [{ seat: 1, player: 'Anna' }],
      decisions: [{ id: '7', at, by: 'Eve', decision: 'race-stands', note: 'fine', race_id: 'race-1' }],
    });
    await box.read(db);
    expect(said).toEqual([
      { kind: 'clock', clock: { structure: { levels: [] }, events: [], house: null, held: null, holdBreaks: false, offsetMs: 0 } },
      { kind: 'seating', seats: { version: 3, broken: false, seats: [{ seat: 1, player: 'Anna' }] } },
      { kind: 'decisions', rows: [{ id: 7, at: at.toISOString(), by: 'Eve', decision: 'race-stands', note: 'fine', raceId: 'race-1' }] },
    ]);
    said.length = 0;
    db.rows.decisions = [];
    await box.read(db);
    expect(said).toEqual([]);
    db.rows.head = [];
    await box.read(db);
    expect(said).toEqual([{ kind: 'seating', seats: null }]);
  });

  it('says a refused clock row once, and passes by a decision row its schema refuses', async () => {
    const { inbox: box, said } = inbox();
    const db = floor({ clock: [{ ...clockRow, events: 'not a list' }], decisions: [{ id: 'x', at: new Date(), by: 'Eve', decision: 'race-stands', note: '', race_id: null }, { id: '8', at: new Date(NOW), by: 'Eve', decision: 'race-stands', note: '', race_id: null }] });
    await box.read(db);
    await box.read(db);
    expect(said.filter((message) => message.kind === 'clock-refused')).toEqual([{ kind: 'clock-refused', why: { key: 'clock.floorRow.malformed', params: { part: 'events' } } }]);
    expect(said.filter((message) => message.kind === 'decisions').map((message) => message.kind === 'decisions' && message.rows.map((row) => row.id))).toEqual([[8], [8]]);
    db.rows.clock = [clockRow];
    said.length = 0;
    await box.read(db);
    expect(said.slice(0, 2).map((message) => message.kind)).toEqual(['clock-refused', 'clock']);
    expect(said[0]).toEqual({ kind: 'clock-refused', why: null });
  });

  it('reads nothing nobody takes, and a floor not migrated to keep seating or decisions has none', async () => {
    const said: FloorMessage[] = [];
    const queries: string[] = [];
    const missing = Object.assign(new Error('relation does not exist'), { code: '42P01' });
    const box = new FloorInbox({ table: 'T1', reads: { clock: false, seating: true, decisions: true }, deliver: (message) => said.push(message) });
    await box.read({
      async query<Row>(text: string) {
        queries.push(text);
        if (text.includes('floor_clock')) return { rows: [] as Row[] };
        throw missing;
      },
    });
    expect(queries.some((text) => text.includes('floor_clock'))).toBe(false);
    expect(said).toEqual([{ kind: 'seating', seats: null }]);
  });

  it("hands the station every message through its one taker, onFloorMessage, reading all three; a one-kind taker reads only its kind", async () => {
    const db = floor({ clock: [clockRow], head: [{ version: '1', broken: true }], seats: [], decisions: [{ id: '9', at: new Date(NOW), by: 'Eve', decision: 'race-stands', note: '', race_id: null }] });
    const said: FloorMessage[] = [];
    await inboxFor('T1', { onFloorMessage: (message) => said.push(message), decisionsAfter: () => 0 }, () => NOW).read(db);
    expect(said.map((message) => message.kind)).toEqual(['clock', 'seating', 'decisions']);
    const seats: unknown[] = [];
    await inboxFor('T1', { onFloorSeats: (row) => seats.push(row) }, () => NOW).read(db);
    expect(seats).toEqual([{ version: 1, broken: true, seats: [] }]);
  });
});
