import { describe, expect, it } from 'vitest';
import { FLOOR_READ_ONLY } from '../../replication/floorAddress';
import { offlineReasonOf } from './link';

describe('why the floor cannot be reached, as the station keeps it', () => {
  it('keeps the driver\'s code as the detail', () => {
    expect(offlineReasonOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toEqual({ reason: 'unreachable', detail: 'ECONNREFUSED' });
    expect(offlineReasonOf(Object.assign(new Error('password authentication failed for user "t1"'), { code: '28P01' }))).toEqual({ reason: 'login', detail: '28P01' });
  });

  it('keeps no English: a failure without a code has its reason and no detail', () => {
    // The driver's own words (English) would reach a Finnish or Russian screen as the detail.
    expect(offlineReasonOf(new Error('timeout exceeded when trying to connect'))).toEqual({ reason: 'unreachable', detail: '' });
    expect(offlineReasonOf(new Error('Connection terminated unexpectedly'))).toEqual({ reason: 'unreachable', detail: '' });
    expect(offlineReasonOf(new Error('something else went wrong'))).toEqual({ reason: 'other', detail: '' });
  });

  it('says the floor is full when the server has no connection slot left (SQLSTATE 53300), never "other"', () => {
    expect(offlineReasonOf(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toEqual({ reason: 'full', detail: '53300' });
    expect(offlineReasonOf(Object.assign(new Error('remaining connection slots are reserved for non-replication superuser connections'), { code: '53300' }))).toEqual({ reason: 'full', detail: '53300' });
    // The same refusal reaching the link without its code (a wrapped error): its words are enough.
    expect(offlineReasonOf(new Error('sorry, too many clients already'))).toEqual({ reason: 'full', detail: '' });
    expect(offlineReasonOf(new Error('remaining connection slots are reserved for non-replication superuser connections'))).toEqual({ reason: 'full', detail: '' });
  });

  it('says the floor asked for the password as an MD5 hash (the link refused to answer), apart from clear text', () => {
    expect(offlineReasonOf(Object.assign(new Error('the floor asked for the password as an MD5 hash: not sent (SCRAM only)'), { code: 'MD5-REFUSED' }))).toEqual({ reason: 'md5', detail: 'MD5-REFUSED' });
    expect(offlineReasonOf(Object.assign(new Error('the floor asked for the password in clear text: not sent'), { code: 'CLEARTEXT-REFUSED' }))).toEqual({ reason: 'cleartext', detail: 'CLEARTEXT-REFUSED' });
  });

  it('says only a standby answers when every host of the floor\'s list is read-only (a standby not promoted), in no English', () => {
    expect(offlineReasonOf(Object.assign(new Error("none of the floor's databases accepts writes"), { code: FLOOR_READ_ONLY }))).toEqual({ reason: 'standby', detail: '' });
  });
});
