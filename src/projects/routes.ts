// The /v1 project routes: list, create, get, update, delete, and the project's settings resources.
import type Router from '@koa/router';
import { rawQuery } from '../http/query.ts';
import { projectActions, type ProjectActions } from './actions.ts';
import type { Capability } from '../http/capability.ts';
import type { SettingsResource } from './events.ts';

const settingsPaths: Record<SettingsResource, string> = { player: 'player_settings', video: 'video_settings', embed: 'embed_settings', extraction: 'content_extraction_settings' };

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

  for (const [resource, path] of Object.entries(settingsPaths) as [SettingsResource, string][]) {
    router.get(`/projects/:projectId/${path}`, async (ctx) => {
      ctx.body = await projects.getSettings(ctx, ctx.params.projectId, resource);
    });
    router.put(`/projects/:projectId/${path}`, async (ctx) => {
      ctx.body = await projects.updateSettings(ctx, ctx.params.projectId, resource, ctx.request.body);
    });
  }
}

export const projectCapability: Capability = { routes: (router, services) => projectRoutes(router, projectActions(services)) };
