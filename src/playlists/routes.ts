// The /v1 playlist routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import type { PlaylistActions } from './actions.ts';

export function playlistRoutes(router: Router, playlists: PlaylistActions) {
  projectResourceRoutes(router, 'playlists', playlists);
}
