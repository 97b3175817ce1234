// The /v1 playlist routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import { playlistActions, type PlaylistActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';

export function playlistRoutes(router: Router, playlists: PlaylistActions) {
  projectResourceRoutes(router, 'playlists', playlists);
}

export const playlistCapability: Capability = { routes: (router, services) => playlistRoutes(router, playlistActions(services)) };
