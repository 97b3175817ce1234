// The /v1 ad routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import type { AdActions } from './actions.ts';

export function adRoutes(router: Router, ads: AdActions) {
  router.get('/projects/:projectId/ads', async (ctx) => {
    ctx.body = await ads.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });

  router.post('/projects/:projectId/ads', async (ctx) => {
    ctx.body = await ads.create(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 201;
  });

  router.get('/projects/:projectId/ads/:id', async (ctx) => {
    ctx.body = await ads.get(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.put('/projects/:projectId/ads/:id', async (ctx) => {
    ctx.body = await ads.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });

  router.delete('/projects/:projectId/ads/:id', async (ctx) => {
    await ads.remove(ctx, ctx.params.projectId, ctx.params.id!);
    ctx.status = 204;
  });
}
