// Listening analytics in the OpenAPI document: the public player events endpoint and the seven analytics operations.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { MAX_EVENTS_PER_REQUEST } from '../analytics/ingest.ts';
import { playerEventSchema } from '../analytics/playerEvents.ts';
import { adAnalyticsRecord, adAnalyticsRow, analyticsListQuery, analyticsQuery, analyticsRecord, contentAnalyticsRow, projectAnalyticsRow } from '../analytics/wire.ts';
import { API_KEY_SCHEME, errors, json, numericId, projectId, readErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const tags = ['Analytics'];
const contentRef = z.string().min(1).max(255).describe('The item UUID, its `source_id` or its legacy numeric id');

export function registerAnalytics(registry: OpenAPIRegistry) {
  const events = z.union([playerEventSchema, z.array(playerEventSchema).min(1).max(MAX_EVENTS_PER_REQUEST)]);
  registry.registerPath({
    method: 'post',
    path: '/analytics/events',
    operationId: 'postPlayerEvents',
    summary: `Player events (the player's \`analytics_url\`): one event or up to ${MAX_EVENTS_PER_REQUEST}, all stored or none; any origin, no key`,
    tags,
    security: [],
    request: {
      body: {
        required: true,
        description: 'As `application/json`, or the same JSON as `text/plain` (a `navigator.sendBeacon` body). Unknown fields are ignored.',
        content: { 'application/json': { schema: events }, 'text/plain': { schema: z.string() } },
      },
    },
    responses: { 200: json(z.object({ accepted: z.number().int() }), 'Stored: the events are durable'), ...errors(400, 413, 415, 422, 429) },
  });

  const get = (path: string, operationId: string, summary: string, params: z.ZodObject | null, query: z.ZodObject, answer: z.ZodType, description: string) =>
    registry.registerPath({
      method: 'get',
      path,
      operationId,
      summary,
      tags,
      security,
      request: { ...(params ? { params } : {}), query },
      responses: { 200: json(answer, description), ...(params ? readErrors() : errors(400, 401, 403, 404, 422, 429)) },
    });
  const records = 'One record per period of the range (empty periods too), oldest first';
  const rows = 'One row per subject with figures in the range, largest first, paged';
  get('/projects/{project_id}/content/{id}/analytics', 'getContentAnalytics', "An item's figures", z.object({ project_id: projectId, id: contentRef }), analyticsQuery, z.array(analyticsRecord), records);
  get('/organization/analytics', 'getOrganizationAnalytics', "The organization's figures, every project by its own local days (organization keys)", null, analyticsQuery, z.array(analyticsRecord), records);
  get('/projects/analytics', 'listProjectsAnalytics', "Each project's figures over the range (a project key: its own project)", null, analyticsListQuery, z.array(projectAnalyticsRow), `${rows} by listens`);
  get('/projects/{project_id}/analytics', 'getProjectAnalytics', "A project's figures, all its content", z.object({ project_id: projectId }), analyticsQuery, z.array(analyticsRecord), records);
  get('/projects/{project_id}/content/analytics', 'listContentAnalytics', 'Top content: each item with figures in the range', z.object({ project_id: projectId }), analyticsListQuery, z.array(contentAnalyticsRow), `${rows} by listens`);
  get('/projects/{project_id}/ads/analytics', 'listAdsAnalytics', 'Each ad with impressions in the range', z.object({ project_id: projectId }), analyticsListQuery, z.array(adAnalyticsRow), `${rows} by impressions`);
  get('/projects/{project_id}/ads/{id}/analytics', 'getAdAnalytics', "An ad's impressions, clicks and click-through rate", z.object({ project_id: projectId, id: numericId }), analyticsQuery, z.array(adAnalyticsRecord), records);
}
