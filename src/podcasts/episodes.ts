// Turns content items into feed episodes: an item is an episode only with a media file that is really there.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ContentItemView } from '../content/readModel.ts';
import type { MediaFileRecord } from '../content/events.ts';
import type { Episode } from './feed.ts';

export const SPOKEN_SEGMENT_TYPES = new Set(['text', 'audio']);

export type FeedFormat = 'audio' | 'video';
const enclosureTypes: Record<FeedFormat, string> = { audio: 'audio/mpeg', video: 'video/mp4' };

export interface EpisodeContext {
  mediaDir: string;
  /** Origin of absolute URLs. */
  baseUrl: string;
  /** `{content id}` → the public URL of the item's transcript. */
  transcriptUrl: (contentId: string) => string;
  channelImageUrl: string | null;
}

/** Size in bytes of a file served under `/media/` (see src/http/media.ts), or null when it is missing. */
async function mediaSize(mediaDir: string, url: string): Promise<number | null> {
  if (!url.startsWith('/media/')) return null;
  const root = path.resolve(mediaDir);
  const file = path.resolve(root, decodeURIComponent(url.slice('/media/'.length)));
  if (!file.startsWith(`${root}${path.sep}`)) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? info.size : null;
}

const articleFile = (files: MediaFileRecord[], type: string) => files.find((file) => (file.variant ?? 'article') === 'article' && file.content_type === type);

export async function episodeOf(item: ContentItemView, format: FeedFormat, context: EpisodeContext): Promise<Episode | null> {
  const type = enclosureTypes[format];
  const file = articleFile(format === 'video' ? item.video : item.audio, type);
  const length = file ? await mediaSize(context.mediaDir, file.url) : null;
  if (!file || length === null) return null;
  return {
    guid: item._id,
    title: item.title ?? 'Untitled',
    description: item.summary ?? item.title ?? '',
    published: new Date(item.publishDate ?? item.created),
    enclosure: { url: `${context.baseUrl}${file.url}`, length, type },
    durationSeconds: Math.round(file.duration / 1000),
    imageUrl: item.imageUrl ?? item.featureImage?.url ?? context.channelImageUrl,
    transcriptUrl: context.transcriptUrl(item._id),
  };
}

export async function episodesOf(items: ContentItemView[], format: FeedFormat, context: EpisodeContext): Promise<Episode[]> {
  const episodes = await Promise.all(items.map((item) => episodeOf(item, format, context)));
  return episodes.filter((episode): episode is Episode => episode !== null);
}
