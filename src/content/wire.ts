// The content item's wire format: its zod schema (source of the OpenAPI document), the one mapping to it, and list queries.
import { z } from 'zod';
import { parseOrThrow } from '../shared/validation.ts';
import { queryBoolean, queryDateTime, queryInt } from '../shared/wireSchemas.ts';
import { storedObject, timestamp, urlText } from '../shared/wireResponses.ts';
import { contentTypes, segmentsDetail, type SegmentsDetail } from './commands.ts';
import { contentStatuses, type ContentItemView, type ContentListQuery } from './readModel.ts';
import type { MediaFileRecord } from './events.ts';
import { segmentsForClients } from './segments.ts';
import { fieldFilter } from './search.ts';

const text = z.string().nullable();
const int = z.number().int();

export const mediaFileWire = z
  .object({
    id: int.min(1),
    content_type: z.string().describe('`audio/mpeg`, `application/x-mpegURL` or `video/mp4`'),
    url: urlText,
    duration: int.min(0).describe('Milliseconds'),
    variant: z.enum(['article', 'summary']).describe('Whether the file reads the article or its summary'),
    video_size: z.object({ name: z.string(), width: z.number().int(), height: z.number().int() }).optional().describe('Video files only'),
  })
  .meta({ id: 'MediaFile', description: 'An audio or video file generated for an item.' });
export type MediaFileWire = z.infer<typeof mediaFileWire>;

export const wordWire = z
  .object({ text: z.string(), start_time: int.min(0).describe('Milliseconds from the start of its segment'), duration: int.min(0) })
  .meta({ id: 'Word' });

const cropCoordinates = z.object({ '16:9': z.array(z.number()), '9:16': z.array(z.number()) }).partial().nullable();
const mediaVideoSettings = z
  .object({ enabled: z.boolean(), volume: int, plays_in_background: z.boolean(), hides_background_images: z.boolean(), crop_coordinates: cropCoordinates })
  .partial();
const preprocessingSettings = z.object({ ai_preprocessing_enabled: z.boolean() }).partial();

