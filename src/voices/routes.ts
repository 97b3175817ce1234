// Voice and language routes: the catalogue with the organization's own voices, voice design and a project's voices.
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { rawQuery } from '../http/query.ts';
import { voiceActions, type VoiceActions } from './actions.ts';

export function voiceRoutes(router: Router, voices: VoiceActions) {
  router.get('/organization/voices', async (ctx) => {
    ctx.body = await voices.list(ctx, rawQuery(ctx));
  });
  router.post('/organization/voices', async (ctx) => {
    ctx.body = await voices.create(ctx, ctx.request.body);
    ctx.status = 201;
  });
  // Before `/organization/voices/:id`, which they would otherwise match.
  router.post('/organization/voices/design_previews', async (ctx) => {
    ctx.body = await voices.designPreviews(ctx, ctx.request.body);
  });
  router.post('/organization/voices/finalize_design', async (ctx) => {
    ctx.body = await voices.finalizeDesign(ctx, ctx.request.body);
    ctx.status = 201;
  });
  router.post('/organization/voices/clone', async (ctx) => {
    await voices.clone(ctx);
  });
  router.get('/organization/voices/:id', async (ctx) => {
    ctx.body = await voices.get(ctx, ctx.params.id!);
  });
  router.put('/organization/voices/:id', async (ctx) => {
    ctx.body = await voices.update(ctx, ctx.params.id!, ctx.request.body);
  });
  router.delete('/organization/voices/:id', async (ctx) => {
    await voices.remove(ctx, ctx.params.id!);
    ctx.status = 204;
  });

  router.get('/organization/languages', async (ctx) => {
    ctx.body = voices.languages();
  });

  router.get('/projects/:projectId/voices', async (ctx) => {
    ctx.body = await voices.projectVoices(ctx, ctx.params.projectId);
  });
}

export const voiceCapability: Capability = { routes: (router, services) => voiceRoutes(router, voiceActions(services)) };
