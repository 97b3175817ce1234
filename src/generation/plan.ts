// Plans what a generation speaks: segments in order, each with its voice, for the article and its summary.
import { createHash } from 'node:crypto';
import type { SegmentInput } from '../content/commands.ts';
import type { Voice, VoiceCatalogue } from '../voices/catalogue.ts';
import type { ContentSource, ProjectSettings } from './source.ts';
import { prepareArticle, type PreparedSegment } from './textPreparation.ts';
import type { ContentFilter } from '../contentFilters/apply.ts';

export interface PlannedSegment {
  section: 'title' | 'summary' | 'body' | null;
  content_type: 'text' | 'audio' | 'image' | 'video';
  text: string | null;
  audio_url: string | null;
  /** An uploaded recording, under the media folder: read from there instead of fetching `audio_url`. */
  audio_file?: string | null;
  image_url: string | null;
  video_url: string | null;
  marker: string | null;
  xpath: string | null;
  md5: string | null;
  voice: Voice | null;
  /** A segment's own video settings (crop, volume...), which the video renderer reads. */
  video_settings?: NonNullable<SegmentInput['video_settings']> | null;
}

export interface GenerationPlan {
  article: PlannedSegment[];
  summary: PlannedSegment[];
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A text no voice can read: its language has none (the catalogue never reads a language with another's voice). */
export class NoVoiceError extends Error {
  constructor(readonly language: string) {
    super(`no installed voice reads ${language} (GET /organization/languages lists those that have one)`);
  }
}

/**
 * Voice order: the segment's own, the item's for its section, the project's for its section, the language's default
 * (the closest voice of the language: src/voices/catalogue.ts), else a NoVoiceError.
 */
function voiceResolver(source: ContentSource, project: ProjectSettings, voices: VoiceCatalogue) {
  const { fields } = source;
  const language = fields.language ?? project.language;
  const itemVoice = { title: fields.titleVoiceId, summary: fields.summaryVoiceId, body: fields.bodyVoiceId };
  return (section: PlannedSegment['section'], own: number | null | undefined, ownLanguage?: string | null): Voice | null => {
    const sectionKey = section ?? 'body';
    const candidates = [own, itemVoice[sectionKey], project[sectionKey]?.voice_id];
    for (const id of candidates) {
      const voice = id ? voices.byId(id) : undefined;
      if (voice) return voice;
    }
    const code = ownLanguage ?? language;
    const voice = voices.defaultFor(code);
    if (!voice) throw new NoVoiceError(code);
    return voice;
  };
}

const fromPrepared = (segment: PreparedSegment, voiceOf: ReturnType<typeof voiceResolver>): PlannedSegment => ({
  ...segment,
  audio_url: null,
  video_url: null,
  voice: segment.content_type === 'text' ? voiceOf(segment.section, null) : null,
});

function fromManual(segment: SegmentInput, voiceOf: ReturnType<typeof voiceResolver>): PlannedSegment {
  const text = segment.content_type === 'text' ? (segment.text ?? null) : null;
  return {
    section: segment.section ?? 'body',
    content_type: segment.content_type,
    text,
    audio_url: segment.audio_url ?? null,
    image_url: segment.image_url ?? null,
    video_url: segment.video_url ?? null,
    marker: segment.marker ?? null,
    xpath: null,
    md5: text ? md5(text) : null,
    voice: text ? voiceOf(segment.section ?? 'body', segment.voice?.id, segment.language?.code) : null,
    video_settings: segment.video_settings ?? null,
  };
}

/** `filters`: the project's content filters, applied to an HTML body when it is prepared (docs/content-filters.md). */
export function planGeneration(source: ContentSource, project: ProjectSettings, voices: VoiceCatalogue, filters: readonly ContentFilter[] = []): GenerationPlan {
  const voiceOf = voiceResolver(source, project, voices);
  const { fields } = source;
  switch (source.contentType) {
    case 'auto_segment': {
      const prepared = prepareArticle({
        title: fields.title ?? null,
        summary: fields.summary ?? null,
        body: fields.body ?? '',
        titleEnabled: fields.titleEnabled ?? true,
        bodyEnabled: fields.bodyEnabled ?? true,
        // Unset, the project's summary section decides: the WordPress plugin's excerpt wrapper comes without the flag.
        summaryEnabled: fields.summaryEnabled ?? project.summary?.enabled ?? true,
        summaryTitleEnabled: fields.summaryTitleEnabled ?? false,
        filters,
      });
      return {
        article: prepared.segments.map((segment) => fromPrepared(segment, voiceOf)),
        summary: (fields.summaryEnabled ? prepared.summary : []).map((segment) => fromPrepared(segment, voiceOf)),
      };
    }
    case 'manual_segment': {
      const planned = (fields.segments ?? []).map((segment) => fromManual(segment, voiceOf));
      return { article: planned.filter((segment) => segment.section !== 'summary'), summary: planned.filter((segment) => segment.section === 'summary') };
    }
    case 'audio_upload':
      return {
        article: [{ section: 'body', content_type: 'audio', text: null, audio_url: fields.audioUrl ?? null, audio_file: fields.audioFile ?? null, image_url: null, video_url: null, marker: null, xpath: null, md5: null, voice: null }],
        summary: [],
      };
  }
}
