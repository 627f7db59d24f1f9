import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedFloorSeats, checkedFloorTournament, FLOOR_TOURNAMENT_JSON_MAX, isFloorRecord } from './floorRecords';
import { largestTournament } from './testing/largestTournament';

const seating = fc.record({
  version: fc.nat(),
  broken: fc.boolean(),
  seats: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { maxLength: 10 }).chain((seats) => fc.tuple(...seats.map((seat) => fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== '').map((player) => ({ seat, player }))))),
});

describe("the floor's facts as the station journals them (issue 43)", () => {
  it("takes the largest tournament the planner takes, within what a line of the floor's journal may hold", () => {
    const tournament = checkedFloorTournament(largestTournament());
    expect(tournament).not.toBeNull();
    expect(JSON.stringify(tournament).length).toBeLessThanOrEqual(FLOOR_TOURNAMENT_JSON_MAX);
    expect(isFloorRecord({ kind: 'floor-tournament', tournament })).toBe(true);
  });

  it('a seating read back is exactly what was checked; anything else is refused', () => {
    fc.assert(
      fc.property(seating, (read) => {
        const checked = checkedFloorSeats(read);
        expect(checked).toEqual(read);
        expect(isFloorRecord({ kind: 'floor-seating', seating: checked })).toBe(true);
        expect(isFloorRecord(JSON.parse(JSON.stringify({ kind: 'floor-seating', seating: checked })))).toBe(true);
      }),
    );
    const good = { version: 3, broken: false, seats: [{ seat: 2, player: 'Anna' }] };
    for (const bad of [
      { ...good, version: -1 },
      { ...good, version: 'x' },
      { ...good, broken: 'no' },
      { ...good, seats: [{ seat: 11, player: 'Anna' }] },
      { ...good, seats: [{ seat: 2, player: 'x'.repeat(41) }] },
      { ...good, seats: [{ seat: 2, player: '  ' }] },
      { ...good, seats: [{ seat: 2, player: 'Anna' }, { seat: 2, player: 'Pekka' }] },
      { ...good, seats: 'all' },
      null,
      [],
    ]) {
      expect(checkedFloorSeats(bad), JSON.stringify(bad)).toBeNull();
      expect(isFloorRecord({ kind: 'floor-seating', seating: bad }), JSON.stringify(bad)).toBe(bad === null);
    }
  });

  it('refuses a tournament the planner or the house reader refuses, or one longer than a line may hold', () => {
    const { structure, house } = largestTournament();
    expect(checkedFloorTournament({ structure: { ...structure, chips: [] }, house })).toBeNull();
    expect(checkedFloorTournament({ structure, house: { rules: 'poker-stars' } })).toBeNull();
    expect(checkedFloorTournament({ structure: { ...structure, levels: [...structure.levels, { sb: 1, bb: 2 }] }, house })).toBeNull();
    expect(isFloorRecord({ kind: 'floor-tournament', tournament: { structure, house: { decks: 99 } } })).toBe(false);
    // Kept as read (a house rule the reader would write otherwise): not this console's shape, refused.
    expect(isFloorRecord({ kind: 'floor-tournament', tournament: { structure, house: { decks: '2' } } })).toBe(false);
    expect(isFloorRecord({ kind: 'floor-tournament', tournament: null })).toBe(true);
  });
});
