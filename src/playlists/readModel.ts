// The playlist read model: its document type, its queries, and the content queries a playlist stands for.
import type { Filter, ReadStore, Sort } from '../infrastructure/readStore/port.ts';
import type { PlaylistFields } from './events.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';

export const PLAYLISTS = 'playlists';

export type PlaylistView = ProjectResourceDocument<PlaylistFields>;

export const playlistIndexes = projectResourceIndexes;

const resource = projectResource<PlaylistView>(PLAYLISTS);
export const findPlaylist = resource.find;
export const listPlaylists = resource.list;

/** The project's first playlist (lowest id), for the player's playlist route without an id. */
export async function firstPlaylist(read: ReadStore, projectId: number): Promise<PlaylistView | null> {
  return (await read.collection<PlaylistView>(PLAYLISTS).find({ projectId }, { sort: { id: 1 }, limit: 1 }))[0] ?? null;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The content items a playlist may hold, before visibility and its limit: the listed items of a manual
 * playlist (to be put in the list's order), or the processed items of an auto playlist, newest first.
 */
export function playlistContentQuery(playlist: PlaylistView): { filter: Filter; sort: Sort } {
  const { projectId } = playlist;
  if (playlist.type === 'manual') return { filter: { projectId, _id: { $in: playlist.contentIds } }, sort: { created: 1 } };
  const filter: Filter = {
    projectId,
    status: 'processed',
    tags: { $in: playlist.tags },
    ...(playlist.sourceUrlPrefix ? { sourceUrl: { $regex: `^${escapeRegex(playlist.sourceUrlPrefix)}` } } : {}),
    ...(playlist.authors.length > 0 ? { author: { $in: playlist.authors } } : {}),
  };
  return { filter, sort: { publishDate: -1, created: -1, legacyId: -1 } };
}

/** Manual playlists play in the order of their list. */
export function inPlaylistOrder<T extends { _id: string }>(playlist: PlaylistView, items: T[]): T[] {
  if (playlist.type !== 'manual') return items;
  const rank = new Map(playlist.contentIds.map((id, index) => [id, index]));
  return [...items].sort((a, b) => rank.get(a._id)! - rank.get(b._id)!);
}
