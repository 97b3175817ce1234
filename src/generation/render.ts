// Turns a planned variant (article or summary) into audio files and timed segments.
import path from 'node:path';
import { startAssembly, type Assembly, type AssemblyOptions } from '../media/assemble.ts';
import { fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import type { Synthesizer, WordTiming } from '../media/synthesizer.ts';
import { normalizeForSpeech } from '../speech/normalize.ts';
import { timingsToWritten } from '../speech/writtenTimings.ts';
import { applyRules } from '../pronunciation/apply.ts';
import type { RuleFields } from '../pronunciation/events.ts';
import type { PlannedSegment } from './plan.ts';

export interface RenderDeps {
  synthesizer: Synthesizer;
  sampleRate: number;
  audioLimits: AudioFetchLimits;
  /** The pronunciation rules of the item's scope, applied after normalization (src/pronunciation/apply.ts). */
  rules?: readonly RuleFields[];
}

export interface RenderedVariant {
  mp3Path: string;
  hlsPlaylistPath: string;
  durationMs: number;
  segments: Record<string, unknown>[];
}

interface Sound {
  wavPath: string;
  durationMs: number;
  words: WordTiming[];
}

async function soundOf(segment: PlannedSegment, index: number, dir: string, deps: RenderDeps): Promise<Sound | null> {
  const wavPath = path.join(dir, `part-${index}.wav`);
  if (segment.content_type === 'text' && segment.text) {
    // The engine says the normalized text ("five point two million dollars") with the pronunciation rules applied;
    // players show and time the written one.
    const normalized = applyRules(segment.text, normalizeForSpeech(segment.text, segment.voice!.language.code), deps.rules ?? [], segment.voice!);
    const spoken = await deps.synthesizer.speak(normalized.spoken, segment.voice!, wavPath);
    return { wavPath, durationMs: spoken.durationMs, words: timingsToWritten(segment.text, normalized, spoken.words) };
  }
  if (segment.content_type === 'audio' && segment.audio_url) {
    const fetched = await fetchAudio(segment.audio_url, wavPath, { ...deps.audioLimits, sampleRate: deps.sampleRate });
    return { wavPath, durationMs: fetched.durationMs, words: [] };
  }
  return null;
}

/** Segments without sound (images, background video) start where the next sound starts and last 0 ms. */
export async function renderVariant(
  plan: PlannedSegment[],
  dir: string,
  name: 'article' | 'summary',
  pauses: { afterTitleMs: number; afterSegmentMs: number },
  deps: RenderDeps,
  now: string,
  assembly: AssemblyOptions = {},
): Promise<RenderedVariant> {
  const writer = await startAssembly(dir, name, deps.sampleRate, assembly);
  // Every sound is asked for now (the synthesizer bounds how many run at once); the encoder takes
  // each in order as soon as it and all before it are ready, so encoding overlaps synthesis.
  const pending = plan.map((segment, index) => soundOf(segment, index, dir, deps));
  for (const sound of pending) sound.catch(() => undefined);
  const sounds: { segment: PlannedSegment; sound: Sound | null }[] = [];
  let assembled: Assembly;
  try {
    let previous: PlannedSegment | null = null;
    for (const [index, segment] of plan.entries()) {
      const sound = await pending[index]!;
      sounds.push({ segment, sound });
      if (!sound) continue;
      await writer.append(sound.wavPath, previous?.section === 'title' ? pauses.afterTitleMs : pauses.afterSegmentMs);
      previous = segment;
    }
    assembled = await writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
  let audibleSoFar = 0;
  const segments = sounds.map(({ segment, sound }, index) => {
    // A sound's own offset; for a silent segment, the offset of the sound after it.
    const startTime = Math.round(assembled.offsetsMs[audibleSoFar] ?? assembled.durationMs);
    if (sound) audibleSoFar += 1;
    return {
      id: index + 1,
      marker: segment.marker,
      section: segment.section,
      content_type: segment.content_type,
      text: segment.text,
      audio_url: segment.audio_url,
      image_url: segment.image_url,
      video_url: segment.video_url,
      start_time: startTime,
      duration: sound ? Math.round(sound.durationMs) : 0,
      voice: segment.voice ? { id: segment.voice.id, name: segment.voice.name } : null,
      language: segment.voice ? { code: segment.voice.language.code, name: segment.voice.language.name } : null,
      preprocessing_settings: null,
      xpath: segment.xpath,
      md5: segment.md5,
      video_settings: segment.video_settings ?? null,
      pauses: [],
      words: (sound?.words ?? []).map((word) => ({ text: word.text, start_time: startTime + Math.round(word.start_time), duration: Math.round(word.duration) })),
      created: now,
      updated: now,
    };
  });
  return { mp3Path: assembled.mp3Path, hlsPlaylistPath: assembled.hlsPlaylistPath, durationMs: Math.round(assembled.durationMs), segments };
}
