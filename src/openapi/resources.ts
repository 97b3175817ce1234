// The project-owned resources of the OpenAPI document: webhooks, ads, access tiers, playlists, content filters and feed
// imports.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { createAccessTierSchema, updateAccessTierSchema } from '../accessTiers/commands.ts';
import { accessTierWire } from '../accessTiers/wire.ts';
import { createAdSchema, updateAdSchema } from '../ads/commands.ts';
import { adWire } from '../ads/wire.ts';
import { createContentFilterSchema, updateContentFilterSchema } from '../contentFilters/commands.ts';
import { contentFilterWire } from '../contentFilters/wire.ts';
import { playlistSchemas } from '../playlists/commands.ts';
import { playlistWire } from '../playlists/wire.ts';
import { webhookSchemas } from '../webhooks/commands.ts';
import { createFeedImportSchema, updateFeedImportSchema } from '../feedImports/commands.ts';
import { feedImportWire, feedTestWire, runCountsWire } from '../feedImports/wire.ts';
import { createdWebhookWire, deliveryWire, pageQuery, webhookTestWire, webhookWire } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, projectId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const collectionParams = z.object({ project_id: projectId });
const memberParams = z.object({ project_id: projectId, id: numericId });

interface Resource {
  /** Path segment under `/projects/{project_id}/`. */
  path: string;
  /** Singular name in operation ids: `Webhook` → `createWebhook`. */
  name: string;
  title: string;
  create: z.ZodType;
  update: z.ZodType;
  answer: z.ZodType;
  created?: z.ZodType;
  deletable: boolean;
  /** More operations on a created one, by link name. */
  moreLinks?: Record<string, string>;
}

function registerResource(registry: OpenAPIRegistry, resource: Resource) {
  const tags = [resource.title];
  const collection = `/projects/{project_id}/${resource.path}`;
  const member = `${collection}/{id}`;
  const operations = { [`Get${resource.name}`]: `get${resource.name}`, [`Update${resource.name}`]: `update${resource.name}` };
  if (resource.deletable) operations[`Delete${resource.name}`] = `delete${resource.name}`;
  Object.assign(operations, resource.moreLinks);
  const links = linksTo(operations, { project_id: '$request.path.project_id', id: '$response.body#/id' });
  const common = { tags, security };
  registry.registerPath({
    ...common,
    method: 'get',
    path: collection,
    operationId: `list${resource.name}s`,
    summary: `List the project's ${resource.title.toLowerCase()}`,
    request: { params: collectionParams, query: pageQuery },
    responses: { 200: json(z.array(resource.answer), 'A page, oldest first'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: collection,
    operationId: `create${resource.name}`,
    summary: `Create one of the project's ${resource.title.toLowerCase()}`,
    request: { params: collectionParams, headers: idempotencyHeaders, body: jsonBody(resource.create) },
    responses: { 201: { ...json(resource.created ?? resource.answer, 'Created'), links }, ...writeErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: member,
    operationId: `get${resource.name}`,
    summary: `Get one of the project's ${resource.title.toLowerCase()}`,
    request: { params: memberParams },
    responses: { 200: json(resource.answer, 'Found'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: member,
    operationId: `update${resource.name}`,
    summary: `Change one of the project's ${resource.title.toLowerCase()}: fields sent replace the current ones`,
    request: { params: memberParams, body: jsonBody(resource.update) },
    responses: { 200: json(resource.answer, 'After the change'), ...writeErrors() },
  });
  if (resource.deletable) {
    registry.registerPath({
      ...common,
      method: 'delete',
      path: member,
      operationId: `delete${resource.name}`,
      summary: `Delete one of the project's ${resource.title.toLowerCase()}`,
      request: { params: memberParams },
      responses: { 204: noContent('Deleted'), ...actionErrors() },
    });
  }
}

/** A test notification and the deliveries of a webhook. */
function registerWebhookExtras(registry: OpenAPIRegistry) {
  const common = { tags: ['Webhooks'], security };
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/projects/{project_id}/webhooks/{id}/test',
    operationId: 'testWebhook',
    summary: 'Send a test notification now and answer how the receiver took it',
    request: { params: memberParams, headers: idempotencyHeaders },
    responses: { 200: json(webhookTestWire, 'The outcome of the one attempt'), ...actionErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "List the webhook's deliveries, newest first",
    request: { params: memberParams, query: pageQuery },
    responses: { 200: json(z.array(deliveryWire), 'A page of deliveries'), ...readErrors() },
  });
}

/** Running a feed import now, and trying an unsaved one. */
function registerFeedImportExtras(registry: OpenAPIRegistry) {
  const common = { tags: ['Feed imports'], security };
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/projects/{project_id}/rss_feed_imports/{id}/run',
    operationId: 'runFeedImport',
    summary: 'Run the import now: answers what it did, which is also its last_run; 409 while another run of it is under way',
    request: { params: memberParams, headers: idempotencyHeaders },
    responses: { 200: json(runCountsWire, 'What the run did'), ...actionErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/projects/{project_id}/rss_feed_imports/test',
    operationId: 'testFeedImport',
    summary: 'Read the feed of an unsaved import and answer the entries it would import, creating nothing; a feed that cannot be read is a 422 at url',
    request: { params: collectionParams, headers: idempotencyHeaders, body: jsonBody(createFeedImportSchema) },
    responses: { 200: json(feedTestWire, 'The entries found'), ...writeErrors() },
  });
}

export function registerProjectResources(registry: OpenAPIRegistry) {
  // The document describes the production rule: private and loopback webhook URLs are refused.
  const webhooks = webhookSchemas(false);
  const resources: Resource[] = [
    { path: 'webhooks', name: 'Webhook', title: 'Webhooks', create: webhooks.create, update: webhooks.update, answer: webhookWire, created: createdWebhookWire, deletable: true,
      moreLinks: { TestWebhook: 'testWebhook', ListWebhookDeliveries: 'listWebhookDeliveries' } },
    { path: 'ads', name: 'Ad', title: 'Ads', create: createAdSchema, update: updateAdSchema, answer: adWire, deletable: true },
    { path: 'access_tiers', name: 'AccessTier', title: 'Access tiers', create: createAccessTierSchema, update: updateAccessTierSchema, answer: accessTierWire, deletable: false },
    { path: 'playlists', name: 'Playlist', title: 'Playlists', create: playlistSchemas.create, update: playlistSchemas.update, answer: playlistWire, deletable: true },
    { path: 'content_filters', name: 'ContentFilter', title: 'Content filters', create: createContentFilterSchema, update: updateContentFilterSchema, answer: contentFilterWire, deletable: true },
    { path: 'rss_feed_imports', name: 'FeedImport', title: 'Feed imports', create: createFeedImportSchema, update: updateFeedImportSchema, answer: feedImportWire, deletable: true,
      moreLinks: { RunFeedImport: 'runFeedImport' } },
  ];
  for (const resource of resources) registerResource(registry, resource);
  registerWebhookExtras(registry);
  registerFeedImportExtras(registry);
}
