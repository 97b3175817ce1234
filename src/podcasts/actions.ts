// Podcast use cases: the settings resource (with a key) and the public feeds and transcripts.
import type { Context } from 'koa';
import type { Services } from '../services.ts';
import { findContent } from '../content/readModel.ts';
import { reachableProject } from '../http/auth.ts';
import { lookUp } from '../player/readModel.ts';
import { findProject } from '../projects/readModel.ts';
import { episodesOf, SPOKEN_SEGMENT_TYPES, type EpisodeContext, type FeedFormat } from './episodes.ts';
import { renderFeed } from './feed.ts';
import { createPodcastHandlers } from './handlers.ts';
import { podcastSettingsOf, publishedItems } from './readModel.ts';
import { renderTranscript } from './transcript.ts';
import { podcastSettingsToWire } from './wire.ts';

export type PodcastActions = ReturnType<typeof podcastActions>;

/** Which feed: the project's audio or video feed, or a playlist's (audio). */
export type FeedRequest = { projectId: number; baseUrl: string } & ({ format: FeedFormat } | { playlistId: number });

/** The public paths, under `/v1/projects/{p}/`. */
export const feedPaths = {
  audio: (projectId: number) => `/v1/projects/${projectId}/podcast/feed.xml`,
  video: (projectId: number) => `/v1/projects/${projectId}/podcast/video.xml`,
  playlist: (projectId: number, playlistId: number) => `/v1/projects/${projectId}/playlists/${playlistId}/podcast/feed.xml`,
  transcript: (projectId: number, contentId: string) => `/v1/projects/${projectId}/podcast/transcripts/${contentId}.vtt`,
};

export function podcastActions({ events, read, runner, mediaDir, now }: Services) {
  const podcasts = createPodcastHandlers(events);

  /** A project whose podcast is on, with its settings; null answers 404. */
  const enabledPodcast = async (projectId: number) => {
    const project = await findProject(read, projectId);
    if (!project) return null;
    const settings = await podcastSettingsOf(read, project);
    return settings.enabled ? { project, settings } : null;
  };

  return {
    async getSettings(ctx: Context, projectRef: string | undefined) {
      const project = await reachableProject(ctx, read, projectRef);
      return podcastSettingsToWire(await podcastSettingsOf(read, project));
    },

    async updateSettings(ctx: Context, projectRef: string | undefined, body: unknown) {
      const project = await reachableProject(ctx, read, projectRef);
      await runner.waitFor(await podcasts.updateSettings(project.id, body, now()));
      return podcastSettingsToWire(await podcastSettingsOf(read, project));
    },

    /** The feed's XML, or null when the project, its podcast or the playlist is missing or off. */
    async feed(request: FeedRequest): Promise<string | null> {
      const { projectId, baseUrl } = request;
      const podcast = await enabledPodcast(projectId);
      if (!podcast) return null;
      const { settings } = podcast;
      const format: FeedFormat = 'format' in request ? request.format : 'audio';
      let title = settings.title ?? podcast.project.name;
      let imageUrl = settings.imageUrl;
      let items;
      let feedPath;
      if ('playlistId' in request) {
        const lookup = await lookUp(read, projectId, { kind: 'playlist_id', value: String(request.playlistId) });
        if (!lookup.playlist) return null;
        items = lookup.items.filter((item) => item.status === 'processed' && item.published === true).slice(0, lookup.take);
        title = lookup.playlist.title;
        imageUrl = lookup.playlist.imageUrl ?? imageUrl;
        feedPath = feedPaths.playlist(projectId, request.playlistId);
      } else {
        items = await publishedItems(read, projectId, format);
        feedPath = feedPaths[format](projectId);
      }
      const context: EpisodeContext = {
        mediaDir,
        baseUrl,
        transcriptUrl: (contentId) => `${baseUrl}${feedPaths.transcript(projectId, contentId)}`,
        channelImageUrl: imageUrl,
      };
      const episodes = await episodesOf(items, format, context);
      return renderFeed({ feedUrl: `${baseUrl}${feedPath}`, siteUrl: baseUrl, settings, title, imageUrl }, episodes);
    },

    /** The WebVTT transcript of an item a feed may carry (processed, published for audio or video), or null. */
    async transcript(projectId: number, contentId: string): Promise<string | null> {
      if (!(await enabledPodcast(projectId))) return null;
      const item = await findContent(read, projectId, contentId);
      if (!item || item.status !== 'processed' || !(item.published || item.videoPublished)) return null;
      if (!item.segments.some((segment) => SPOKEN_SEGMENT_TYPES.has(String(segment.content_type ?? 'text')))) return null;
      return renderTranscript(item.segments);
    },
  };
}
