// The facts of playlists (`playlist-<id>`).
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { PlaylistWireFields } from './commands.ts';

/** Stored fields; `contentIds` are item UUIDs, whatever kind of id the client sent. */
export type PlaylistFields = CamelKeys<PlaylistWireFields>;

export type PlaylistCreated = {
  type: 'PlaylistCreated';
  data: { playlistId: number; projectId: number; fields: PlaylistFields; created: string };
};
export type PlaylistUpdated = { type: 'PlaylistUpdated'; data: { changes: Partial<PlaylistFields>; updated: string } };
export type PlaylistDeleted = { type: 'PlaylistDeleted'; data: { deleted: string } };

export type PlaylistEvent = PlaylistCreated | PlaylistUpdated | PlaylistDeleted;

export const PLAYLIST_STREAM_PREFIX = 'playlist-';
export const playlistStream = (playlistId: number) => `${PLAYLIST_STREAM_PREFIX}${playlistId}`;
