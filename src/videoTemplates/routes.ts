// The /v1 video settings template routes: list, create, get, update, delete.
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { rawQuery } from '../http/query.ts';
import { videoTemplateActions, type VideoTemplateActions } from './actions.ts';

export function videoTemplateRoutes(router: Router, templates: VideoTemplateActions) {
  router.get('/video_settings_templates', async (ctx) => {
    ctx.body = await templates.list(ctx, rawQuery(ctx));
  });
  router.post('/video_settings_templates', async (ctx) => {
    ctx.body = await templates.create(ctx, ctx.request.body);
    ctx.status = 201;
  });
  router.get('/video_settings_templates/:id', async (ctx) => {
    ctx.body = await templates.get(ctx, ctx.params.id!);
  });
  router.put('/video_settings_templates/:id', async (ctx) => {
    ctx.body = await templates.update(ctx, ctx.params.id!, ctx.request.body);
  });
  router.delete('/video_settings_templates/:id', async (ctx) => {
    await templates.remove(ctx, ctx.params.id!);
    ctx.status = 204;
  });
}

export const videoTemplateCapability: Capability = { routes: (router, services) => videoTemplateRoutes(router, videoTemplateActions(services)) };
