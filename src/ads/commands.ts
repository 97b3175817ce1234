// What clients may send to create or update an ad, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { cssBackground, cssColor } from '../player/colors.ts';
import { httpUrl } from '../shared/wireSchemas.ts';

export const adTypes = ['custom', 'vast'] as const;
export const adPlacements = ['pre-roll', 'mid-roll', 'post-roll'] as const;

/** Media types of an ad's file, by the extension of its URL's path. */
export const mediaContentTypes: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  m3u8: 'application/x-mpegURL',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** The media type a URL's file extension names; undefined for other files and for text that is no URL (zod runs refinements after a failed format check too). */
export const contentTypeOf = (url: string) =>
  URL.canParse(url) ? mediaContentTypes[/\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? ''] : undefined;

const mediaUrl = httpUrl.refine((url) => contentTypeOf(url) !== undefined, {
  message: `must be an audio or video file URL (${Object.keys(mediaContentTypes).join(', ')})`,
});

const theme = z.object({ text_color: cssColor, background_color: cssBackground, icon_color: cssColor }).partial().nullable();

const dateTime = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .nullable();

const fields = {
  type: z.enum(adTypes),
  placement: z.enum(adPlacements),
  title: z.string().trim().max(500).nullable(),
  vast_url: httpUrl.nullable(),
  media_url: mediaUrl.nullable(),
  click_through_url: httpUrl.nullable(),
  image_url: httpUrl.nullable(),
  theme,
  dark_theme: theme,
  light_theme: theme,
  enabled: z.boolean(),
  starts_at: dateTime,
  ends_at: dateTime,
};

export const createAdSchema = z.object({
  ...fields,
  placement: fields.placement.default('pre-roll'),
  title: fields.title.default(null),
  vast_url: fields.vast_url.default(null),
  media_url: fields.media_url.default(null),
  click_through_url: fields.click_through_url.default(null),
  image_url: fields.image_url.default(null),
  theme: theme.default(null),
  dark_theme: theme.default(null),
  light_theme: theme.default(null),
  enabled: fields.enabled.default(true),
  starts_at: dateTime.default(null),
  ends_at: dateTime.default(null),
});
export const updateAdSchema = z.object(fields).partial();

export type AdWireFields = z.infer<typeof createAdSchema>;
