// The /v1 webhook routes: list, create, get, update, delete, test, and the deliveries of a webhook.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import { webhookActions, type WebhookActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';

export function webhookRoutes(router: Router, webhooks: WebhookActions) {
  projectResourceRoutes(router, 'webhooks', webhooks);

  router.post('/projects/:projectId/webhooks/:id/test', async (ctx) => {
    ctx.body = await webhooks.test(ctx, ctx.params.projectId, ctx.params.id!);
  });

  router.get('/projects/:projectId/webhooks/:id/deliveries', async (ctx) => {
    ctx.body = await webhooks.deliveries(ctx, ctx.params.projectId, ctx.params.id!, rawQuery(ctx));
  });
}

export const webhookCapability: Capability = { routes: (router, services) => webhookRoutes(router, webhookActions(services)) };
