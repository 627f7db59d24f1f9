import { usePreferences } from './preferences';

/**
 * The short tones a card read makes: made on the spot with the Web Audio API (an oscillator
 * through a gain envelope; no audio file, nothing fetched). Audio starts only after a user gesture
 * (the browser allows it then): the first tap, click or key press creates the audio context. Where
 * there is no audio (no Web Audio, a test's DOM, the context refused) every call does nothing.
 */
export type Tone = 'accepted' | 'refused' | 'period';

interface Note {
  readonly frequency: number;
  /** Seconds after the tone starts. */
  readonly at: number;
  readonly length: number;
}

/** Accepted: one short high beep. Refused: two lower, buzzier notes falling — unmistakably different. */
export const TONES: Readonly<Record<Tone, { readonly wave: OscillatorType; readonly volume: number; readonly notes: readonly Note[] }>> = {
  accepted: { wave: 'sine', volume: 0.25, notes: [{ frequency: 1320, at: 0, length: 0.08 }] },
  refused: {
    wave: 'square',
    volume: 0.12,
    notes: [
      { frequency: 330, at: 0, length: 0.13 },
      { frequency: 220, at: 0.16, length: 0.2 },
    ],
  },
  /** The room's clock: a level or break begins — two soft rising notes, heard across the room. */
  period: {
    wave: 'sine',
    volume: 0.3,
    notes: [
      { frequency: 660, at: 0, length: 0.25 },
      { frequency: 880, at: 0.3, length: 0.45 },
    ],
  },
};

type AudioContextClass = new () => AudioContext;

let context: AudioContext | null = null;
let unavailable = false;

function audioContextClass(): AudioContextClass | undefined {
  const scope = globalThis as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
  return scope.AudioContext ?? scope.webkitAudioContext;
}

/** Called from a user gesture: creates (or resumes) the audio context, if sound is on and there is audio. */
export function unlockAudio(): void {
  if (unavailable || !usePreferences().sound.value) return;
  try {
    if (context === null) {
      const Context = audioContextClass();
      if (Context === undefined) {
        unavailable = true;
        return;
      }
      context = new Context();
    }
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
  } catch {
    unavailable = true;
    context = null;
  }
}

/** Plays a tone if sound is on and audio has been allowed; says whether it did. Never throws. */
export function playTone(tone: Tone): boolean {
  const audio = context;
  if (audio === null || audio.state !== 'running' || !usePreferences().sound.value) return false;
  return play(audio, tone);
}

/**
 * The room clock's tone on the player display (a level or break begins), which the station's
 * `display.clockSound` setting governs, not the card reads' preference: the audio context is made
 * here if there is none yet (a TV has no one to tap it; where the browser holds audio until a
 * gesture, the tone is silent until then). Says whether it played. Never throws.
 */
export function playPeriodTone(): boolean {
  if (unavailable) return false;
  try {
    if (context === null) {
      const Context = audioContextClass();
      if (Context === undefined) {
        unavailable = true;
        return false;
      }
      context = new Context();
    }
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
  } catch {
    unavailable = true;
    context = null;
    return false;
  }
  return context.state === 'running' && play(context, 'period');
}

function play(audio: AudioContext, tone: Tone): boolean {
  try {
    const { wave, volume, notes } = TONES[tone];
    const start = audio.currentTime;
    for (const note of notes) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const from = start + note.at;
      const until = from + note.length;
      oscillator.type = wave;
      oscillator.frequency.setValueAtTime(note.frequency, from);
      gain.gain.setValueAtTime(0.0001, from);
      gain.gain.exponentialRampToValueAtTime(volume, from + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, until);
      oscillator.connect(gain);
      gain.connect(audio.destination);
      oscillator.start(from);
      oscillator.stop(until + 0.02);
    }
    return true;
  } catch {
    return false;
  }
}

/** Unlocks audio on the first gestures (every tap and key press, until it runs). Returns the function that stops listening. */
export function installAudioUnlock(target: Window = window): () => void {
  const listener = (): void => {
    if (context?.state !== 'running') unlockAudio();
  };
  const options = { capture: true, passive: true } as const;
  target.addEventListener('pointerdown', listener, options);
  target.addEventListener('keydown', listener, options);
  return () => {
    target.removeEventListener('pointerdown', listener, options);
    target.removeEventListener('keydown', listener, options);
  };
}

/** For tests: forget the audio context (and that there was none). */
export function resetAudio(): void {
  context = null;
  unavailable = false;
}
