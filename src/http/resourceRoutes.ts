// The routes every project-owned resource has: list, create, get, update and (where allowed) delete.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { rawQuery } from './query.ts';

export interface ResourceActions {
  list(ctx: Context, projectRef: string | undefined, query: Record<string, unknown>): Promise<unknown>;
  create(ctx: Context, projectRef: string | undefined, body: unknown): Promise<unknown>;
  get(ctx: Context, projectRef: string | undefined, id: string): Promise<unknown>;
  update(ctx: Context, projectRef: string | undefined, id: string, body: unknown): Promise<unknown>;
  remove?(ctx: Context, projectRef: string | undefined, id: string): Promise<void>;
}

/** Registers `/projects/:projectId/<name>` and `/projects/:projectId/<name>/:id`. */
export function projectResourceRoutes(router: Router, name: string, actions: ResourceActions) {
  const collection = `/projects/:projectId/${name}`;
  const member = `${collection}/:id`;
  router.get(collection, async (ctx) => {
    ctx.body = await actions.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });
  router.post(collection, async (ctx) => {
    ctx.body = await actions.create(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 201;
  });
  router.get(member, async (ctx) => {
    ctx.body = await actions.get(ctx, ctx.params.projectId, ctx.params.id!);
  });
  router.put(member, async (ctx) => {
    ctx.body = await actions.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body);
  });
  const remove = actions.remove?.bind(actions);
  if (remove) {
    router.delete(member, async (ctx) => {
      await remove(ctx, ctx.params.projectId, ctx.params.id!);
      ctx.status = 204;
    });
  }
}
