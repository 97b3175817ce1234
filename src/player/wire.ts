// Player data as the web player reads it (snake_case, times in ms): its zod schema (source of the OpenAPI document) and mapping.
import { z } from 'zod';
import type { ContentItemView } from '../content/readModel.ts';
import type { MediaFileRecord } from '../content/events.ts';
import { mediaFileWire, mediaToWire, wordWire, type MediaFileWire } from '../content/wire.ts';
import { snakeKeys } from '../shared/caseMapping.ts';
import { urlText } from '../shared/wireResponses.ts';
import { settingsOf, type ProjectView } from '../projects/readModel.ts';
import { settingsToWire, settingsWire } from '../projects/wire.ts';
import { withAnalyticsUrl } from './settings.ts';
import type { PlaylistView } from '../playlists/readModel.ts';
import { playerPlaylistWire, playlistToPlayerWire } from '../playlists/wire.ts';
import type { AdView } from '../ads/readModel.ts';
import { playerAdToWire, playerAdWire } from '../ads/wire.ts';
import { segmentsForClients } from '../content/segments.ts';
import { videoSizeMatcher } from './query.ts';

export type MediaFormat = 'audio' | 'video';
type Variant = MediaFileRecord['variant'];

const text = z.string().nullable();

export const playerSegmentWire = z
  .object({
    marker: z.string(),
    section: z.enum(['title', 'summary', 'body']).nullable(),
    start_time: z.number().int().min(0).nullable().describe('Milliseconds from the start of the media'),
    duration: z.number().int().min(0).nullable(),
    text,
    xpath: text,
    md5: text,
    words: z.array(wordWire).optional().describe('Only with `words=true`'),
  })
  .meta({ id: 'PlayerSegment' });
type PlayerSegmentWire = z.infer<typeof playerSegmentWire>;

export const playerContentItemWire = z
  .object({
    id: z.uuid(),
    title: text,
    source_id: text,
    source_url: urlText.nullable(),
    author: text,
    image_url: urlText.nullable(),
    ads_enabled: z.boolean(),
    audio: z.array(mediaFileWire),
    video: z.array(mediaFileWire),
    segments: z.array(playerSegmentWire),
    summarization: z.object({ audio: z.array(mediaFileWire), video: z.array(mediaFileWire) }),
  })
  .meta({ id: 'PlayerContentItem' });

const introOutroWire = z.object({
  placement: z.enum(['pre-roll', 'post-roll']),
  audio: z.array(z.object({ url: urlText, content_type: z.string().optional() })),
  video: z.array(z.object({ url: urlText, content_type: z.string().optional() })),
});

export const playerDataSettingsWire = settingsWire.player
  .extend({
    player_title: z.string().describe("The project's name when none is set"),
    intros_outros: z.array(introOutroWire),
    access_tier: z.string().nullable().describe('The `access_tier` asked for'),
    outro_playback_mode: text.describe('Not configurable yet: the player decides'),
    analytics_uuid_enabled: z.boolean().nullable().describe('Not configurable yet: the player decides'),
    analytics_custom_url: urlText.nullable(),
    analytics_tag: text,
  })
  .meta({ id: 'PlayerDataSettings', description: "The project's player settings as the web player reads them." });

export const playerDataWire = z
  .object({
    language: z.string(),
    content: z.array(playerContentItemWire).describe('Published, processed items (or the one a preview token names)'),
    settings: playerDataSettingsWire,
    video_settings: settingsWire.video,
    playlist: playerPlaylistWire.nullable(),
    ads: z.array(playerAdWire).describe('Enabled ads whose time range covers now'),
    continuous_playback_content_id: z.uuid().nullable().describe('Not chosen by the service yet'),
  })
  .meta({ id: 'PlayerData' });
type PlayerDataWire = z.infer<typeof playerDataWire>;

export interface RenderOptions {
  words: boolean;
  summary: boolean;
  videoSize: string | undefined;
  accessTier: string | null;
  /** Origin of absolute media URLs. */
  baseUrl: string;
}

type StoredMedia = MediaFileRecord & { video_size?: MediaFileWire['video_size'] };

/**
 * Media of one variant (older items have none recorded: they are articles); video of the asked size when sizes are
 * known. When no video is of that size, all of them: the player chooses (it also filters by size itself).
 */
