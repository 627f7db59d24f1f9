import { describe, expect, it } from 'vitest';
import { InputError } from '../../engine/errors';
import { ALL_BUILT_IN_PROFILES, BINARY_PROFILES, BUILT_IN_PROFILES, DEFAULT_PROFILE, readProfile } from '../profile';
import { builtInProfile, LINE_OPTION_SPECS, parseOptions, profileArgument, withLineOptions } from './args';

const SPEC = {
  port: { kind: 'text', required: true },
  count: { kind: 'whole', min: 1, max: 100 },
  rate: { kind: 'number', min: 0.1, max: 1000 },
} as const;

function refusal(run: () => unknown): { field: string; reason: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return { field: error.field, reason: error.reason };
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseOptions', () => {
  it('reads --name value and --name=value, skipping the -- npm passes', () => {
    expect(parseOptions(['--', '--port', '/tmp/a', '--count=3', '--rate', '2.5'], SPEC)).toEqual({ port: '/tmp/a', count: 3, rate: 2.5 });
    expect(parseOptions(['--port=COM3'], SPEC)).toEqual({ port: 'COM3' });
  });

  it('refuses, naming the option: missing, unknown, repeated, without value, stray words', () => {
    expect(refusal(() => parseOptions([], SPEC))).toEqual({ field: '--port', reason: 'is required' });
    expect(refusal(() => parseOptions(['--port', 'a', '--speed', '3'], SPEC))).toEqual({
      field: '--speed',
      reason: 'unknown option; options are --port, --count, --rate',
    });
    expect(refusal(() => parseOptions(['--port', 'a', '--port', 'b'], SPEC))).toEqual({ field: '--port', reason: 'given twice' });
    expect(refusal(() => parseOptions(['--port', '--count', '2'], SPEC))).toEqual({ field: '--port', reason: 'needs a value' });
    expect(refusal(() => parseOptions(['--port='], SPEC))).toEqual({ field: '--port', reason: 'needs a value' });
    expect(refusal(() => parseOptions(['--port', 'a', 'b'], SPEC)).field).toBe('b');
  });

  it('refuses numbers that are not numbers, not whole, or out of range', () => {
    for (const bad of ['0', '101', '2.5', 'ten', '', '1e2', '-1']) {
      const result = refusal(() => parseOptions(['--port', 'a', `--count=${bad}`], SPEC));
      expect(result.field).toBe('--count');
    }
    expect(refusal(() => parseOptions(['--port', 'a', '--count', '0'], SPEC)).reason).toBe('must be a whole number from 1 to 100 (got "0")');
    expect(refusal(() => parseOptions(['--port', 'a', '--rate', '0'], SPEC)).reason).toBe('must be a number from 0.1 to 1000 (got "0")');
    expect(parseOptions(['--port', 'a', '--rate', '.5'], SPEC).rate).toBe(0.5);
  });
});

