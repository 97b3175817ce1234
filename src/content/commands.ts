// What clients may send to create or update content, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { cropCoordinates, httpUrl, languageCode, positiveId } from '../shared/wireSchemas.ts';
import { videoDimension } from '../player/videoSettings.ts';

export const contentTypes = ['auto_segment', 'manual_segment', 'audio_upload'] as const;
export type ContentType = (typeof contentTypes)[number];

const optionalBoolean = z.boolean().nullable().optional();

/**
 * An optional text or URL field where `""` means "no value", stored as null: publishing plugins send every field
 * as a string (the WordPress plugin sends `image_url: ""` for a post without a featured image).
 */
const blankable = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? null : value), schema.nullable()).optional();
const nullableUrl = blankable(httpUrl);

const videoSettingsOfMedia = z.object({
  enabled: z.boolean().optional(),
  volume: z.number().int().min(0).max(100).optional(),
  plays_in_background: z.boolean().optional(),
  hides_background_images: z.boolean().optional(),
  crop_coordinates: cropCoordinates.optional(),
});

const segment = z
  .object({
    content_type: z.enum(['text', 'audio', 'image', 'video']).default('text'),
    section: z.enum(['title', 'summary', 'body']).nullable().optional(),
    marker: blankable(z.string().max(200)),
    text: blankable(z.string().min(1).max(100_000)),
    audio_url: nullableUrl,
    image_url: nullableUrl,
    video_url: nullableUrl,
    voice: z.object({ id: positiveId }).nullable().optional(),
    language: z.object({ code: languageCode }).nullable().optional(),
    preprocessing_settings: z.object({ ai_preprocessing_enabled: z.boolean().optional() }).nullable().optional(),
    video_settings: videoSettingsOfMedia.nullable().optional(),
    pauses: z.array(z.object({ time: z.number().min(0), index: z.number().int().min(0) })).max(100).optional(),
  })
  .superRefine((value, ctx) => {
    const field = value.content_type === 'text' ? 'text' : (`${value.content_type}_url` as const);
    if (value[field] == null) {
      ctx.addIssue({ code: 'custom', path: [field], message: `is required when content_type is ${value.content_type}` });
    }
  });

/** Fields every content type accepts. */
const common = {
  title: blankable(z.string().min(1).max(500)),
  summary: blankable(z.string().max(2000)),
  title_enabled: z.boolean().optional(),
  body_enabled: z.boolean().optional(),
  summary_enabled: z.boolean().optional(),
  summary_title_enabled: z.boolean().optional(),
  source_id: blankable(z.string().trim().min(1).max(255)),
  source_url: nullableUrl,
  author: blankable(z.string().max(500)),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  image_url: nullableUrl,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  published: optionalBoolean,
  video_published: optionalBoolean,
  publish_date: blankable(z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString())),
  ads_enabled: optionalBoolean,
  /** Ids of the project's access tiers that may see the item in players; empty or null: everyone. */
  access_tiers: z.array(positiveId).max(100).nullable().optional(),
  auto_segment_updates_enabled: optionalBoolean,
  ai_summary_updates_enabled: z.boolean().optional(),
  ai_summary_prompt: blankable(z.string().max(1000)),
  title_voice_id: positiveId.nullable().optional(),
  summary_voice_id: positiveId.nullable().optional(),
  body_voice_id: positiveId.nullable().optional(),
  language: blankable(languageCode),
  background_track: z
    .object({ enabled: z.boolean().optional(), track: z.object({ id: positiveId }).nullable().optional() })
    .nullable()
    .optional(),
  summarization_settings: z
    .object({
      enabled: z.boolean().optional(),
      model: blankable(z.string().max(100)),
      prompt: blankable(z.string().max(1000)),
      temperature: z.number().min(0).max(2).nullable().optional(),
      limit_token_usage: z.number().int().min(1).max(3000).nullable().optional(),
      template: z.object({ id: positiveId }).nullable().optional(),
    })
    .nullable()
    .optional(),
  video_settings: z
    .object({
      enabled: z.boolean().optional(),
      variants: z.array(z.string().max(50)).max(20).optional(),
      sizes: z
        .array(
          z.object({
            name: z.string().max(50),
            width: videoDimension,
            height: videoDimension,
            enabled: z.boolean().optional(),
          }),
        )
        .max(10)
        .optional(),
      template: z.object({ id: positiveId }).nullable().optional(),
    })
    .nullable()
    .optional(),
  feature_image: z
    .object({ url: httpUrl, video_settings: z.object({ enabled: z.boolean().optional(), crop_coordinates: cropCoordinates.optional() }).optional() })
    .nullable()
    .optional(),
  feature_video: z.object({ url: httpUrl, video_settings: videoSettingsOfMedia.optional() }).nullable().optional(),
  preprocessing_settings: z.object({ ai_preprocessing_enabled: z.boolean().optional() }).nullable().optional(),
};

const typeSpecific = {
  // Without a body, the page at `source_url` gives it (src/extraction/): one or the other is required.
  auto_segment: { body: z.string().min(1).max(100_000).optional() },
  manual_segment: { segments: z.array(segment).min(1).max(2000) },
  audio_upload: { audio_url: httpUrl },
} as const;

const bodyOrPage = (value: { body?: string | null; source_url?: string | null }, ctx: z.RefinementCtx) => {
  if (!value.body && !value.source_url) ctx.addIssue({ code: 'custom', path: ['body'], message: 'is required, unless source_url names the page to extract it from' });
};

export const createContentSchemas = {
  auto_segment: z.object({ ...common, ...typeSpecific.auto_segment }).superRefine(bodyOrPage),
  manual_segment: z.object({ ...common, ...typeSpecific.manual_segment }),
  audio_upload: z.object({ ...common, ...typeSpecific.audio_upload }),
};

/**
 * The fields of `POST …/content/upload` beside its `file`: an `audio_upload` item's, without `audio_url` (the upload
 * is the audio). Form fields arrive as text; src/content/upload.ts reads each as this schema expects it.
 */
export const uploadContentSchema = createContentSchemas.audio_upload.omit({ audio_url: true });

export const updateContentSchemas = {
  auto_segment: z.object({ ...common, ...typeSpecific.auto_segment }).partial(),
  manual_segment: createContentSchemas.manual_segment.partial(),
  audio_upload: createContentSchemas.audio_upload.partial(),
};

export type ContentWireFields = z.infer<(typeof createContentSchemas)[ContentType]> & {
  body?: string;
  segments?: z.infer<typeof segment>[];
  audio_url?: string;
  /**
   * An uploaded recording's file under the media folder (`uploads/<uuid>.<extension>`), read from there by the
   * generation; set only by an upload, never from a client's body, and dropped when `audio_url` is changed.
   */
  audio_file?: string | null;
};
export type SegmentInput = z.infer<typeof segment>;

export const batchDeleteSchema = z.object({
  ids: z.array(z.union([z.string().trim().min(1).max(255), z.number().int().min(1)])).min(1).max(100),
});

export const segmentsDetail = z.enum(['none', 'partial', 'full']);
export type SegmentsDetail = z.infer<typeof segmentsDetail>;
