// The analytics routes: the public player events endpoint (any origin, no key), and the seven analytics operations.
import type Router from '@koa/router';
import type { IncomingMessage } from 'node:http';
import type { Capability, NodeRoute } from '../http/capability.ts';
import type { Services } from '../services.ts';
import { answerToFailure, errorBody } from '../http/errors.ts';
import { readBody } from '../http/readBody.ts';
import { rawQuery } from '../http/query.ts';
import { addressOf, limitHeaders, memoryCounter, TOO_MANY_REQUESTS } from '../http/rateLimit.ts';
import { logAnswered, requestIdFor } from '../http/requestId.ts';
import { inRequestScope } from '../logging.ts';
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

/** An answer of the events endpoint: its status, JSON body (none for a preflight) and headers beyond CORS. */
interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const refusal = (status: number, message: string, headers: Record<string, string>, id: string): Answer => ({ status, body: errorBody(status, message, undefined, id), headers });

/**
 * POST /v1/analytics/events, on node's request and response: answered exactly 200 with the CORS header, since the
 * player treats any other status as an error and the browser hides an answer without the header from the page. The
 * answers, their error shape, request id, rate limit headers and log line are those of every other route.
 */
function playerEvents(services: Services): NodeRoute {
  const recorder = createEventRecorder(services.events, services.now);
  const check = subjectChecker(services.read, SUBJECTS_REMEMBERED_MS);
  const counter = services.requestCounter ?? memoryCounter();
  const limit = services.limits.analyticsPerAddress;

  const receive = async (request: IncomingMessage, id: string): Promise<Answer> => {
    if (request.method === 'OPTIONS') return { status: 204, body: null, headers: PREFLIGHT };
    if (request.method !== 'POST') return refusal(405, 'Method Not Allowed', { Allow: 'POST, OPTIONS' }, id);
    const address = addressOf(request.headers['x-forwarded-for'] as string | undefined, request.socket.remoteAddress);
    const headers = limitHeaders(await counter.take(`analytics:${address}`, limit), limit);
    if (headers['Retry-After']) return refusal(429, TOO_MANY_REQUESTS, headers, id);
    if (!JSON_OR_TEXT.test(request.headers['content-type'] ?? '')) return refusal(415, 'Events are posted as application/json or text/plain', headers, id);
    const read = await readBody(request, MAX_EVENTS_BODY_BYTES);
    if (!read.ok) {
      return read.reason === 'too_large' ? refusal(413, `Request body too large: at most ${MAX_EVENTS_BODY_BYTES} bytes`, headers, id) : refusal(400, 'Incomplete body', headers, id);
    }
    let body: unknown;
    try {
      body = JSON.parse(read.bytes.toString('utf8'));
    } catch {
      return refusal(400, 'Malformed JSON', headers, id);
    }
    const events = parsePlayerEvents(body);
    await checkSubjects(check, events);
    await recorder.record(storedEventsOf(events, services.now()));
    return { status: 200, body: { accepted: events.length }, headers };
  };

  /** Invalid events (422), a full disk (507), a store away (503) or anything else (500), as every route answers them. */
  const failed = (request: IncomingMessage, id: string, error: unknown): Answer => {
    const failure = answerToFailure(error, services.log, `${request.method} ${EVENTS_PATH}`);
    return { status: failure.status, body: errorBody(failure.status, failure.message, failure.errors, id), headers: failure.headers ?? {} };
  };

  return (request, response) => {
    const url = request.url ?? '';
    const query = url.indexOf('?');
    if ((query < 0 ? url : url.slice(0, query)) !== EVENTS_PATH) return false;
    const started = performance.now();
    const id = requestIdFor(request.headers['x-request-id'] as string | undefined);
    void inRequestScope(id, () => receive(request, id).catch((error: unknown) => failed(request, id, error))).then(({ status, body, headers }) => {
      const text = body === null ? '' : JSON.stringify(body);
      response.writeHead(status, {
        'Access-Control-Allow-Origin': '*',
        'X-Request-Id': id,
        ...headers,
        ...(body === null ? {} : { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) }),
      });
      response.end(text);
      logAnswered(services.logger, { request_id: id, method: request.method, path: EVENTS_PATH, status, duration_ms: Math.round(performance.now() - started) });
    }).catch((error: unknown) => {
      // The answer could not be written (the connection went away meanwhile): nothing is left to tell the client.
      services.log(`could not answer ${request.method} ${EVENTS_PATH}: ${error instanceof Error ? error.message : String(error)}`);
      response.destroy();
    });
    return true;
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
  nodeRoutes: (services) => [playerEvents(services)],
};
