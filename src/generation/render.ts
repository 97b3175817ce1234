// Turns a planned variant (article or summary) into audio files and timed segments.
import path from 'node:path';
import { startAssembly, type Assembly, type AssemblyOptions } from '../media/assemble.ts';
import { decodeKept, fetchAudio, type AudioFetchLimits } from '../media/fetchAudio.ts';
import type { Synthesizer, WordTiming } from '../media/synthesizer.ts';
import type { FetchedFiles } from '../media/fetches.ts';
import type { Limit } from '../media/limit.ts';
import { normalizeForSpeech, type NormalizedText } from '../speech/normalize.ts';
import { timingsToWritten } from '../speech/writtenTimings.ts';
import { applyRules } from '../pronunciation/apply.ts';
import type { RuleFields } from '../pronunciation/events.ts';
import type { GenerationLane } from './lifecycle.ts';
import type { PlannedSegment } from './plan.ts';
import { sentencesOf } from './sentences.ts';

export interface RenderDeps {
  synthesizer: Synthesizer;
  sampleRate: number;
  audioLimits: AudioFetchLimits;
  /** The pronunciation rules of the item's scope, applied after normalization (src/pronunciation/apply.ts). */
  rules?: readonly RuleFields[];
  /** The generation's lane: a bulk generation's sentences wait behind every interactive one's for the engine's workers. */
  lane?: GenerationLane;
  /** The item's bound on fetches at once, within the process's (src/media/fetches.ts). */
  fetchLimit?: Limit;
  /** The item's downloads, kept for a retried try (src/media/fetches.ts). */
  fetched?: FetchedFiles;
  /** Where uploaded recordings are kept (a segment's `audio_file` is under it). */
  mediaDir: string;
}

export interface RenderedVariant {
  mp3Path: string;
  hlsPlaylistPath: string;
  durationMs: number;
  segments: Record<string, unknown>[];
}

/** What one request gave: a sentence spoken, or a pre-recorded file fetched; word times from its own start. */
interface PartSound {
  durationMs: number;
  words: WordTiming[];
}

/** One request for sound: a sentence of a text segment, or a segment's pre-recorded file. */
interface Part {
  segment: number;
  wavPath: string;
  /** Characters spoken (0 for a file): a streamed variant's first ones are asked for first. */
  characters: number;
  make(priority: number): Promise<PartSound>;
}

/** A text segment as spoken: what the engine is given for it, which maps its spoken words back to the written ones. */
type Spoken = NormalizedText | null;

// Requests for sound an item has out at once beyond the part the encoder waits for: enough to keep the engines'
// workers busy (Piper's 2 by default), few enough that items speaking at once take turns sentence by sentence.
const LOOKAHEAD = 4;
// The sentences of a streamed variant within its first this many characters (about 10 s of speech, several 2-s HLS
// segments) go before other sentences waiting for a worker.
const LEAD_CHARACTERS = 160;
// Neural engines speak a sentence per request. espeak-ng speaks a whole 1,000-character block in a fraction of a second,
// so its blocks stay whole, as its rhythm across sentences does.
const SENTENCE_ENGINES = new Set(['piper', 'kokoro']);

/** The requests for a plan's sound, in the order they are heard, and each text segment as spoken. */
function partsOf(plan: PlannedSegment[], dir: string, deps: RenderDeps): { parts: Part[]; spoken: Spoken[] } {
  const parts: Part[] = [];
  const spoken = plan.map((segment, index): Spoken => {
    if (segment.content_type === 'text' && segment.text) {
      const voice = segment.voice!;
      // The engine says the normalized text ("five point two million dollars") with the pronunciation rules applied;
      // players show and time the written one.
      const normalized = applyRules(segment.text, normalizeForSpeech(segment.text, voice.language.code), deps.rules ?? [], voice);
      const sentences = SENTENCE_ENGINES.has(voice.engine) ? sentencesOf(normalized.tokens) : [];
      const texts = sentences.length > 1 ? sentences : [normalized.spoken];
      texts.forEach((text, sentence) => {
        const wavPath = path.join(dir, `part-${index}-${sentence}.wav`);
        parts.push({
          segment: index,
          wavPath,
          characters: text.length,
          make: async (priority) => {
            const said = await deps.synthesizer.speak(text, voice, wavPath, { priority });
            return { durationMs: said.durationMs, words: said.words };
          },
        });
      });
      return normalized;
    }
    if (segment.content_type === 'audio' && segment.audio_url) {
      const url = segment.audio_url;
      const wavPath = path.join(dir, `part-${index}.wav`);
      parts.push({
        segment: index,
        wavPath,
        characters: 0,
        make: async () => {
          const kept = segment.audio_file ? path.join(deps.mediaDir, segment.audio_file) : null;
          const fetch = () =>
            kept
              ? decodeKept(kept, 'the uploaded file', wavPath, { ...deps.audioLimits, sampleRate: deps.sampleRate })
              : fetchAudio(url, wavPath, { ...deps.audioLimits, sampleRate: deps.sampleRate, fetched: deps.fetched });
          return { durationMs: (await (deps.fetchLimit ? deps.fetchLimit(fetch) : fetch())).durationMs, words: [] };
        },
      });
    }
    return null;
  });
  return { parts, spoken };
}

