// The /v1 background track routes: list, create, get, update, delete.
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { rawQuery } from '../http/query.ts';
import { backgroundTrackActions, type BackgroundTrackActions } from './actions.ts';

export function backgroundTrackRoutes(router: Router, tracks: BackgroundTrackActions) {
  router.get('/background_tracks', async (ctx) => {
    ctx.body = await tracks.list(ctx, rawQuery(ctx));
  });
  router.post('/background_tracks', async (ctx) => {
    ctx.body = await tracks.create(ctx, ctx.request.body);
    ctx.status = 201;
  });
  router.get('/background_tracks/:id', async (ctx) => {
    ctx.body = await tracks.get(ctx, ctx.params.id!);
  });
  router.put('/background_tracks/:id', async (ctx) => {
    ctx.body = await tracks.update(ctx, ctx.params.id!, ctx.request.body);
  });
  router.delete('/background_tracks/:id', async (ctx) => {
    await tracks.remove(ctx, ctx.params.id!);
    ctx.status = 204;
  });
}

export const backgroundTrackCapability: Capability = { routes: (router, services) => backgroundTrackRoutes(router, backgroundTrackActions(services, services.audioLimits)) };
