// The podcast routes: settings under /v1 (with a key), and the public feeds and transcripts (no key, open to every origin).
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { Capability } from '../http/capability.ts';
import type { Services } from '../services.ts';
import { etagOf } from '../player/actions.ts';
import { PUBLIC_CACHE_CONTROL, notModified } from '../player/routes.ts';
import { baseUrlOf, openToAnyOrigin } from '../http/public.ts';
import { notFound } from '../shared/errors.ts';
import { podcastActions, type FeedRequest, type PodcastActions } from './actions.ts';

const ID = '(\\d{1,12})';
const AUDIO_OR_VIDEO_FEED = new RegExp(`^/v1/projects/${ID}/podcast/(feed|video)\\.xml$`);
const PLAYLIST_FEED = new RegExp(`^/v1/projects/${ID}/playlists/${ID}/podcast/feed\\.xml$`);
const TRANSCRIPT = new RegExp(`^/v1/projects/${ID}/podcast/transcripts/([^/]{1,255})\\.vtt$`);

function settingsRoutes(router: Router, podcasts: PodcastActions) {
  router.get('/projects/:projectId/podcast_settings', async (ctx) => {
    ctx.body = await podcasts.getSettings(ctx, ctx.params.projectId);
  });

  router.put('/projects/:projectId/podcast_settings', async (ctx) => {
    ctx.body = await podcasts.updateSettings(ctx, ctx.params.projectId, ctx.request.body);
  });
}

/** What a public path asks for, as a function giving its body and type; null when the path is not a podcast one. */
function publicAnswer(podcasts: PodcastActions, ctx: Context, baseUrl: string): (() => Promise<string | null>) | null {
  const feed = (request: FeedRequest) => () => podcasts.feed(request);
  let match = AUDIO_OR_VIDEO_FEED.exec(ctx.path);
  if (match) return feed({ projectId: Number(match[1]), baseUrl, format: match[2] === 'video' ? 'video' : 'audio' });
  match = PLAYLIST_FEED.exec(ctx.path);
  if (match) return feed({ projectId: Number(match[1]), baseUrl, playlistId: Number(match[2]) });
  match = TRANSCRIPT.exec(ctx.path);
  if (match) {
    const [, projectId, contentId] = match;
    return () => podcasts.transcript(Number(projectId), decodeURIComponent(contentId!));
  }
  return null;
}

function podcastFeeds(services: Services): Middleware {
  const podcasts = podcastActions(services);
  return async function serveFeeds(ctx: Context, next: Next) {
    const baseUrl = baseUrlOf(ctx, services.publicBaseUrl);
    const answer = publicAnswer(podcasts, ctx, baseUrl);
    if (!answer) return next();
    if (!openToAnyOrigin(ctx)) return;
    const body = await answer();
    if (body === null) throw notFound();
    const etag = etagOf(body);
    ctx.set('Cache-Control', PUBLIC_CACHE_CONTROL);
    ctx.set('ETag', etag);
    if (notModified(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = ctx.path.endsWith('.vtt') ? 'text/vtt; charset=utf-8' : 'application/rss+xml; charset=utf-8';
    ctx.body = body;
  };
}

/** Settings behind a key; feeds and transcripts public, like the player. */
export const podcastCapability: Capability = {
  routes: (router, services) => settingsRoutes(router, podcastActions(services)),
  publicRoutes: (services) => [podcastFeeds(services)],
};
