// AI script summaries in the OpenAPI document: script templates (any key reads, organization keys write), a
// project's summarization settings, and summarizing an item.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { summarizationSettingsSchema, summarizeSchema, summaryTemplateSchemas } from '../summaries/commands.ts';
import { summarizationSettingsWire, summarySegmentsWire, summaryTemplateSummaryWire, summaryTemplateWire } from '../summaries/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { registerOrganizationResource } from './organizationResources.ts';
import { API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, projectId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const tags = ['Summaries'];

export function registerSummaries(registry: OpenAPIRegistry) {
  registerOrganizationResource(registry, {
    path: '/summarization_settings_templates',
    name: 'ScriptTemplate',
    tags,
    summaries: {
      list: "List the organization's script templates (any key of the organization)",
      create: 'Create a script template (organization keys)',
      get: 'Get a script template (any key of the organization)',
      update: 'Change a script template (organization keys): fields sent replace the current ones',
      remove: 'Delete a script template (organization keys); settings naming it fall back to their own fields',
    },
    create: jsonBody(summaryTemplateSchemas.create),
    update: summaryTemplateSchemas.update,
    answer: summaryTemplateWire,
    list: { query: pageQuery, answer: summaryTemplateSummaryWire, description: 'A bare array, oldest first: what a client picks a template by' },
    projectKeysRead: true,
  });

  const settingsPath = { path: '/projects/{project_id}/summarization_settings', tags, security, request: { params: z.object({ project_id: projectId }) } };
  registry.registerPath({
    ...settingsPath,
    method: 'get',
    operationId: 'getSummarizationSettings',
    summary: "Get the project's summarization (script) settings",
    responses: { 200: json(summarizationSettingsWire, 'Every field, defaults filled in'), ...readErrors() },
  });
  registry.registerPath({
    ...settingsPath,
    method: 'put',
    operationId: 'updateSummarizationSettings',
    summary: "Change the project's summarization settings: fields sent replace the current ones",
    request: { ...settingsPath.request, body: jsonBody(summarizationSettingsSchema) },
    responses: { 200: json(summarizationSettingsWire, 'Every field, after the change'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: '/projects/{project_id}/content/{id}/summarize',
    operationId: 'summarizeContent',
    summary: "Write the item's AI script summary; it becomes the item's summary and is narrated by the generation it queues",
    tags,
    security,
    request: {
      params: z.object({ project_id: projectId, id: z.string().min(1).max(255).describe('The item UUID, its `source_id` or its legacy numeric id') }),
      headers: idempotencyHeaders,
      body: { required: false, content: { 'application/json': { schema: summarizeSchema } } },
    },
    responses: { 200: json(summarySegmentsWire, 'The summary segments, `section: "summary"`'), ...writeErrors(502, 504) },
  });
}
