// Issue 43, point 5 (issue 45 point 3): the floor's clock a station follows is on its record
// (`floor-clock`, beside `floor-tournament` whose structure it runs on), so a restart with the floor
// out of reach follows the clock last followed, from the journal alone, its checkpoint or its lines.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClockEvent } from '../../engine/clock/clock';
import type { StructureInput } from '../../engine/plan/csv';
import type { JournalLine } from '../../journal/read';
import type { FloorClock } from '../../protocol/clock';
import { isFloorRecord } from '../../replay/floorRecords';
import { isSessionRecord } from '../../replay/session';
import { StationClock } from './clock';
import { FLOOR_OUT_OF_REACH } from './testing/evenings';
import { recordsOfKind, serviceHarness } from './testing/services';

const { serviceIn, restart } = serviceHarness({ station: 'floor-clock' });
const ok = { ok: true, value: null };
const MIN = 60_000;
const STRUCTURE: StructureInput = { chips: [25, 100, 500], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }] };
const HOUSE = { rules: 'tda' as const, decks: 2 };
const NOW = Date.now();
const START: ClockEvent = { type: 'start', at: NOW - 5 * MIN };
const PAUSE: ClockEvent = { type: 'pause', at: NOW - MIN };
const RUNNING: FloorClock = { structure: STRUCTURE, events: [START], house: HOUSE, held: null, holdBreaks: true, offsetMs: 2_000 };
const PAUSED: FloorClock = { ...RUNNING, events: [START, PAUSE] };
const fact = (clock: FloorClock) => ({ events: clock.events, offsetMs: clock.offsetMs, held: null, holdBreaks: true });
const dataDir = () => mkdtempSync(join(tmpdir(), 'floor-clock-'));

describe("the floor's clock on the station's record", () => {
  it('journals each clock followed once, and a restart with the floor out of reach follows the one last followed, from the journal', async () => {
    const dir = dataDir();
    let service = await serviceIn(dir);
    expect(await service.followFloorClock(RUNNING)).toEqual(ok);
    for (let read = 0; read < 3; read += 1) expect(await service.followFloorClock(PAUSED)).toEqual(ok);
    expect(recordsOfKind(dir, 'floor-clock')).toEqual([{ kind: 'floor-clock', clock: fact(RUNNING) }, { kind: 'floor-clock', clock: fact(PAUSED) }]);
    const before = service.getState().clock;
    // In the station's time: the floor's less its offset.
    expect(before).toMatchObject({ source: 'floor', events: [{ type: 'start', at: START.at - 2_000 }, { type: 'pause', at: PAUSE.at - 2_000 }] });

    service = await restart(service, dir, FLOOR_OUT_OF_REACH);
    expect(service.getState().floorLink.state).not.toBe('connected');
    expect(service.getState().clock).toEqual(before);
    // The floor runs it still: the station's own clock commands are refused.
    expect(JSON.stringify(await service.clockResume())).toContain('clock.floor');
    expect(recordsOfKind(dir, 'floor-clock')).toHaveLength(2);
  });

  it("started with no floor set up: its own clock back (journaled), the floor's tournament kept; once", async () => {
    const dir = dataDir();
    let service = await serviceIn(dir);
    expect(await service.followFloorClock(RUNNING)).toEqual(ok);
    service = await restart(service, dir);
    expect(service.getState().clock).toMatchObject({ source: 'local', events: [] });
    expect(service.getState().settings.fromFloor?.house).toEqual(HOUSE);
    expect(recordsOfKind(dir, 'floor-clock').at(-1)).toEqual({ kind: 'floor-clock', clock: null });
    service = await restart(service, dir);
    expect(recordsOfKind(dir, 'floor-clock')).toHaveLength(2);
    expect(service.getState().clock.source).toBe('local');
  });

  it('the link ended: the station’s own clock back, journaled as none', async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    expect(await service.followFloorClock(RUNNING)).toEqual(ok);
    expect(await service.followFloorClock(null)).toEqual(ok);
    expect(recordsOfKind(dir, 'floor-clock').at(-1)).toEqual({ kind: 'floor-clock', clock: null });
    expect(service.getState().clock.source).toBe('local');
  });

  it("a clock row whose tournament this table refuses is not followed: the clock and the tournament as they were, nothing journaled", async () => {
    const dir = dataDir();
    const service = await serviceIn(dir);
    expect(await service.followFloorClock(RUNNING)).toEqual(ok);
    const before = service.getState().clock;
    expect(await service.followFloorClock({ ...PAUSED, structure: { levels: 'none' } as unknown as StructureInput })).toEqual(ok);
    expect(service.getState().clock).toBe(before);
    expect(recordsOfKind(dir, 'floor-clock')).toHaveLength(1);
  });

  it('the clock follower keeps the floor’s clock in its checkpoint, and a checkpoint without it is replayed', () => {
    let seq = 0;
    const line = (record: unknown): JournalLine<unknown> => ({ seq: (seq += 1), at: new Date(NOW).toISOString(), record }) as unknown as JournalLine<unknown>;
    const clock = new StationClock();
    clock.add(line({ kind: 'floor-tournament', tournament: { structure: STRUCTURE, house: HOUSE } }));
    clock.add(line({ kind: 'floor-clock', clock: fact(PAUSED) }));
    const view = clock.view(null);
    expect(view).toMatchObject({ source: 'floor', events: [{ type: 'start', at: START.at - 2_000 }, { type: 'pause', at: PAUSE.at - 2_000 }] });
    const snapshot = JSON.parse(JSON.stringify(clock.checkpoint.snapshot())) as Record<string, unknown>;
    const restored = new StationClock();
    restored.checkpoint.restore(snapshot);
    expect(restored.view(null)).toEqual(view);
    const { floor: _floor, ...older } = snapshot;
    expect(() => new StationClock().checkpoint.restore(older)).toThrow();
    clock.close();
    restored.close();
  });

  it('a floor-clock record is a well-formed clock or none, and a session record', () => {
    expect(isFloorRecord({ kind: 'floor-clock', clock: null })).toBe(true);
    expect(isSessionRecord({ kind: 'floor-clock', clock: fact(PAUSED) })).toBe(true);
    expect(isFloorRecord({ kind: 'floor-clock', clock: { held: { afterLevel: 2, tables: 3 }, offsetMs: 0, holdBreaks: true, events: [START] } })).toBe(true);
    for (const clock of [{ ...fact(PAUSED), events: [{ type: 'stop', at: NOW }] }, { ...fact(PAUSED), offsetMs: 0.5 }, { ...fact(PAUSED), extra: 1 }, { ...fact(PAUSED), held: { afterLevel: 2 } }, { ...fact(PAUSED), holdBreaks: 'yes' }]) {
      expect(isFloorRecord({ kind: 'floor-clock', clock })).toBe(false);
    }
    expect(isFloorRecord({ kind: 'floor-clock', clock: null, extra: 1 })).toBe(false);
  });
});
