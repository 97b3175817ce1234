// The facts of an organization's own voices, all in one stream (`voices-<organization id>`): generation folds it
// to find the voices an item names, as it does with pronunciation rules (workers have no read store).
import type { VoiceShift } from '../media/engines/kokoroShift.ts';
import type { SpeechEngine } from '../media/synthesizer.ts';

/** One Kokoro voice of a blend: its engine name is kept beside its id, as the base voice's is. */
export type BlendPart = { voiceId: number; engineVoice: string; weight: number };

/** A voice as stored: what it is built from (a stock voice, an espeak-ng variant, a Kokoro blend and shift) and how fast it speaks. */
export type CustomVoiceFields = {
  name: string;
  type: 'custom' | 'designed';
  /** The stock voice of the catalogue it speaks with. */
  baseVoiceId: number;
  engine: SpeechEngine;
  /** The engine's name of the base voice, kept so the voice still speaks if the catalogue renumbers. */
  engineVoice: string;
  /** An espeak-ng voice variant (`f3`, `croak`); null for Piper voices, which have none. */
  variant: string | null;
  speed: number;
  /**
   * Kokoro voices mixed into the base voice's style vector, with their share (the base keeps the rest); null or
   * absent (voices stored before blends existed) when it speaks with its base voice alone.
   */
  blend?: BlendPart[] | null;
  /**
   * A Kokoro voice's pitch shift (semitones) and timbre tilt (dB of its low and high bands), applied by ffmpeg after
   * it speaks (src/media/engines/kokoroShift.ts); null or absent when it speaks as its blend does.
   */
  shift?: VoiceShift | null;
  language: { code: string; name: string };
  gender: 'female' | 'male' | 'neutral' | null;
  accent: string | null;
  description: string | null;
};

export type CustomVoiceCreated = {
  type: 'CustomVoiceCreated';
  data: { voiceId: number; organizationId: number; fields: CustomVoiceFields; created: string };
};
export type CustomVoiceUpdated = { type: 'CustomVoiceUpdated'; data: { voiceId: number; changes: Partial<CustomVoiceFields>; updated: string } };
export type CustomVoiceDeleted = { type: 'CustomVoiceDeleted'; data: { voiceId: number; deleted: string } };

export type CustomVoiceEvent = CustomVoiceCreated | CustomVoiceUpdated | CustomVoiceDeleted;

export const VOICES_STREAM_PREFIX = 'voices-';
export const voicesStream = (organizationId: number) => `${VOICES_STREAM_PREFIX}${organizationId}`;

/**
 * Custom voice ids start here: stock ids lie between 100,000 and 1,000,000 (derived from the engine's names, see
 * catalogue.ts), so the two never meet however many voices an organization makes.
 */
export const CUSTOM_VOICE_ID_BASE = 10_000_000;
