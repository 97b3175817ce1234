// The /v1 pronunciation rule routes: list, create, get, update, delete (organization keys).
import type Router from '@koa/router';
import type { Capability } from '../http/capability.ts';
import { rawQuery } from '../http/query.ts';
import { ruleActions, type RuleActions } from './actions.ts';

export function ruleRoutes(router: Router, rules: RuleActions) {
  router.get('/rules', async (ctx) => {
    ctx.body = await rules.list(ctx, rawQuery(ctx));
  });
  router.post('/rules', async (ctx) => {
    ctx.body = await rules.create(ctx, ctx.request.body);
    ctx.status = 201;
  });
  router.get('/rules/:id', async (ctx) => {
    ctx.body = await rules.get(ctx, ctx.params.id!);
  });
  router.put('/rules/:id', async (ctx) => {
    ctx.body = await rules.update(ctx, ctx.params.id!, ctx.request.body);
  });
  router.delete('/rules/:id', async (ctx) => {
    await rules.remove(ctx, ctx.params.id!, rawQuery(ctx));
    ctx.status = 204;
  });
}

export const pronunciationCapability: Capability = { routes: (router, services) => ruleRoutes(router, ruleActions(services)) };
