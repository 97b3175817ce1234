// The one mapping from read models to the player-data answer the web player reads (snake_case, times in ms).
import type { ContentItemView } from '../content/readModel.ts';
import type { MediaFileRecord } from '../content/events.ts';
import { snakeKeys } from '../shared/caseMapping.ts';
import { settingsOf, type ProjectView } from '../projects/readModel.ts';
import { settingsToWire } from '../projects/wire.ts';
import type { PlaylistView } from '../playlists/readModel.ts';
import { playlistToPlayerWire } from '../playlists/wire.ts';
import type { AdView } from '../ads/readModel.ts';
import { playerAdToWire } from '../ads/wire.ts';

export type MediaFormat = 'audio' | 'video';
type Variant = MediaFileRecord['variant'];

export interface RenderOptions {
  words: boolean;
  summary: boolean;
  videoSize: string | undefined;
  accessTier: string | null;
  /** Origin of absolute media URLs. */
  baseUrl: string;
}

type StoredMedia = MediaFileRecord & { video_size?: { name?: string } };

/** Media of one variant (older items have none recorded: they are articles); video of the asked size when sizes are known. */
function mediaOf(files: StoredMedia[], variant: Variant, options: RenderOptions) {
  return files
    .filter((file) => (file.variant ?? 'article') === variant)
    .filter((file) => !options.videoSize || !file.video_size || file.video_size.name === options.videoSize)
    .map((file) => ({ ...file, url: `${options.baseUrl}${file.url}` }));
}

export const hasSummaryMedia = (item: ContentItemView) => [...item.audio, ...item.video].some((file) => file.variant === 'summary');

const SPOKEN = new Set(['text', 'audio']);

/** The spoken segments, with what the player highlights and seeks by; words only when asked for. */
function segmentsOf(segments: Record<string, unknown>[], words: boolean) {
  return segments
    .filter((segment) => SPOKEN.has(String(segment.content_type ?? 'text')))
    .map((segment) => ({
      marker: segment.marker ?? null,
      section: segment.section ?? null,
      start_time: segment.start_time ?? null,
      duration: segment.duration ?? null,
      text: segment.text ?? null,
      xpath: segment.xpath ?? null,
      md5: segment.md5 ?? null,
      ...(words ? { words: segment.words ?? [] } : {}),
    }));
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
    segments: segmentsOf(options.summary ? (item.summarySegments ?? []) : item.segments, options.words),
    summarization: { audio: mediaOf(item.audio, 'summary', options), video: mediaOf(item.video, 'summary', options) },
  };
}

const introContentTypes: Record<string, string> = { mp3: 'audio/mpeg', m3u8: 'application/x-mpegURL', m4a: 'audio/mp4', aac: 'audio/aac' };

function introOutro(placement: 'pre-roll' | 'post-roll', url: string) {
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? '';
  const contentType = introContentTypes[extension];
  return { placement, audio: [{ url, ...(contentType ? { content_type: contentType } : {}) }], video: [] };
}

/** The player settings as the web player reads them: stored fields, plus what it derives from them. */
function playerSettingsToWire(project: ProjectView, options: RenderOptions) {
  const settings = settingsOf(project, 'player');
  const { introUrl, outroUrl, introOutroEnabled } = settings;
  return {
    ...snakeKeys(settings),
    player_title: settings.playerTitle ?? project.name,
    intros_outros: introOutroEnabled
      ? [...(introUrl ? [introOutro('pre-roll', introUrl)] : []), ...(outroUrl ? [introOutro('post-roll', outroUrl)] : [])]
      : [],
    access_tier: options.accessTier,
  };
}

/** `playlist`: the first playlist the request named, if any; `ads`: the ads to play, already chosen. */
export function playerDataToWire(project: ProjectView, items: ContentItemView[], options: RenderOptions, playlist: PlaylistView | null = null, ads: AdView[] = []) {
  return {
    language: items[0]?.language ?? project.language,
    content: items.map((item) => contentItemToWire(item, options)),
    settings: playerSettingsToWire(project, options),
    video_settings: settingsToWire(project, 'video'),
    playlist: playlist ? playlistToPlayerWire(playlist) : null,
    ads: ads.map(playerAdToWire),
  };
}
