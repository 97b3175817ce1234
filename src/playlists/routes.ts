// The /v1 playlist routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import type { PlaylistActions } from './actions.ts';

export function playlistRoutes(router: Router, playlists: PlaylistActions) {
  router.get('/projects/:projectId/playlists', async (ctx) => {
    ctx.body = await playlists.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });

  router.post('/projects/:projectId/playlists', async (ctx) => {
    ctx.body = await playlists.create(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 201;
  });

  router.get('/projects/:projectId/playlists/:id', async (ctx) => {
    ctx.body = await playlists.get(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.put('/projects/:projectId/playlists/:id', async (ctx) => {
    ctx.body = await playlists.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });

  router.delete('/projects/:projectId/playlists/:id', async (ctx) => {
    await playlists.remove(ctx, ctx.params.projectId, ctx.params.id!);
    ctx.status = 204;
  });
}