describe('profiles from arguments', () => {
  it('takes every built-in name, the console\'s and the others', () => {
    expect(Object.keys(ALL_BUILT_IN_PROFILES)).toEqual([...Object.keys(BUILT_IN_PROFILES), 'stx-plain', ...Object.keys(BINARY_PROFILES)]);
    for (const [name, profile] of Object.entries(ALL_BUILT_IN_PROFILES)) {
      expect(builtInProfile(name, '--format')).toBe(profile);
      expect(profileArgument(name, '--decoder')).toBe(profile);
    }
    expect(refusal(() => builtInProfile('morse', '--format'))).toEqual({
      field: '--format',
      reason: `unknown format "morse"; choose ${Object.keys(ALL_BUILT_IN_PROFILES).join(', ')}`,
    });
    expect(refusal(() => profileArgument('morse', '--format')).reason).toMatch(/^unknown format "morse"; choose text, .*, stx-plain, rdm6300, .*, uhf-a0 or give the path of a JSON profile file$/);
  });

  it('reads and validates a JSON profile file', () => {
    const files: Record<string, string> = {
      'vendor.json': JSON.stringify({
        name: 'vendor',
        baud: 19200,
        framing: { kind: 'stx-etx', checksum: 'xor' },
        decoder: { kind: 'pattern', pattern: '^C(?<suit>[1-4])(?<rank>\\d\\d)$', suits: { '1': 's' }, ranks: { '01': 'A' } },
      }),
      'bad.json': JSON.stringify({ framing: { kind: 'morse' }, decoder: { kind: 'text' } }),
      'broken.json': '{',
    };
    const readFile = (path: string): string => {
      if (!(path in files)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return files[path] as string;
    };
    expect(profileArgument('vendor.json', '--decoder', readFile)).toMatchObject({ name: 'vendor', baud: 19200 });
    expect(refusal(() => profileArgument('bad.json', '--decoder', readFile))).toEqual({
      field: '--decoder',
      reason: 'bad.json: framing.kind: unknown framing "morse"; choose lines, stx-etx, silence or binary',
    });
    expect(refusal(() => profileArgument('broken.json', '--decoder', readFile)).reason).toMatch(/^broken\.json: not valid JSON/);
    expect(refusal(() => profileArgument('missing.json', '--decoder', readFile)).reason).toBe('missing.json: no such file');
    expect(refusal(() => profileArgument('morse', '--decoder', readFile)).reason).toMatch(/^unknown decoder "morse"; choose text, .* or give the path of a JSON profile file$/);
  });
});

describe('switches and line-setting options', () => {
  const SWITCHED = { port: { kind: 'text' }, ...LINE_OPTION_SPECS } as const;

  it('a switch is true alone, or says true or false after =; it takes no separate value', () => {
    expect(parseOptions(['--rtscts', '--port', 'a'], SWITCHED)).toEqual({ rtscts: true, port: 'a' });
    expect(parseOptions(['--rtscts=false'], SWITCHED)).toEqual({ rtscts: false });
    expect(refusal(() => parseOptions(['--rtscts=yes'], SWITCHED))).toEqual({
      field: '--rtscts',
      reason: 'is a switch: give --rtscts alone, or --rtscts=true or --rtscts=false (got "yes")',
    });
    expect(refusal(() => parseOptions(['--rtscts', 'false'], SWITCHED)).field).toBe('false');
    expect(refusal(() => parseOptions(['--rtscts', '--rtscts'], SWITCHED))).toEqual({ field: '--rtscts', reason: 'given twice' });
  });

  it('line options replace the profile\'s settings, checked by the profile\'s validator and refused by option name', () => {
    const sevenE1 = readProfile({ dataBits: 7, parity: 'even', rtscts: true, framing: { kind: 'lines' }, decoder: { kind: 'text' } });
    expect(withLineOptions(DEFAULT_PROFILE, parseOptions(['--data-bits', '7', '--parity', 'even', '--stop-bits', '1.5', '--rtscts'], SWITCHED))).toEqual({
      ...DEFAULT_PROFILE,
      dataBits: 7,
      parity: 'even',
      stopBits: 1.5,
      rtscts: true,
    });
    // Only what is given changes: the profile keeps the rest.
    expect(withLineOptions(sevenE1, { 'stop-bits': '2', rtscts: false })).toMatchObject({ dataBits: 7, parity: 'even', stopBits: 2, rtscts: false });
    expect(withLineOptions(sevenE1, {})).toEqual(sevenE1);
    expect(refusal(() => withLineOptions(DEFAULT_PROFILE, { 'data-bits': '4' }))).toEqual({ field: '--data-bits', reason: 'must be 5, 6, 7 or 8 (got 4)' });
    expect(refusal(() => withLineOptions(DEFAULT_PROFILE, { 'data-bits': 'seven' }))).toEqual({ field: '--data-bits', reason: 'must be 5, 6, 7 or 8 (got "seven")' });
    expect(refusal(() => withLineOptions(DEFAULT_PROFILE, { parity: 'Even' }))).toEqual({ field: '--parity', reason: 'choose one of none, even, odd, mark, space (got "Even")' });
    expect(refusal(() => withLineOptions(DEFAULT_PROFILE, { 'stop-bits': '1.25' }))).toEqual({ field: '--stop-bits', reason: 'must be 1, 1.5 or 2 (got 1.25)' });
  });
});
