// The /v1 speaker routes: list, create, get, update, delete (organization keys).
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { rawQuery } from '../http/query.ts';
import { speakerActions, type SpeakerActions } from './actions.ts';

export function speakerRoutes(router: Router, speakers: SpeakerActions) {
  router.get('/speakers', async (ctx) => {
    ctx.body = await speakers.list(ctx, rawQuery(ctx));
  });
  router.post('/speakers', async (ctx) => {
    ctx.body = await speakers.create(ctx, ctx.request.body, rawQuery(ctx));
    ctx.status = 201;
  });
  router.get('/speakers/:id', async (ctx) => {
    ctx.body = await speakers.get(ctx, ctx.params.id!, rawQuery(ctx));
  });
  router.put('/speakers/:id', async (ctx) => {
    ctx.body = await speakers.update(ctx, ctx.params.id!, ctx.request.body, rawQuery(ctx));
  });
  router.delete('/speakers/:id', async (ctx) => {
    await speakers.remove(ctx, ctx.params.id!);
    ctx.status = 204;
  });
}

export const speakerCapability: Capability = { routes: (router, services) => speakerRoutes(router, speakerActions(services)) };
