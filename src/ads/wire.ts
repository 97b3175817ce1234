// The ad's wire formats (REST and player data): zod schemas, the source of the OpenAPI document, and their mappings.
import { z } from 'zod';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import { adPlacements, adTypes, contentTypeOf } from './commands.ts';
import type { AdView } from './readModel.ts';

const adTheme = z.object({ text_color: z.string(), background_color: z.string(), icon_color: z.string() }).partial().nullable();

export const adMediaFileWire = z
  .object({
    id: z.number().int().min(1).describe("The ad's id: an ad has one file"),
    content_type: z.string(),
    url: urlText,
    duration: z.number().int().nullable().describe('Milliseconds; null: not measured (the file is played from where it is)'),
  })
  .meta({ id: 'AdMediaFile' });
type AdMediaFileWire = z.infer<typeof adMediaFileWire>;

export const adWire = z
  .object({
    id: z.number().int().min(1),
    type: z.enum(adTypes),
    placement: z.enum(adPlacements),
    vast_url: urlText.nullable(),
    title: z.string().nullable(),
    click_through_url: urlText.nullable(),
    media_url: urlText.nullable(),
    media: z.array(adMediaFileWire).describe("The ad's file; empty for a VAST ad, whose files come from its ad server"),
    image_url: urlText.nullable(),
    theme: adTheme,
    dark_theme: adTheme,
    light_theme: adTheme,
    enabled: z.boolean(),
    starts_at: timestamp.nullable(),
    ends_at: timestamp.nullable(),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'Ad' });
export type AdWire = z.infer<typeof adWire>;

export const playerAdWire = adWire
  .extend({ audio: z.array(adMediaFileWire), video: z.array(adMediaFileWire) })
  .meta({ id: 'PlayerAd', description: 'An ad as the web player reads it: its file also split into `audio` and `video`.' });
export type PlayerAdWire = z.infer<typeof playerAdWire>;

const mediaOf = (ad: AdView): AdMediaFileWire[] =>
  ad.mediaUrl ? [{ id: ad.id, content_type: contentTypeOf(ad.mediaUrl) ?? 'application/octet-stream', url: ad.mediaUrl, duration: null }] : [];

export function adToWire(ad: AdView): AdWire {
  return {
    id: ad.id,
    type: ad.type,
    placement: ad.placement,
    vast_url: ad.vastUrl,
    title: ad.title,
    click_through_url: ad.clickThroughUrl,
    media_url: ad.mediaUrl,
    media: mediaOf(ad),
    image_url: ad.imageUrl,
    theme: ad.theme,
    dark_theme: ad.darkTheme,
    light_theme: ad.lightTheme,
    enabled: ad.enabled,
    starts_at: ad.startsAt,
    ends_at: ad.endsAt,
    created: ad.created,
    updated: ad.updated,
  };
}

export function playerAdToWire(ad: AdView): PlayerAdWire {
  const media = mediaOf(ad);
  return {
    ...adToWire(ad),
    audio: media.filter((file) => !file.content_type.startsWith('video/')),
    video: media.filter((file) => file.content_type.startsWith('video/')),
  };
}
