// The /v1 webhook routes: list, create, get, update, delete, test, and the deliveries of a webhook.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import type { WebhookActions } from './actions.ts';

export function webhookRoutes(router: Router, webhooks: WebhookActions) {
  router.get('/projects/:projectId/webhooks', async (ctx) => {
    ctx.body = await webhooks.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });

  router.post('/projects/:projectId/webhooks', async (ctx) => {
    ctx.body = await webhooks.create(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 201;
  });

  router.get('/projects/:projectId/webhooks/:id', async (ctx) => {
    ctx.body = await webhooks.get(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.put('/projects/:projectId/webhooks/:id', async (ctx) => {
    ctx.body = await webhooks.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });

  router.delete('/projects/:projectId/webhooks/:id', async (ctx) => {
    await webhooks.remove(ctx, ctx.params.projectId, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/projects/:projectId/webhooks/:id/test', async (ctx) => {
    ctx.body = await webhooks.test(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.get('/projects/:projectId/webhooks/:id/deliveries', async (ctx) => {
    ctx.body = await webhooks.deliveries(ctx, ctx.params.projectId, ctx.params.id!, rawQuery(ctx));
  });
}
