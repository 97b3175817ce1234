// The video preview operations in the OpenAPI document: a short sample rendered with a template's or the body's settings.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { previewWire, projectPreviewBody, templatePreviewBody } from '../video/preview.ts';
import { API_KEY_SCHEME, json, jsonBody, numericId, writeErrors } from './registry.ts';

const common = { tags: ['Video'], security: [{ [API_KEY_SCHEME]: [] }] };
const answer = json(previewWire, 'The sample video (≤ 5 s) and a PNG frame of it, served under /media/ for an hour');

export function registerVideoPreviews(registry: OpenAPIRegistry) {
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/video_settings_templates/{id}/preview',
    operationId: 'previewVideoSettingsTemplate',
    summary: "Render a short sample with a template's settings over the defaults, and any fields of the body over them (any key of the organization)",
    request: { params: z.object({ id: numericId }), body: jsonBody(templatePreviewBody) },
    responses: { 200: answer, ...writeErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/projects/{project_id}/video_settings/preview',
    operationId: 'previewProjectVideoSettings',
    summary: "Render a short sample with the project's video settings, its template's, then the body's fields, spoken by the project's voice",
    request: { params: z.object({ project_id: numericId }), body: jsonBody(projectPreviewBody) },
    responses: { 200: answer, ...writeErrors() },
  });
}
