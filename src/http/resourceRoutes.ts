// The routes every project- or organization-owned resource has: list, create, get, update and (where allowed) delete.
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

export interface OrganizationResourceActions {
  list(ctx: Context, query: Record<string, unknown>): Promise<unknown>;
  create(ctx: Context, body: unknown): Promise<unknown>;
  get(ctx: Context, id: string): Promise<unknown>;
  update(ctx: Context, id: string, body: unknown): Promise<unknown>;
  remove(ctx: Context, id: string, query: Record<string, unknown>): Promise<void>;
}

/** Registers `/<name>` and `/<name>/:id` for a resource the organization owns (rules, templates, background tracks). */
export function organizationResourceRoutes(router: Router, name: string, actions: OrganizationResourceActions) {
  router.get(`/${name}`, async (ctx) => {
    ctx.body = await actions.list(ctx, rawQuery(ctx));
  });
  router.post(`/${name}`, async (ctx) => {
    ctx.body = await actions.create(ctx, ctx.request.body);
    ctx.status = 201;
  });
  router.get(`/${name}/:id`, async (ctx) => {
    ctx.body = await actions.get(ctx, ctx.params.id!);
  });
  router.put(`/${name}/:id`, async (ctx) => {
    ctx.body = await actions.update(ctx, ctx.params.id!, ctx.request.body);
  });
  router.delete(`/${name}/:id`, async (ctx) => {
    await actions.remove(ctx, ctx.params.id!, rawQuery(ctx));
    ctx.status = 204;
  });
}
