// The public operations of the OpenAPI document (no API key): player data, the preview page, podcast feeds and transcripts.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { querySchema as playerQuery } from '../player/query.ts';
import { playerDataWire } from '../player/wire.ts';
import { errors, json, numericId, projectId, text } from './registry.ts';

const noKey: Record<string, string[]>[] = [];
const publicErrors = () => errors(400, 404, 422, 429);
const notModified = { 304: { description: 'Not modified since the `ETag` sent in `If-None-Match`' } };

const playerLookups = [
  { route: 'by_content_id', param: 'id', operationId: 'getPlayerByContentId', summary: 'Player data of an item, by its UUID or legacy id' },
  { route: 'by_source_id', param: 'id', operationId: 'getPlayerBySourceId', summary: "Player data of an item, by the publisher's source id" },
  { route: 'by_source_url', param: 'url', operationId: 'getPlayerBySourceUrl', summary: 'Player data of an item, by its URL-encoded source URL' },
  { route: 'by_playlist_id', param: 'id', operationId: 'getPlayerByPlaylistId', summary: "Player data of a playlist's items" },
  {
    route: 'by_identifiers',
    param: 'identifiers',
    operationId: 'getPlayerByIdentifiers',
    summary: 'Player data of several items: a URL-encoded JSON array of `{content_id}`, `{source_id}`, `{source_url}` or `{playlist_id}`',
  },
];

function registerPlayer(registry: OpenAPIRegistry) {
  const common = { tags: ['Player'], security: noKey };
  const answers = { 200: json(playerDataWire, 'Player data'), ...notModified, ...publicErrors() };
  for (const lookup of playerLookups) {
    registry.registerPath({
      ...common,
      method: 'get',
      path: `/projects/{project_id}/player/${lookup.route}/{${lookup.param}}`,
      operationId: lookup.operationId,
      summary: lookup.summary,
      request: { params: z.object({ project_id: projectId, [lookup.param]: z.string().min(1) }), query: playerQuery },
      responses: answers,
    });
  }
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/player/playlist',
    operationId: 'getPlayerFirstPlaylist',
    summary: "Player data of the project's first playlist",
    request: { params: z.object({ project_id: projectId }), query: playerQuery },
    responses: answers,
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/player/preview/{id}',
    operationId: 'getPreviewPage',
    summary: 'A page that plays one item with its segments, for editors (with `preview_token` before it is published)',
    request: { params: z.object({ project_id: projectId, id: z.string().min(1) }), query: playerQuery },
    responses: { 200: text('text/html', 'The preview page'), ...publicErrors() },
  });
}

function registerPodcasts(registry: OpenAPIRegistry) {
  const common = { tags: ['Podcasts'], security: noKey };
  const feed = { 200: text('application/rss+xml', 'RSS 2.0 with iTunes and Podcasting 2.0 tags'), ...notModified, ...publicErrors() };
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/podcast/feed.xml',
    operationId: 'getPodcastFeed',
    summary: "The project's audio podcast feed",
    request: { params: z.object({ project_id: projectId }) },
    responses: feed,
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/podcast/video.xml',
    operationId: 'getPodcastVideoFeed',
    summary: "The project's video podcast feed",
    request: { params: z.object({ project_id: projectId }) },
    responses: feed,
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/playlists/{playlist_id}/podcast/feed.xml',
    operationId: 'getPlaylistPodcastFeed',
    summary: "A playlist's podcast feed",
    request: { params: z.object({ project_id: projectId, playlist_id: numericId }) },
    responses: feed,
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/podcast/transcripts/{content_id}.vtt',
    operationId: 'getTranscript',
    summary: "An episode's WebVTT transcript",
    request: { params: z.object({ project_id: projectId, content_id: z.string().min(1).max(255) }) },
    responses: { 200: text('text/vtt', 'WebVTT'), ...notModified, ...publicErrors() },
  });
}

export function registerPublicOperations(registry: OpenAPIRegistry) {
  registerPlayer(registry);
  registerPodcasts(registry);
}
