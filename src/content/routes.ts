// The /v1 content routes: create, upload, list, get, update, delete, batch delete.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { rawQuery } from '../http/query.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { contentActions, type ContentActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';
import { detailQuery } from './wire.ts';

const detailOf = (ctx: Context) => parseOrThrow(detailQuery, rawQuery(ctx), 'Invalid query parameters');

export function contentRoutes(router: Router, content: ContentActions) {
  router.post('/projects/:projectId/content', async (ctx) => {
    ctx.body = await content.create(ctx, ctx.params.projectId, ctx.request.body, detailOf(ctx));
    ctx.status = 201;
  });

  router.post('/projects/:projectId/content/upload', async (ctx) => {
    ctx.body = await content.upload(ctx, ctx.params.projectId, rawQuery(ctx));
    ctx.status = 201;
  });

  router.get('/projects/:projectId/content', async (ctx) => {
    ctx.body = await content.list(ctx, ctx.params.projectId, rawQuery(ctx));
  });

  router.post('/projects/:projectId/content/batch_delete', async (ctx) => {
    await content.removeMany(ctx, ctx.params.projectId, ctx.request.body);
    ctx.status = 204;
  });

  router.get('/projects/:projectId/content/:id', async (ctx) => {
    ctx.body = await content.get(ctx, ctx.params.projectId, ctx.params.id!, detailOf(ctx));
  });

  router.put('/projects/:projectId/content/:id', async (ctx) => {
    ctx.body = await content.update(ctx, ctx.params.projectId, ctx.params.id!, ctx.request.body, detailOf(ctx));
  });

  router.post('/projects/:projectId/content/:id/regenerate', async (ctx) => {
    ctx.body = await content.regenerate(ctx, ctx.params.projectId, ctx.params.id!, detailOf(ctx));
  });

  router.delete('/projects/:projectId/content/:id', async (ctx) => {
    await content.remove(ctx, ctx.params.projectId, ctx.params.id!);
    ctx.status = 204;
  });
}

export const contentCapability: Capability = { routes: (router, services) => contentRoutes(router, contentActions(services)) };
