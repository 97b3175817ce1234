// The CMS integration operations of the OpenAPI document: settings, their test, and the posts webhook.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { cmsSettingsSchema } from '../cmsIntegration/settings.ts';
import { cmsSettingsWire, cmsTestWire, touchedWire } from '../cmsIntegration/wire.ts';
import { API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, projectId, readErrors, writeErrors } from './registry.ts';

const QUERY_KEY_SCHEME = 'ApiKeyQuery';
const tags = ['Integrations'];
const security = [{ [API_KEY_SCHEME]: [] }];
const params = z.object({ project_id: projectId });
const path = '/projects/{project_id}/integrations/cms';

const delivery = z
  .record(z.string(), z.unknown())
  .describe(
    "The platform's own post payload: Ghost's `{post: {current, previous}}`, or WordPress's REST post object " +
      "(`{id, status, link, date_gmt, title: {rendered}, content: {rendered}}`), WP Webhooks' `{post: {ID, post_status, ...}, post_permalink}`, " +
      'or the REST API\'s `{deleted: true, previous}`',
  );

export function registerCmsIntegration(registry: OpenAPIRegistry) {
  registry.registerComponent('securitySchemes', QUERY_KEY_SCHEME, {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: "The project's API key, in the URL the publishing platform calls (only the posts webhook).",
  });
  registry.registerPath({
    method: 'get',
    path,
    operationId: 'getCmsIntegration',
    summary: "Get the project's publishing-platform integration",
    tags,
    security,
    request: { params },
    responses: { 200: json(cmsSettingsWire, 'Every field, defaults filled in'), ...readErrors() },
  });
  registry.registerPath({
    method: 'put',
    path,
    operationId: 'updateCmsIntegration',
    summary: "Change the project's publishing-platform integration: fields sent replace the current ones",
    tags,
    security,
    request: { params, body: jsonBody(cmsSettingsSchema) },
    responses: { 200: json(cmsSettingsWire, 'Every field, after the change'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: `${path}/test`,
    operationId: 'testCmsIntegration',
    summary: 'Check the integration, and read a sample delivery (the body, optional) as the posts webhook would, changing nothing',
    tags,
    security,
    request: { params, headers: idempotencyHeaders, body: { required: false, content: { 'application/json': { schema: delivery } } } },
    responses: { 200: json(cmsTestWire, 'What stops deliveries, and what the sample would do'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: `${path}/posts`,
    operationId: 'receiveCmsPost',
    summary: 'The posts webhook: creates, updates, unpublishes or deletes the item of a published, scheduled, edited, unpublished or deleted post',
    tags,
    security: [{ [QUERY_KEY_SCHEME]: [] }],
    request: { params, headers: idempotencyHeaders, body: jsonBody(delivery) },
    responses: { 200: json(touchedWire, 'The item the post concerns, as it is now'), ...writeErrors(403) },
  });
}
