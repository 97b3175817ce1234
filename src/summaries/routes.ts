// The /v1 routes of AI script summaries: script templates, a project's summarization settings, and summarize.
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { organizationResourceRoutes } from '../http/resourceRoutes.ts';
import { summaryActions, summaryTemplateActions, type SummaryActions } from './actions.ts';

function summaryRoutes(router: Router, summaries: SummaryActions) {
  router.get('/projects/:projectId/summarization_settings', async (ctx) => {
    ctx.body = await summaries.getSettings(ctx, ctx.params.projectId);
  });
  router.put('/projects/:projectId/summarization_settings', async (ctx) => {
    ctx.body = await summaries.updateSettings(ctx, ctx.params.projectId, ctx.request.body);
  });
  router.post('/projects/:projectId/content/:id/summarize', async (ctx) => {
    ctx.body = await summaries.summarize(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });
}

export const summaryCapability: Capability = {
  routes: (router, services) => {
    organizationResourceRoutes(router, 'summarization_settings_templates', summaryTemplateActions(services));
    summaryRoutes(router, summaryActions(services));
  },
};
