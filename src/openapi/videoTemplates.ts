// The organization's video settings templates in the OpenAPI document: any key reads, organization keys write.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { videoTemplateSchemas } from '../videoTemplates/commands.ts';
import { videoTemplateSummaryWire, videoTemplateWire } from '../videoTemplates/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, readErrors, writeErrors } from './registry.ts';

const common = { tags: ['Video'], security: [{ [API_KEY_SCHEME]: [] }] };
const collection = '/video_settings_templates';
const member = `${collection}/{id}`;
const params = z.object({ id: numericId });

export function registerVideoTemplates(registry: OpenAPIRegistry) {
  const links = linksTo(
    { GetVideoSettingsTemplate: 'getVideoSettingsTemplate', UpdateVideoSettingsTemplate: 'updateVideoSettingsTemplate', DeleteVideoSettingsTemplate: 'deleteVideoSettingsTemplate' },
    { id: '$response.body#/id' },
  );
  registry.registerPath({
    ...common,
    method: 'get',
    path: collection,
    operationId: 'listVideoSettingsTemplates',
    summary: "List the organization's video settings templates (any key of the organization)",
    request: { query: pageQuery },
    responses: { 200: json(z.array(videoTemplateSummaryWire), 'A page, oldest first: what a client picks a template by'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: collection,
    operationId: 'createVideoSettingsTemplate',
    summary: 'Create a video settings template (organization keys)',
    request: { headers: idempotencyHeaders, body: jsonBody(videoTemplateSchemas.create) },
    responses: { 201: { ...json(videoTemplateWire, 'Created'), links }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: member,
    operationId: 'getVideoSettingsTemplate',
    summary: 'Get a video settings template (any key of the organization)',
    request: { params },
    responses: { 200: json(videoTemplateWire, 'Found'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: member,
    operationId: 'updateVideoSettingsTemplate',
    summary: 'Change a video settings template (organization keys): fields sent replace the current ones, `settings` as a whole',
    request: { params, body: jsonBody(videoTemplateSchemas.update) },
    responses: { 200: json(videoTemplateWire, 'After the change'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'delete',
    path: member,
    operationId: 'deleteVideoSettingsTemplate',
    summary: 'Delete a video settings template (organization keys); projects naming it keep the reference',
    request: { params },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
}
