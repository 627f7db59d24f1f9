import { describe, expect, it } from 'vitest';
import { FLOOR_QUERY_TIMEOUT } from '../replication/floorClient';
import { isConnectionLost } from './pool';

describe('isConnectionLost: the one rule of the pool and the fold for a database gone', () => {
  it('takes PostgreSQL classes 08 and 57P and Node’s error codes (the deadline’s among them) as the connection gone', () => {
    for (const code of ['08006', '08003', '57P01', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', FLOOR_QUERY_TIMEOUT]) {
      expect(isConnectionLost(Object.assign(new Error('gone'), { code })), code).toBe(true);
    }
  });

  it('takes a refused statement (any other SQLSTATE) as the statement’s, whatever its words', () => {
    for (const code of ['23505', '22P02', '57014', 'P0001', 'XX000']) {
      expect(isConnectionLost(Object.assign(new Error('Connection terminated unexpectedly'), { code })), code).toBe(false);
    }
  });

  it('takes the driver’s words for a connection ended, and no other error of the work’s own', () => {
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isConnectionLost(new Error('Client was closed and is not queryable'))).toBe(true);
    expect(isConnectionLost(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionLost(new Error('the race ended before its last card'))).toBe(false);
    expect(isConnectionLost(new Error('the break is closed'))).toBe(false);
    expect(isConnectionLost(null)).toBe(false);
  });
});
