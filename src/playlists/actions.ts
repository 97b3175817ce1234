// Playlist use cases of the REST routes; answers are wire-shaped.
import type { Services } from '../services.ts';
import { findContent } from '../content/readModel.ts';
import { playlistsProjection } from '../../projections/playlists.ts';
import { playlistStream } from './events.ts';
import { projectResourceActions } from '../shared/crud/actions.ts';
import { createPlaylistHandlers } from './handlers.ts';
import { PLAYLISTS } from './readModel.ts';
import { playlistToWire } from './wire.ts';

export type PlaylistActions = ReturnType<typeof playlistActions>;

export function playlistActions(services: Services) {
  const resolve = async (projectId: number, ref: string) => (await findContent(services.read, projectId, ref))?._id ?? null;
  const handlers = createPlaylistHandlers(services.events, resolve);
  return projectResourceActions(services, { collection: PLAYLISTS, projection: playlistsProjection, stream: playlistStream, toWire: playlistToWire }, handlers);
}
