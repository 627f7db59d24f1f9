import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Decoder } from '../../hardware/decoding/decoder';
import { busyRefusal, DEALING, enterMode, leaveMode, ReaderSession, refusalToEnter, type ReaderMode, type ReaderModeKind } from './readerMode';

const decoder = {} as Decoder;
const modeOf = (kind: ReaderModeKind): ReaderMode => (kind === 'registering' ? { kind, decoder } : { kind });
const KINDS: readonly ReaderModeKind[] = ['dealing', 'registering', 'mapping', 'detecting'];
const SET_UPS = ['registering', 'mapping', 'detecting'] as const;

/** The refusals of today: the key of the set-up under way, in the field the refuser names (its own by default). */
const BUSY_KEY = { registering: 'service.registering', mapping: 'service.seatMap.mapping', detecting: 'service.detecting' } as const;
const BUSY_FIELD = { registering: 'registration', mapping: 'seatMapping', detecting: 'detection' } as const;

describe('the card reader mode', () => {
  it('refuses nothing while dealing, and says the set-up under way otherwise', () => {
    expect(busyRefusal(DEALING)).toBeNull();
    for (const kind of SET_UPS) {
      expect(busyRefusal(modeOf(kind))).toEqual({ ok: false, error: { field: BUSY_FIELD[kind], message: expect.any(String), said: { key: BUSY_KEY[kind] } } });
      expect(busyRefusal(modeOf(kind), 'source')).toMatchObject({ ok: false, error: { field: 'source', said: { key: BUSY_KEY[kind] } } });
    }
  });

  it('enters any set-up from dealing, the same one again, and none over another', () => {
    for (const from of KINDS) {
      for (const to of SET_UPS) {
        const { mode, refusal } = enterMode(modeOf(from), modeOf(to));
        if (from === 'dealing' || from === to) {
          expect(refusal).toBeNull();
          expect(mode.kind).toBe(to);
        } else {
          expect(refusal).toMatchObject({ ok: false, error: { said: { key: BUSY_KEY[from] } } });
          expect(mode.kind).toBe(from);
        }
      }
    }
  });

  it('leaves only the set-up under way', () => {
    for (const from of KINDS) for (const kind of SET_UPS) expect(leaveMode(modeOf(from), kind).kind).toBe(from === kind ? 'dealing' : from);
  });

  it('keeps exactly one mode through any sequence of requests, the first set-up entered holding until it is left', () => {
    const request = fc.oneof(
      fc.record({ op: fc.constant('enter' as const), kind: fc.constantFrom(...SET_UPS) }),
      fc.record({ op: fc.constant('leave' as const), kind: fc.constantFrom(...SET_UPS) }),
    );
    fc.assert(
      fc.property(fc.array(request, { maxLength: 40 }), (requests) => {
        const session = new ReaderSession();
        // The model: the set-up under way, or none.
        let model: (typeof SET_UPS)[number] | null = null;
        for (const { op, kind } of requests) {
          if (op === 'enter') {
            const refusal = session.enter(modeOf(kind));
            if (model === null || model === kind) {
              expect(refusal).toBeNull();
              model = kind;
            } else {
              expect(refusal).toMatchObject({ ok: false, error: { said: { key: BUSY_KEY[model] } } });
            }
          } else {
            session.leave(kind);
            if (model === kind) model = null;
          }
          expect(session.mode.kind).toBe(model ?? 'dealing');
          expect(KINDS.filter((each) => session.is(each))).toEqual([model ?? 'dealing']);
          expect(session.registrationDecoder).toBe(model === 'registering' ? decoder : null);
          expect(session.refusalToEnter('mapping')).toEqual(refusalToEnter(session.mode, 'mapping'));
          expect(session.busy() === null).toBe(model === null);
        }
      }),
    );
  });
});
