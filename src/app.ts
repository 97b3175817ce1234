// Builds the Koa application from its dependencies; it reads no configuration itself.
import type { RequestListener } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { createServices, type AppDeps } from './services.ts';
import { contentActions } from './content/actions.ts';
import { projectActions } from './projects/actions.ts';
import { analyticsActions } from './analytics/actions.ts';
import { authenticate } from './http/auth.ts';
import { errorHandler, sendError } from './http/errors.ts';
import { requestId } from './http/requestId.ts';
import { mountHealth } from './http/health.ts';
import { publicRateLimit, rateLimit } from './http/rateLimit.ts';
import { jsonBodies } from './http/limits.ts';
import { idempotentPosts } from './http/idempotency.ts';
import { rejectMalformedPaths } from './http/paths.ts';
import { mountGraphql } from './graphql/server.ts';
import { capabilities } from './capabilities.ts';

/** The service's request listener: the capabilities' node routes, then the Koa application. */
export async function createApp(deps: AppDeps): Promise<RequestListener> {
  const services = createServices(deps);
  const router = new Router({ prefix: '/v1' });
  for (const capability of capabilities) capability.routes?.(router, services);

  const app = new Koa();
  app.proxy = true;
  app.use(requestId(deps.logger));
  app.use(errorHandler(deps.log));
  mountHealth(app, { events: deps.events, runner: deps.runner, draining: deps.draining });
  app.use(rejectMalformedPaths);
  app.use(publicRateLimit(deps.limits.publicPerAddress, deps.requestCounter));
  for (const capability of capabilities) for (const handler of capability.publicRoutes?.(services) ?? []) app.use(handler);
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
  app.use(rateLimit(deps.limits, deps.requestCounter));
  app.use(jsonBodies({ maxBytes: deps.limits.maxBodyBytes }));
  app.use(idempotentPosts(deps.events, deps.now, deps.log));
  await mountGraphql(app, { content: contentActions(services), projects: projectActions(services), analytics: analyticsActions(services) });
  app.use(router.routes());
  const koa = app.callback();
  const nodeRoutes = capabilities.flatMap((capability) => capability.nodeRoutes?.(services) ?? []);
  return (request, response) => {
    for (const route of nodeRoutes) if (route(request, response)) return;
    void koa(request, response);
  };
}