export const segmentWire = z
  .object({
    id: int.nullable(),
    marker: z.string().describe('The marker given, else one generated from the item and the segment, stable across regenerations'),
    section: z.enum(['title', 'summary', 'body']).nullable(),
    content_type: z.enum(['text', 'audio', 'image', 'video']),
    text: text.describe('null with `segments=partial`'),
    audio_url: urlText.nullable(),
    image_url: urlText.nullable(),
    video_url: urlText.nullable(),
    start_time: int.min(0).nullable().describe('Milliseconds from the start of the media'),
    duration: int.min(0).nullable().describe('Milliseconds'),
    voice: z.object({ id: int, name: z.string() }).nullable(),
    language: z.object({ code: z.string(), name: z.string() }).nullable(),
    preprocessing_settings: preprocessingSettings.nullable(),
    xpath: text,
    md5: text,
    video_settings: mediaVideoSettings.nullable(),
    pauses: z.array(z.object({ time: z.number(), index: int })),
    words: z.array(wordWire).optional().describe('Only with `words=partial` or `words=full`'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'Segment' });
export type SegmentWire = z.infer<typeof segmentWire>;

export const contentItemWire = z
  .object({
    id: z.uuid(),
    legacy_id: int.min(0).describe('Numeric id accepted wherever the item id is'),
    type: z.enum(contentTypes),
    status: z.enum(contentStatuses),
    error: text.describe('Why generation failed or was skipped'),
    title: text,
    summary: text,
    body: text,
    audio_url: urlText.nullable().describe('The recording of an `audio_upload` item'),
    title_enabled: z.boolean(),
    body_enabled: z.boolean(),
    summary_enabled: z.boolean(),
    summary_title_enabled: z.boolean(),
    source_id: text,
    source_url: urlText.nullable(),
    author: text,
    image_url: urlText.nullable(),
    metadata: storedObject.nullable(),
    tags: z.array(z.string()),
    access_tiers: z.array(int).describe('Ids of the access tiers that may play the item; empty: everyone'),
    audio: z.array(mediaFileWire),
    video: z.array(mediaFileWire),
    audio_with_intro_outro: z.array(storedObject),
    summarization: storedObject,
    segments: z.array(segmentWire).nullable().describe('null with `segments=none`'),
    duration: int.min(0).nullable().describe('Milliseconds of the article audio, once generated'),
    published: z.boolean(),
    video_published: z.boolean(),
    publish_date: timestamp.nullable(),
    ads_enabled: z.boolean(),
    ai_summary_prompt: text,
    ai_summary_updates_enabled: z.boolean(),
    auto_segment_updates_enabled: z.boolean(),
    title_voice_id: int.nullable(),
    summary_voice_id: int.nullable(),
    body_voice_id: int.nullable(),
    language: text,
    background_track: z.object({ enabled: z.boolean(), track: z.object({ id: int }).nullable() }).nullable(),
    feature_image: z.object({ url: urlText, video_settings: mediaVideoSettings.optional() }).nullable(),
    feature_video: z.object({ url: urlText, video_settings: mediaVideoSettings.optional() }).nullable(),
    summarization_settings: storedObject.describe('As sent; {} when never set'),
    video_settings: storedObject.nullable(),
    preprocessing_settings: preprocessingSettings.nullable(),
    preview_token: z.string().describe('Shows the item in player data before it is published'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'ContentItem' });
export type ContentItemWire = z.infer<typeof contentItemWire>;

export interface Detail {
  segments: SegmentsDetail;
  words: SegmentsDetail;
}

/** Media URLs are stored as paths, so a change of host name needs no rewrite of history. */
export const mediaToWire = (files: (MediaFileRecord & Pick<MediaFileWire, 'video_size'>)[], baseUrl: string): MediaFileWire[] =>
  files.map(({ id, content_type, url, duration, variant, video_size }) => ({
    id,
    content_type,
    url: `${baseUrl}${url}`,
    duration,
    // Older items recorded no variant: they are articles.
    variant: variant ?? 'article',
    ...(video_size ? { video_size } : {}),
  }));

export function contentToWire(item: ContentItemView, detail: Detail, baseUrl: string): ContentItemWire {
  const backgroundTrack = item.backgroundTrack;
  return {
    id: item._id,
    legacy_id: item.legacyId,
    type: item.contentType,
    status: item.status,
    error: item.error ?? null,
    title: item.title ?? null,
    summary: item.summary ?? null,
    body: item.body ?? null,
    audio_url: item.audioUrl ?? null,
    title_enabled: item.titleEnabled ?? true,
    body_enabled: item.bodyEnabled ?? true,
    summary_enabled: item.summaryEnabled ?? false,
    summary_title_enabled: item.summaryTitleEnabled ?? false,
    source_id: item.sourceId ?? null,
    source_url: item.sourceUrl ?? null,
    author: item.author ?? null,
    image_url: item.imageUrl ?? null,
    metadata: item.metadataJson == null ? null : (JSON.parse(item.metadataJson) as Record<string, unknown>),
    tags: item.tags ?? [],
    access_tiers: item.accessTiers ?? [],
    // While processing, the playlist that grows as the item is made (docs/generation.md, "Listening while it is made").
    audio: mediaToWire(item.liveAudio ? [item.liveAudio] : item.audio, baseUrl),
    video: mediaToWire(item.video, baseUrl),
    audio_with_intro_outro: mediaToWire(item.audioWithIntroOutro ?? [], baseUrl),
    summarization: {},
    // Markers and segment-relative word times (src/content/segments.ts, issue 9 item 13).
    segments: segmentsAt(segmentsForClients(item._id, item.segments), detail),
    duration: item.duration ?? null,
    published: item.published ?? false,
    video_published: item.videoPublished ?? false,
    publish_date: item.publishDate ?? null,
    ads_enabled: item.adsEnabled ?? true,
    ai_summary_prompt: item.aiSummaryPrompt ?? null,
    ai_summary_updates_enabled: item.aiSummaryUpdatesEnabled ?? false,
    auto_segment_updates_enabled: item.autoSegmentUpdatesEnabled ?? false,
    title_voice_id: item.titleVoiceId ?? null,
    summary_voice_id: item.summaryVoiceId ?? null,
    body_voice_id: item.bodyVoiceId ?? null,
    language: item.language ?? null,
    background_track: backgroundTrack ? { enabled: backgroundTrack.enabled ?? false, track: backgroundTrack.track ?? null } : null,
    feature_image: item.featureImage ?? null,
    feature_video: item.featureVideo ?? null,
    summarization_settings: item.summarizationSettings ?? {},
    video_settings: item.videoSettings ?? null,
    preprocessing_settings: item.preprocessingSettings ?? null,
    preview_token: item.previewToken,
    created: item.created,
    updated: item.updated,
  };
}

/** `segments=partial` answers each segment's text as null; words come only with `words=partial` or `full`. */
function segmentsAt(segments: Record<string, unknown>[], detail: Detail): SegmentWire[] | null {
  if (detail.segments === 'none') return null;
  return segments.map((stored) => {
    const segment = stored as Partial<SegmentWire>;
    return {
      id: segment.id ?? null,
      marker: segment.marker!,
      section: segment.section ?? null,
      content_type: segment.content_type ?? 'text',
      text: detail.segments === 'full' ? (segment.text ?? null) : null,
      audio_url: segment.audio_url ?? null,
      image_url: segment.image_url ?? null,
      video_url: segment.video_url ?? null,
      start_time: segment.start_time ?? null,
      duration: segment.duration ?? null,
      voice: segment.voice ?? null,
      language: segment.language ?? null,
      preprocessing_settings: segment.preprocessing_settings ?? null,
      xpath: segment.xpath ?? null,
      md5: segment.md5 ?? null,
      video_settings: segment.video_settings ?? null,
      pauses: segment.pauses ?? [],
      ...(detail.words === 'none' ? {} : { words: segment.words ?? [] }),
      created: segment.created!,
      updated: segment.updated!,
    };
  });
}

export const detailQuery = z.object({ segments: segmentsDetail.default('partial'), words: segmentsDetail.default('none') });

/** Page size when `pagination[limit]` is not given, and the largest one allowed. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const orderFields = { created: 'created', publish_date: 'publishDate', duration: 'duration', published: 'published', status: 'status' } as const;

export const listQuerySchema = z.object({
  segments: segmentsDetail.default('partial'),
  words: segmentsDetail.default('none'),
  'filter[id]': z.string().max(255).optional(),
  'filter[source_id]': z.string().max(255).optional(),
  'filter[source_url]': z.string().max(2048).optional(),
  'filter[title]': z.string().max(500).optional(),
  'filter[body]': z.string().max(1000).optional(),
  'filter[published]': queryBoolean.optional(),
  'filter[video_published]': queryBoolean.optional(),
  'filter[statuses][]': z.array(z.enum(contentStatuses)).optional(),
  'filter[created][from]': queryDateTime.optional(),
  'filter[created][to]': queryDateTime.optional(),
  'filter[updated][from]': queryDateTime.optional(),
  'filter[updated][to]': queryDateTime.optional(),
  'filter[publish_date][from]': queryDateTime.optional(),
  'filter[publish_date][to]': queryDateTime.optional(),
  'pagination[limit]': queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  'pagination[offset]': queryInt(0, 1_000_000_000).default(0),
  'order[by]': z.enum(['created', 'publish_date', 'duration', 'published', 'status']).default('created'),
  'order[dir]': z.enum(['asc', 'desc']).default('desc'),
});

export type ContentListWireQuery = z.input<typeof listQuerySchema>;

const range = (from?: string, to?: string) =>
  from || to ? { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) } : undefined;

export function parseListQuery(raw: Record<string, unknown>): ContentListQuery & { detail: Detail } {
  const q = parseOrThrow(listQuerySchema, raw, 'Invalid query parameters');
  const filter: Record<string, unknown> = {
    _id: q['filter[id]'],
    sourceId: q['filter[source_id]'],
    sourceUrl: q['filter[source_url]'],
    'searchText.title': q['filter[title]'] === undefined ? undefined : fieldFilter('title', q['filter[title]']),
    'searchText.body': q['filter[body]'] === undefined ? undefined : fieldFilter('body', q['filter[body]']),
    published: q['filter[published]'],
    videoPublished: q['filter[video_published]'],
    status: q['filter[statuses][]'] ? { $in: q['filter[statuses][]'] } : undefined,
    created: range(q['filter[created][from]'], q['filter[created][to]']),
    updated: range(q['filter[updated][from]'], q['filter[updated][to]']),
    publishDate: range(q['filter[publish_date][from]'], q['filter[publish_date][to]']),
  };
  const direction = q['order[dir]'] === 'asc' ? 1 : -1;
  return {
    filter: Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)),
    // legacyId follows creation order, so pages stay stable when the ordered field ties.
    sort: { [orderFields[q['order[by]']]]: direction, legacyId: direction },
    offset: q['pagination[offset]'],
    limit: q['pagination[limit]'],
    detail: { segments: q.segments, words: q.words },
  };
}
