// Builds the Koa application from its dependencies; it reads no configuration itself.
import Koa from 'koa';
import Router from '@koa/router';
import { createServices, type AppDeps } from './services.ts';
import { contentRoutes } from './content/routes.ts';
import { contentActions } from './content/actions.ts';
import { projectRoutes } from './projects/routes.ts';
import { projectActions } from './projects/actions.ts';
import { authenticate } from './http/auth.ts';
import { errorHandler, sendError } from './http/errors.ts';
import { requestId } from './http/requestId.ts';
import { mountHealth } from './http/health.ts';
import { publicRateLimit, rateLimit } from './http/rateLimit.ts';
import { jsonBodies } from './http/limits.ts';
import { idempotentPosts } from './http/idempotency.ts';
import { rejectMalformedPaths } from './http/paths.ts';
import { mountGraphql } from './graphql/server.ts';
import { mediaFiles } from './http/media.ts';
import { voiceRoutes } from './voices/routes.ts';
import { webhookActions } from './webhooks/actions.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { adActions } from './ads/actions.ts';
import { adRoutes } from './ads/routes.ts';
import { accessTierActions } from './accessTiers/actions.ts';
import { accessTierRoutes } from './accessTiers/routes.ts';
import { playlistActions } from './playlists/actions.ts';
import { playlistRoutes } from './playlists/routes.ts';
import { mountPodcasts } from './podcasts/routes.ts';
import { mountPreview } from './player/preview.ts';
import { mountPlayer } from './player/routes.ts';
import { mountApiDocs } from './openapi/routes.ts';

export async function createApp(deps: AppDeps): Promise<Koa> {
  const services = createServices(deps);
  const router = new Router({ prefix: '/v1' });
  const actions = { content: contentActions(services), projects: projectActions(services) };
  contentRoutes(router, actions.content);
  projectRoutes(router, actions.projects);
  voiceRoutes(router, services);
  webhookRoutes(router, webhookActions(services));
  adRoutes(router, adActions(services));
  accessTierRoutes(router, accessTierActions(services));
  playlistRoutes(router, playlistActions(services));

  const app = new Koa();
  app.proxy = true;
  app.use(requestId(deps.logger));
  app.use(errorHandler(deps.log));
  mountHealth(app, { events: deps.events, runner: deps.runner, draining: deps.draining });
  app.use(rejectMalformedPaths);
  app.use(publicRateLimit(deps.limits.publicPerAddress));
  app.use(mediaFiles(deps.mediaDir));
  mountApiDocs(app);
  mountPreview(app, services);
  mountPlayer(app, services);
  mountPodcasts(app, router, services);
  app.use(async function matchRoute(ctx, next) {
    if (ctx.path === '/graphql') return next();
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length === 0) return sendError(ctx, 404, 'Not Found');
    if (!match.route) {
      ctx.set('Allow', [...new Set(match.path.flatMap((layer) => layer.methods))].join(', '));
      return sendError(ctx, 405, 'Method Not Allowed');
    }
    return next();
  });
  app.use(authenticate(deps.read));
  app.use(rateLimit(deps.limits));
  app.use(jsonBodies({ maxBytes: deps.limits.maxBodyBytes }));
  app.use(idempotentPosts(deps.events, deps.now, deps.log));
  await mountGraphql(app, actions);
  app.use(router.routes());
  return app;
}
