// Builds the Koa application from its dependencies; it reads no configuration itself.
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { EventStore } from './infrastructure/eventStore/port.ts';
import type { ReadStore } from './infrastructure/readStore/port.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import { createContentHandlers } from './content/handlers.ts';
import { contentRoutes } from './content/routes.ts';
import { contentActions } from './content/actions.ts';
import { createProjectHandlers } from './projects/handlers.ts';
import { projectRoutes } from './projects/routes.ts';
import { projectActions } from './projects/actions.ts';
import { authenticate } from './http/auth.ts';
import { errorHandler, sendError } from './http/errors.ts';
import { rateLimit } from './http/rateLimit.ts';
import { mountGraphql } from './graphql/server.ts';
import { mediaFiles } from './http/media.ts';
import { voiceRoutes } from './voices/routes.ts';
import type { VoiceCatalogue } from './voices/catalogue.ts';
import { createWebhookHandlers, type WebhookSettings } from './webhooks/handlers.ts';
import { webhookActions } from './webhooks/actions.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { createAdHandlers } from './ads/handlers.ts';
import { adActions } from './ads/actions.ts';
import { adRoutes } from './ads/routes.ts';
import { createAccessTierHandlers } from './accessTiers/handlers.ts';
import { accessTierActions } from './accessTiers/actions.ts';
import { accessTierRoutes } from './accessTiers/routes.ts';
import { playlistActions } from './playlists/actions.ts';
import { playlistRoutes } from './playlists/routes.ts';
import { mountPodcasts } from './podcasts/routes.ts';
import { mountPreview } from './player/preview.ts';
import { mountPlayer } from './player/routes.ts';

export interface AppDeps {
  events: EventStore;
  read: ReadStore;
  runner: ProjectionRunner;
  voices: VoiceCatalogue;
  mediaDir: string;
  /** Base of absolute media URLs; the request's own origin when unset. */
  publicBaseUrl: string | undefined;
  limits: { get: number; other: number };
  webhookSettings: WebhookSettings;
  now: () => Date;
  log: (message: string) => void;
}

export type Services = AppDeps & {
  content: ReturnType<typeof createContentHandlers>;
  projects: ReturnType<typeof createProjectHandlers>;
  webhooks: ReturnType<typeof createWebhookHandlers>;
  ads: ReturnType<typeof createAdHandlers>;
  accessTiers: ReturnType<typeof createAccessTierHandlers>;
};

export const BODY_LIMIT = '2mb';

export async function createApp(deps: AppDeps): Promise<Koa> {
  const services: Services = {
    ...deps,
    content: createContentHandlers(deps.events, deps.voices),
    projects: createProjectHandlers(deps.events),
    webhooks: createWebhookHandlers(deps.events, deps.webhookSettings, deps.now),
    ads: createAdHandlers(deps.events),
    accessTiers: createAccessTierHandlers(deps.events),
  };
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
  app.use(errorHandler(deps.log));
  app.use(mediaFiles(deps.mediaDir));
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
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, encoding: 'utf-8' }));
  await mountGraphql(app, actions);
  app.use(router.routes());
  return app;
}