/** Priorities for the engines' queues (lower first): interactive before bulk, and within each a streamed variant's lead first. */
function prioritiesOf(parts: readonly Part[], lane: GenerationLane, streamed: boolean): number[] {
  let characters = 0;
  return parts.map((part) => {
    const lead = streamed && characters < LEAD_CHARACTERS;
    characters += part.characters;
    return (lane === 'bulk' ? 2 : 0) + (lead ? 0 : 1);
  });
}

/** A segment's sound as its parts came: the first part's index, its length, and the spoken words timed from its start. */
interface SegmentSound {
  firstPart: number;
  durationMs: number;
  words: WordTiming[];
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
  const { parts, spoken } = partsOf(plan, dir, deps);
  const priorities = prioritiesOf(parts, deps.lane ?? 'interactive', Boolean(assembly.onListenable));
  const writer = await startAssembly(dir, name, deps.sampleRate, assembly);
  // Parts are asked for a few ahead of the encoder (the engines bound how many run at once, in order of priority);
  // the encoder takes each sentence in order as soon as it and all before it are ready, so the first HLS segment
  // waits for the first sentences only, whatever the length of the first paragraph.
  const asked: Promise<PartSound>[] = [];
  const askUpTo = (count: number) => {
    while (asked.length < Math.min(count, parts.length)) {
      const made = parts[asked.length]!.make(priorities[asked.length]!);
      made.catch(() => undefined);
      asked.push(made);
    }
  };
  const sounds = new Map<number, SegmentSound>();
  let assembled: Assembly;
  try {
    let previous: PlannedSegment | null = null;
    for (const [index, part] of parts.entries()) {
      askUpTo(index + 1 + LOOKAHEAD);
      const made = await asked[index]!;
      const segment = plan[part.segment]!;
      let sound = sounds.get(part.segment);
      // A segment's sentences follow each other without a pause, as the engine joins them within one request.
      await writer.append(part.wavPath, sound ? 0 : previous?.section === 'title' ? pauses.afterTitleMs : pauses.afterSegmentMs);
      if (!sound) sounds.set(part.segment, (sound = { firstPart: index, durationMs: 0, words: [] }));
      // The sentence's word times, counted from the segment's start.
      const from = sound.durationMs;
      sound.words.push(...made.words.map((word) => ({ ...word, start_time: word.start_time + from })));
      sound.durationMs += made.durationMs;
      previous = segment;
    }
    assembled = await writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
  // The spoken words of all its sentences go back to the written words at once, as for one request.
  const writtenWords = (index: number, sound: SegmentSound) => {
    const normalized = spoken[index];
    return normalized ? timingsToWritten(plan[index]!.text!, normalized, sound.words) : [];
  };
  // A silent segment (an image, a background video) starts where the next sound starts and lasts 0 ms.
  const startsAfter = (index: number) => {
    for (let next = index; next < plan.length; next++) {
      const sound = sounds.get(next);
      if (sound) return assembled.offsetsMs[sound.firstPart]!;
    }
    return assembled.durationMs;
  };
  const segments = plan.map((segment, index) => {
    const sound = sounds.get(index);
    const startTime = Math.round(startsAfter(index));
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
      words: (sound ? writtenWords(index, sound) : []).map((word) => ({ text: word.text, start_time: startTime + Math.round(word.start_time), duration: Math.round(word.duration) })),
      created: now,
      updated: now,
    };
  });
  return { mp3Path: assembled.mp3Path, hlsPlaylistPath: assembled.hlsPlaylistPath, durationMs: Math.round(assembled.durationMs), segments };
}
