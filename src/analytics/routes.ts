// The analytics routes: the public player events endpoint (any origin, no key), and the seven analytics operations.
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { Capability } from '../http/capability.ts';
import type { Services } from '../services.ts';
import { sendError } from '../http/errors.ts';
import { readBody } from '../http/readBody.ts';
import { rawQuery } from '../http/query.ts';
import { answerLimit, clientAddress, memoryCounter } from '../http/rateLimit.ts';
import { analyticsActions, type AnalyticsActions } from './actions.ts';
import { EVENTS_PATH } from './playerEvents.ts';
import { checkSubjects, createEventRecorder, parsePlayerEvents, storedEventsOf, subjectChecker } from './ingest.ts';

/** The largest body the events endpoint reads: 1,000 events of the player's shape take about 700 KB. */
export const MAX_EVENTS_BODY_BYTES = 1024 * 1024;

/** How long the endpoint remembers that a project, item or ad exists (or does not). */
const SUBJECTS_REMEMBERED_MS = 10_000;

const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

/** `application/json`, or `text/plain` as `navigator.sendBeacon` sends a string (no preflight); nothing else. */
const JSON_OR_TEXT = /^(?:application\/json|text\/plain)\s*(?:;|$)/i;

/**
 * POST /v1/analytics/events: answered exactly 200 with the CORS header, since the player treats any other status as
 * an error and the browser hides an answer without the header from the page.
 */
function playerEvents(services: Services): Middleware {
  const recorder = createEventRecorder(services.events, services.now);
  const check = subjectChecker(services.read, SUBJECTS_REMEMBERED_MS);
  const counter = services.requestCounter ?? memoryCounter();
  const limit = services.limits.analyticsPerAddress;
  return async function receivePlayerEvents(ctx: Context, next: Next) {
    if (ctx.path !== EVENTS_PATH) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set(PREFLIGHT);
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST, OPTIONS');
      return sendError(ctx, 405, 'Method Not Allowed');
    }
    if (!answerLimit(ctx, await counter.take(`analytics:${clientAddress(ctx)}`, limit), limit)) return;
    if (!JSON_OR_TEXT.test(ctx.get('content-type'))) return sendError(ctx, 415, 'Events are posted as application/json or text/plain');
    const read = await readBody(ctx.req, MAX_EVENTS_BODY_BYTES);
    if (!read.ok) return read.reason === 'too_large' ? sendError(ctx, 413, `Request body too large: at most ${MAX_EVENTS_BODY_BYTES} bytes`) : sendError(ctx, 400, 'Incomplete body');
    let body: unknown;
    try {
      body = JSON.parse(read.bytes.toString('utf8'));
    } catch {
      return sendError(ctx, 400, 'Malformed JSON');
    }
    const events = parsePlayerEvents(body);
    await checkSubjects(check, events);
    await recorder.record(storedEventsOf(events, services.now()));
    ctx.status = 200;
    ctx.body = { accepted: events.length };
  };
}

function analyticsRoutes(router: Router, analytics: AnalyticsActions) {
  // Before the routes whose `{id}` would take `analytics` (registered by capabilities later in the list).
  router.get('/organization/analytics', async (ctx) => {
    ctx.body = await analytics.organization(ctx, rawQuery(ctx));
  });
  router.get('/projects/analytics', async (ctx) => {
    ctx.body = await analytics.projects(ctx, rawQuery(ctx));
  });
  router.get('/projects/:projectId/analytics', async (ctx) => {
    ctx.body = await analytics.project(ctx, ctx.params.projectId, rawQuery(ctx));
  });
  router.get('/projects/:projectId/content/analytics', async (ctx) => {
    ctx.body = await analytics.topContent(ctx, ctx.params.projectId, rawQuery(ctx));
  });
  router.get('/projects/:projectId/content/:id/analytics', async (ctx) => {
    ctx.body = await analytics.content(ctx, ctx.params.projectId, ctx.params.id!, rawQuery(ctx));
  });
  router.get('/projects/:projectId/ads/analytics', async (ctx) => {
    ctx.body = await analytics.ads(ctx, ctx.params.projectId, rawQuery(ctx));
  });
  router.get('/projects/:projectId/ads/:id/analytics', async (ctx) => {
    ctx.body = await analytics.ad(ctx, ctx.params.projectId, ctx.params.id!, rawQuery(ctx));
  });
}

export const analyticsCapability: Capability = {
  routes: (router, services) => analyticsRoutes(router, analyticsActions(services)),
  publicRoutes: (services) => [playerEvents(services)],
};
