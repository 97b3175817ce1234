// The content operations of the OpenAPI document: request schemas from src/content/commands.ts, answers from its wire.ts.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { batchDeleteSchema, createContentSchemas, updateContentSchemas, uploadContentSchema } from '../content/commands.ts';
import { jsonFormFields } from '../content/upload.ts';
import { contentItemWire, detailQuery, listQuerySchema } from '../content/wire.ts';
import { actionErrors, API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, linksTo, noContent, projectId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const tags = ['Content'];
const itemPath = '/projects/{project_id}/content/{id}';
const collectionParams = z.object({ project_id: projectId });
const itemParams = z.object({
  project_id: projectId,
  id: z.string().min(1).max(255).describe('The item UUID, its `source_id` or its legacy numeric id'),
});

/** The body shape is chosen by `type` (default `auto_segment`). */
const createBody = z.union([
  createContentSchemas.auto_segment.extend({ type: z.literal('auto_segment').optional() }),
  createContentSchemas.manual_segment.extend({ type: z.literal('manual_segment') }),
  createContentSchemas.audio_upload.extend({ type: z.literal('audio_upload') }),
]);
/** Fields of the item's own type; `type` may be sent but not changed. */
const updateBody = z.union([
  updateContentSchemas.auto_segment.extend({ type: z.literal('auto_segment').optional() }),
  updateContentSchemas.manual_segment.extend({ type: z.literal('manual_segment').optional() }),
  updateContentSchemas.audio_upload.extend({ type: z.literal('audio_upload').optional() }),
]);

/** The upload form (src/content/upload.ts): the recording, and an `audio_upload` item's create fields but `audio_url`. */
const uploadForm = uploadContentSchema.extend({
  type: z.literal('audio_upload').optional(),
  file: z.string().meta({
    format: 'binary',
    description:
      'The recording, at most AUDIO_FETCH_MAX_BYTES (413 above): mp3, wav, flac, ogg, aac or m4a by its bytes (its name is not used), at most AUDIO_MAX_DURATION_S long; decoded now (422 at `file` when it is not allowed audio or cannot be decoded)',
  }),
});
const uploadBody = {
  required: true,
  description: 'Text fields as text; flags, numbers, lists and objects as JSON (`published=true`, `tags=["a","b"]`)',
  content: { 'multipart/form-data': { schema: uploadForm, encoding: Object.fromEntries(jsonFormFields.map((name) => [name, { contentType: 'application/json' }])) } },
};

const itemLinks = linksTo(
  { GetContent: 'getContent', UpdateContent: 'updateContent', RegenerateContent: 'regenerateContent', DeleteContent: 'deleteContent' },
  { project_id: '$request.path.project_id', id: '$response.body#/id' },
);

export function registerContent(registry: OpenAPIRegistry) {
  registry.registerPath({
    method: 'post',
    path: '/projects/{project_id}/content',
    operationId: 'createContent',
    summary: 'Create a content item; its generation is queued',
    tags,
    security,
    request: { params: collectionParams, query: detailQuery, headers: idempotencyHeaders, body: jsonBody(createBody) },
    responses: { 201: { ...json(contentItemWire, 'The item, `queued`'), links: itemLinks }, ...writeErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: '/projects/{project_id}/content/upload',
    operationId: 'uploadContent',
    summary: 'Create an `audio_upload` item from an uploaded recording, kept and served at its `audio_url`; its generation is queued',
    tags,
    security,
    request: { params: collectionParams, query: detailQuery, headers: idempotencyHeaders, body: uploadBody },
    responses: { 201: { ...json(contentItemWire, 'The item, `queued`'), links: itemLinks }, ...writeErrors() },
  });
  registry.registerPath({
    method: 'get',
    path: '/projects/{project_id}/content',
    operationId: 'listContent',
    summary: 'List content items',
    tags,
    security,
    request: { params: collectionParams, query: listQuerySchema },
    responses: { 200: json(z.array(contentItemWire), 'A page of items'), ...readErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: '/projects/{project_id}/content/batch_delete',
    operationId: 'batchDeleteContent',
    summary: 'Delete several items; ids that match nothing are skipped',
    tags,
    security,
    request: { params: collectionParams, headers: idempotencyHeaders, body: jsonBody(batchDeleteSchema) },
    responses: { 204: noContent('Deleted'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'get',
    path: itemPath,
    operationId: 'getContent',
    summary: 'Get a content item',
    tags,
    security,
    request: { params: itemParams, query: detailQuery },
    responses: { 200: json(contentItemWire, 'The item'), ...readErrors() },
  });
  registry.registerPath({
    method: 'put',
    path: itemPath,
    operationId: 'updateContent',
    summary: 'Update a content item; changed text queues a new generation',
    tags,
    security,
    request: { params: itemParams, query: detailQuery, body: jsonBody(updateBody) },
    responses: { 200: json(contentItemWire, 'The item'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: `${itemPath}/regenerate`,
    operationId: 'regenerateContent',
    summary: "Queue a new generation of the item's media from its current text",
    tags,
    security,
    request: { params: itemParams, query: detailQuery, headers: idempotencyHeaders },
    responses: { 200: json(contentItemWire, 'The item, `queued`'), ...actionErrors() },
  });
  registry.registerPath({
    method: 'delete',
    path: itemPath,
    operationId: 'deleteContent',
    summary: 'Delete a content item',
    tags,
    security,
    request: { params: itemParams },
    responses: { 204: noContent('Deleted'), ...actionErrors() },
  });
}
