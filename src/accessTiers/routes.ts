// The /v1 access tier routes: list, create, get, update (tiers are not deleted: content may name them).
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import type { AccessTierActions } from './actions.ts';

export function accessTierRoutes(router: Router, accessTiers: AccessTierActions) {
  router.get('/projects/:projectId/access_tiers', async (ctx) => {
    ctx.body = await accessTiers.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });

  router.post('/projects/:projectId/access_tiers', async (ctx) => {
    ctx.body = await accessTiers.create(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 201;
  });

  router.get('/projects/:projectId/access_tiers/:id', async (ctx) => {
    ctx.body = await accessTiers.get(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.put('/projects/:projectId/access_tiers/:id', async (ctx) => {
    ctx.body = await accessTiers.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });
}
