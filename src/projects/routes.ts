// The /v1 project routes: list, create, get, update, delete.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import type { ProjectActions } from './actions.ts';

export function projectRoutes(router: Router, projects: ProjectActions) {
  router.get('/projects', async (ctx) => {
    ctx.body = await projects.list(ctx, rawQuery(ctx));
  });

  router.post('/projects', async (ctx) => {
    ctx.body = await projects.create(ctx, ctx.request.body);
    ctx.status = 201;
  });

  router.get('/projects/:projectId', async (ctx) => {
    ctx.body = await projects.get(ctx, ctx.params.projectId);
  });

  router.put('/projects/:projectId', async (ctx) => {
    ctx.body = await projects.update(ctx, ctx.params.projectId, ctx.request.body);
  });

  router.delete('/projects/:projectId', async (ctx) => {
    await projects.remove(ctx, ctx.params.projectId);
    ctx.status = 204;
  });
}
