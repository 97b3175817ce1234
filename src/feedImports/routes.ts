// The /v1 feed import routes: list, create, get, update, delete, run and test.
import type Router from '@koa/router';
import { projectResourceRoutes } from '../http/resourceRoutes.ts';
import type { Capability } from '../http/capability.ts';
import { feedImportActions, type FeedImportActions } from './actions.ts';

export function feedImportRoutes(router: Router, imports: FeedImportActions) {
  // Registered before the kit's `/:id` routes, so `test` is never taken for an id.
  router.post('/projects/:projectId/rss_feed_imports/test', async (ctx) => {
    ctx.body = await imports.test(ctx, ctx.params.projectId, ctx.request.body);
  });
  router.post('/projects/:projectId/rss_feed_imports/:id/run', async (ctx) => {
    ctx.body = await imports.run(ctx, ctx.params.projectId, ctx.params.id!);
  });
  projectResourceRoutes(router, 'rss_feed_imports', imports);
}

export const feedImportCapability: Capability = { routes: (router, services) => feedImportRoutes(router, feedImportActions(services)) };
