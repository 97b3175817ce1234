// The one mapping from the playlist read model to the wire format (resource and player data).
import type { PlaylistView } from './readModel.ts';

export function playlistToWire(playlist: PlaylistView) {
  return {
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
  };
}

/** The playlist as player data carries it. */
export const playlistToPlayerWire = (playlist: PlaylistView) => ({
  id: playlist.id,
  title: playlist.title,
  type: playlist.type,
  image_url: playlist.imageUrl,
  content_limit: playlist.contentLimit,
});
