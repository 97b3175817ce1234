// The /v1 CMS integration routes: settings, their test, and the platform's posts webhook (keyed by `?api_key=`, src/http/auth.ts).
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { cmsIntegrationActions, type CmsIntegrationActions } from './actions.ts';

export function cmsIntegrationRoutes(router: Router, cms: CmsIntegrationActions) {
  router.get('/projects/:projectId/integrations/cms', async (ctx) => {
    ctx.body = await cms.getSettings(ctx, ctx.params.projectId);
  });

  router.put('/projects/:projectId/integrations/cms', async (ctx) => {
    ctx.body = await cms.updateSettings(ctx, ctx.params.projectId, ctx.request.body);
  });

  router.post('/projects/:projectId/integrations/cms/test', async (ctx) => {
    ctx.body = await cms.test(ctx, ctx.params.projectId, ctx.request.body);
  });

  router.post('/projects/:projectId/integrations/cms/posts', async (ctx) => {
    ctx.body = await cms.receivePost(ctx, ctx.params.projectId, ctx.request.body);
  });
}

export const cmsIntegrationCapability: Capability = { routes: (router, services) => cmsIntegrationRoutes(router, cmsIntegrationActions(services)) };
