// The project and settings operations of the OpenAPI document.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { createProjectSchema, updateProjectSchema } from '../projects/commands.ts';
import { projectWire, settingsWire } from '../projects/wire.ts';
import { embedSettingsSchema } from '../player/embedSettings.ts';
import { extractionSettingsSchema } from '../extraction/settings.ts';
import { playerSettingsSchema } from '../player/settings.ts';
import { videoSettingsSchema } from '../player/videoSettings.ts';
import { podcastSettingsSchema } from '../podcasts/commands.ts';
import { podcastSettingsWire } from '../podcasts/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, linksTo, noContent, projectId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const projectParams = z.object({ id: projectId });
const collectionParams = z.object({ project_id: projectId });

const projectLinks = linksTo(
  { GetProject: 'getProject', UpdateProject: 'updateProject', DeleteProject: 'deleteProject' },
  { id: '$response.body#/id' },
);

function registerProjects(registry: OpenAPIRegistry) {
  const tags = ['Projects'];
  registry.registerPath({
    method: 'get',
    path: '/projects',
    operationId: 'listProjects',
    summary: "List the organization's projects (a project key sees its own)",
    tags,
    security,
    request: { query: pageQuery },
    responses: { 200: json(z.array(projectWire), 'A page of projects'), ...readErrors() },
  });
  registry.registerPath({
    method: 'post',
    path: '/projects',
    operationId: 'createProject',
    summary: 'Create a project (organization keys only)',
    tags,
    security,
    request: { headers: idempotencyHeaders, body: jsonBody(createProjectSchema) },
    responses: { 201: { ...json(projectWire, 'The project'), links: projectLinks }, ...writeErrors(403) },
  });
  registry.registerPath({
    method: 'get',
    path: '/projects/{id}',
    operationId: 'getProject',
    summary: 'Get a project',
    tags,
    security,
    request: { params: projectParams },
    responses: { 200: json(projectWire, 'The project'), ...readErrors() },
  });
  registry.registerPath({
    method: 'put',
    path: '/projects/{id}',
    operationId: 'updateProject',
    summary: 'Update a project',
    tags,
    security,
    request: { params: projectParams, body: jsonBody(updateProjectSchema) },
    responses: { 200: json(projectWire, 'The project'), ...writeErrors() },
  });
  registry.registerPath({
    method: 'delete',
    path: '/projects/{id}',
    operationId: 'deleteProject',
    summary: 'Delete a project (organization keys only)',
    tags,
    security,
    request: { params: projectParams },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
}

/** The settings resources of a project: GET answers every field, PUT changes the fields sent. */
const settingsResources = [
  { path: 'player_settings', name: 'PlayerSettings', title: 'player settings', request: playerSettingsSchema, answer: settingsWire.player, tag: 'Player' },
  { path: 'video_settings', name: 'VideoSettings', title: 'video settings', request: videoSettingsSchema, answer: settingsWire.video, tag: 'Player' },
  { path: 'embed_settings', name: 'EmbedSettings', title: 'embed settings', request: embedSettingsSchema, answer: settingsWire.embed, tag: 'Player' },
  { path: 'content_extraction_settings', name: 'ContentExtractionSettings', title: 'content extraction settings', request: extractionSettingsSchema, answer: settingsWire.extraction, tag: 'Extraction' },
  { path: 'podcast_settings', name: 'PodcastSettings', title: 'podcast settings', request: podcastSettingsSchema, answer: podcastSettingsWire, tag: 'Podcasts' },
];

function registerSettings(registry: OpenAPIRegistry) {
  for (const resource of settingsResources) {
    const common = { path: `/projects/{project_id}/${resource.path}`, tags: [resource.tag], security, request: { params: collectionParams } };
    registry.registerPath({
      ...common,
      method: 'get',
      operationId: `get${resource.name}`,
      summary: `Get the project's ${resource.title}`,
      responses: { 200: json(resource.answer, `Every field, defaults filled in`), ...readErrors() },
    });
    registry.registerPath({
      ...common,
      method: 'put',
      operationId: `update${resource.name}`,
      summary: `Change the project's ${resource.title}: fields sent replace the current ones`,
      request: { ...common.request, body: jsonBody(resource.request) },
      responses: { 200: json(resource.answer, 'Every field, after the change'), ...writeErrors() },
    });
  }
}

export function registerProjectOperations(registry: OpenAPIRegistry) {
  registerProjects(registry);
  registerSettings(registry);
}
