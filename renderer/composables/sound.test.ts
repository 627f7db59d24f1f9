// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { usePreferences } from './preferences';
import { installAudioUnlock, playPeriodTone, playTone, resetAudio, TONES, unlockAudio } from './sound';

/** A Web Audio stand-in: records the oscillators started. */
class FakeAudioContext {
  static made = 0;
  state: 'suspended' | 'running' = 'running';
  currentTime = 0;
  readonly destination = {};
  readonly started: { type: string; frequency: number }[] = [];
  constructor() {
    FakeAudioContext.made += 1;
    contexts.push(this);
  }
  resume(): Promise<void> {
    this.state = 'running';
    return Promise.resolve();
  }
  createOscillator() {
    const oscillator = {
      type: 'sine',
      frequency: { value: 0, setValueAtTime: (value: number) => (oscillator.frequency.value = value) },
      connect: () => undefined,
      start: () => this.started.push({ type: oscillator.type, frequency: oscillator.frequency.value }),
      stop: () => undefined,
    };
    return oscillator;
  }
  createGain() {
    return { gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined }, connect: () => undefined };
  }
}
const contexts: FakeAudioContext[] = [];
const scope = globalThis as { AudioContext?: unknown };

afterEach(() => {
  delete scope.AudioContext;
  contexts.length = 0;
  FakeAudioContext.made = 0;
  usePreferences().sound.value = true;
  resetAudio();
});

describe('sounds of a card read', () => {
  it('is on by default (a screen preference beside the four-color deck)', () => {
    expect(usePreferences().sound.value).toBe(true);
  });

  it('stays silent, without failing, where there is no audio (this DOM has none)', () => {
    expect(scope.AudioContext).toBeUndefined();
    unlockAudio();
    expect(playTone('accepted')).toBe(false);
  });

  it('makes no sound before a user gesture has allowed audio', () => {
    scope.AudioContext = FakeAudioContext;
    expect(playTone('accepted')).toBe(false);
    expect(FakeAudioContext.made).toBe(0);
  });

  it('plays one high beep for a card taken and two lower notes for one refused, once a gesture unlocked audio', () => {
    scope.AudioContext = FakeAudioContext;
    const stop = installAudioUnlock(window);
    window.dispatchEvent(new Event('pointerdown'));
    stop();
    expect(FakeAudioContext.made).toBe(1);
    expect(playTone('accepted')).toBe(true);
    expect(playTone('refused')).toBe(true);
    expect(contexts[0]?.started).toEqual([
      { type: 'sine', frequency: 1320 },
      { type: 'square', frequency: 330 },
      { type: 'square', frequency: 220 },
    ]);
    expect(TONES.accepted.notes).toHaveLength(1);
  });

  it('is silent when turned off in the settings (and makes no audio context at all)', () => {
    scope.AudioContext = FakeAudioContext;
    usePreferences().sound.value = false;
    unlockAudio();
    expect(FakeAudioContext.made).toBe(0);
    expect(playTone('refused')).toBe(false);
  });

  it('fails silently when the audio context cannot be made', () => {
    scope.AudioContext = class {
      constructor() {
        throw new Error('no audio device');
      }
    };
    expect(() => unlockAudio()).not.toThrow();
    expect(playTone('accepted')).toBe(false);
  });
});

describe("the room clock's tone", () => {
  it('makes its own audio context (a TV has no one to tap it), plays two rising notes, whatever the card reads’ preference', () => {
    scope.AudioContext = FakeAudioContext;
    usePreferences().sound.value = false;
    expect(playPeriodTone()).toBe(true);
    expect(FakeAudioContext.made).toBe(1);
    expect(contexts[0]?.started).toEqual(TONES.period.notes.map((note) => ({ type: 'sine', frequency: note.frequency })));
    expect(TONES.period.notes[1]?.frequency).toBeGreaterThan(TONES.period.notes[0]?.frequency ?? Infinity);
  });

  it('is silent, without failing, where there is no audio or the browser holds it until a gesture', () => {
    expect(playPeriodTone()).toBe(false);
    resetAudio();
    class Held extends FakeAudioContext {
      override state: 'suspended' | 'running' = 'suspended';
      override resume(): Promise<void> {
        return Promise.reject(new Error('not allowed'));
      }
    }
    scope.AudioContext = Held;
    expect(playPeriodTone()).toBe(false);
    expect(contexts[0]?.started).toEqual([]);
  });
});
