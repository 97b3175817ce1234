// The playlist's wire formats (resource and player data): zod schemas, the source of the OpenAPI document, and mappings.
import { z } from 'zod';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import { playlistTypes } from './commands.ts';
import type { PlaylistView } from './readModel.ts';

export const playlistWire = z
  .object({
    id: z.number().int().min(1),
    title: z.string(),
    type: z.enum(playlistTypes),
    content_ids: z.array(z.string()).describe('Manual playlists: item UUIDs in playing order'),
    tags: z.array(z.string()).describe('Auto playlists: items carrying any of these tags'),
    source_url_prefix: urlText.nullable(),
    authors: z.array(z.string()),
    image_url: urlText.nullable(),
    content_limit: z.number().int().min(1),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'Playlist' });
export type PlaylistWire = z.infer<typeof playlistWire>;

export const playerPlaylistWire = playlistWire
  .pick({ id: true, title: true, type: true, image_url: true, content_limit: true })
  .meta({ id: 'PlayerPlaylist', description: 'The playlist as player data carries it.' });
export type PlayerPlaylistWire = z.infer<typeof playerPlaylistWire>;

export const playlistToWire = (playlist: PlaylistView): PlaylistWire => ({
  id: playlist.id,
  title: playlist.title,
  type: playlist.type,
  content_ids: playlist.contentIds,
  tags: playlist.tags,
  source_url_prefix: playlist.sourceUrlPrefix,
  authors: playlist.authors,
  image_url: playlist.imageUrl,
  content_limit: playlist.contentLimit,
  created: playlist.created,
  updated: playlist.updated,
});

export const playlistToPlayerWire = (playlist: PlaylistView): PlayerPlaylistWire => ({
  id: playlist.id,
  title: playlist.title,
  type: playlist.type,
  image_url: playlist.imageUrl,
  content_limit: playlist.contentLimit,
});