function mediaOf(files: StoredMedia[], variant: Variant, options: RenderOptions): MediaFileWire[] {
  const ofVariant = files.filter((file) => (file.variant ?? 'article') === variant);
  const matches = videoSizeMatcher(options.videoSize);
  const sized = ofVariant.filter((file) => !file.video_size || matches(file.video_size));
  return mediaToWire(sized.some((file) => file.video_size) ? sized : ofVariant, options.baseUrl);
}

export const hasSummaryMedia = (item: ContentItemView) => [...item.audio, ...item.video].some((file) => file.variant === 'summary');

const SPOKEN = new Set(['text', 'audio']);

/** The spoken segments, with what the player highlights and seeks by; words only when asked for. */
function segmentsOf(segments: Record<string, unknown>[], words: boolean): PlayerSegmentWire[] {
  return segments
    .filter((segment) => SPOKEN.has(String(segment.content_type ?? 'text')))
    .map((stored) => {
      const segment = stored as Partial<PlayerSegmentWire>;
      return {
        marker: segment.marker!,
        section: segment.section ?? null,
        start_time: segment.start_time ?? null,
        duration: segment.duration ?? null,
        text: segment.text ?? null,
        xpath: segment.xpath ?? null,
        md5: segment.md5 ?? null,
        ...(words ? { words: segment.words ?? [] } : {}),
      };
    });
}

function contentItemToWire(item: ContentItemView, options: RenderOptions) {
  const variant: Variant = options.summary ? 'summary' : 'article';
  return {
    id: item._id,
    title: item.title ?? null,
    source_id: item.sourceId ?? null,
    source_url: item.sourceUrl ?? null,
    author: item.author ?? null,
    image_url: item.imageUrl ?? item.featureImage?.url ?? null,
    ads_enabled: item.adsEnabled ?? true,
    audio: mediaOf(item.audio, variant, options),
    video: mediaOf(item.video, variant, options),
    // Markers and segment-relative word times (src/content/segments.ts, issue 9 item 13).
    segments: segmentsOf(segmentsForClients(item._id, options.summary ? (item.summarySegments ?? []) : item.segments), options.words),
    summarization: { audio: mediaOf(item.audio, 'summary', options), video: mediaOf(item.video, 'summary', options) },
  };
}

const introContentTypes: Record<string, string> = { mp3: 'audio/mpeg', m3u8: 'application/x-mpegURL', m4a: 'audio/mp4', aac: 'audio/aac' };

function introOutro(placement: 'pre-roll' | 'post-roll', url: string): z.infer<typeof introOutroWire> {
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? '';
  const contentType = introContentTypes[extension];
  return { placement, audio: [{ url, ...(contentType ? { content_type: contentType } : {}) }], video: [] };
}

/** The player settings as the web player reads them: stored fields, plus what it derives from them. */
function playerSettingsToWire(project: ProjectView, options: RenderOptions): PlayerDataWire['settings'] {
  const settings = withAnalyticsUrl(settingsOf(project, 'player'), options.baseUrl);
  const { introUrl, outroUrl, introOutroEnabled } = settings;
  return {
    // Read by the web player; while no setting stores them, null lets it fall back to its own behaviour.
    outro_playback_mode: null,
    analytics_uuid_enabled: null,
    analytics_custom_url: null,
    analytics_tag: null,
    ...(snakeKeys(settings) as z.infer<typeof settingsWire.player>),
    player_title: settings.playerTitle ?? project.name,
    intros_outros: introOutroEnabled
      ? [...(introUrl ? [introOutro('pre-roll', introUrl)] : []), ...(outroUrl ? [introOutro('post-roll', outroUrl)] : [])]
      : [],
    access_tier: options.accessTier,
  };
}

/** `playlist`: the first playlist the request named, if any; `ads`: the ads to play, already chosen. */
export function playerDataToWire(
  project: ProjectView,
  items: ContentItemView[],
  options: RenderOptions,
  playlist: PlaylistView | null = null,
  ads: AdView[] = [],
): PlayerDataWire {
  return {
    language: items[0]?.language ?? project.language,
    content: items.map((item) => contentItemToWire(item, options)),
    settings: playerSettingsToWire(project, options),
    video_settings: settingsToWire(project, 'video', options.baseUrl),
    playlist: playlist ? playlistToPlayerWire(playlist) : null,
    ads: ads.map(playerAdToWire),
    continuous_playback_content_id: null,
  };
}
