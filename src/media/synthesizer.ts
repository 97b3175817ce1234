// The speech port: speaks text with a voice of one of the engines (Piper, Kokoro, Pico, RHVoice, espeak-ng) into a WAV, with the time of each written word.
import { SynthesisError } from './errors.ts';
import type { EspeakEngine } from './engines/espeak.ts';
import type { KokoroEngine } from './engines/kokoro.ts';
import type { PicoEngine } from './engines/pico.ts';
import type { PiperEngine } from './engines/piper.ts';
import type { RhvoiceEngine } from './engines/rhvoice.ts';
import type { WordTiming } from './wordTimings.ts';

export type { WordTiming };

export type SpeechEngine = 'piper' | 'kokoro' | 'pico' | 'rhvoice' | 'espeak-ng';

/**
 * Which engine speaks, its own name of the voice (a Piper voice package, a Kokoro voice or blend, a Pico language, an
 * RHVoice voice, an espeak-ng `-v` name), and how fast (1 when unset).
 */
export interface EngineVoice {
  engine: SpeechEngine;
  engineVoice: string;
  speed?: number;
}

export interface SpokenText {
  wavPath: string;
  sampleRate: number;
  samples: number;
  durationMs: number;
  words: WordTiming[];
}

/** How soon a request is wanted: among requests waiting for a neural engine's worker, a lower `priority` goes first (then arrival); 0 when unset. */
export interface SpeakOptions {
  priority?: number;
}

export interface Synthesizer {
  speak(text: string, voice: EngineVoice, wavPath: string, options?: SpeakOptions): Promise<SpokenText>;
}

/** The rate espeak-ng's voices and the Piper voices offered speak at; Kokoro's 24 kHz is resampled to it by its worker, so assembly need not resample. */
export const SAMPLE_RATE = 22050;

/** Sends each request to its voice's engine; Piper, Kokoro, Pico and RHVoice are absent when they are not installed. */
export function createSynthesizer(engines: { espeak: EspeakEngine; piper?: PiperEngine; kokoro?: KokoroEngine; pico?: PicoEngine; rhvoice?: RhvoiceEngine }): Synthesizer {
  return {
    speak(text, { engine, engineVoice, speed }, wavPath, options = {}) {
      if (engine === 'espeak-ng') return engines.espeak.speak(text, engineVoice, wavPath, speed);
      if (engine === 'pico' || engine === 'rhvoice') {
        const own = engines[engine];
        if (!own) return Promise.reject(new SynthesisError('unknown-voice', `${engine === 'pico' ? 'Pico' : 'RHVoice'} is not installed here: no voice ${engineVoice}`));
        return own.speak(text, engineVoice, wavPath, speed);
      }
      if (engine === 'kokoro') {
        if (!engines.kokoro) return Promise.reject(new SynthesisError('unknown-voice', `Kokoro is not installed here: no voice ${engineVoice}`));
        return engines.kokoro.speak(text, engineVoice, wavPath, speed, options.priority);
      }
      if (!engines.piper) return Promise.reject(new SynthesisError('unknown-voice', `Piper is not installed here: no voice ${engineVoice}`));
      return engines.piper.speak(text, engineVoice, wavPath, speed, options.priority);
    },
  };
}
