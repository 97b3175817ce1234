// The one mapping from the ad read model to the wire format (REST and player data).
import { contentTypeOf } from './commands.ts';
import type { AdView } from './readModel.ts';

/** The ad's file as a media file entry; a VAST ad's files come from its ad server. */
const mediaOf = (ad: AdView) => (ad.mediaUrl ? [{ content_type: contentTypeOf(ad.mediaUrl) ?? 'application/octet-stream', url: ad.mediaUrl }] : []);

export function adToWire(ad: AdView) {
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

/** An ad as the web player reads it: the resource's fields, with its file also split into `audio` and `video`. */
export function playerAdToWire(ad: AdView) {
  const media = mediaOf(ad);
  return {
    ...adToWire(ad),
    audio: media.filter((file) => !file.content_type.startsWith('video/')),
    video: media.filter((file) => file.content_type.startsWith('video/')),
  };
}
