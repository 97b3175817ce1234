// The organization's background tracks in the OpenAPI document: JSON bodies naming the audio by URL, or uploads of it.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { backgroundTrackSchemas } from '../backgroundTracks/commands.ts';
import { backgroundTrackWire } from '../backgroundTracks/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { actionErrors, API_KEY_SCHEME, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, readErrors, writeErrors } from './registry.ts';

const common = { tags: ['Audio'], security: [{ [API_KEY_SCHEME]: [] }] };
const collection = '/background_tracks';
const member = `${collection}/{id}`;
const params = z.object({ id: numericId });
/** A create by upload (src/backgroundTracks/upload.ts): form fields are text, checked like the JSON body's. */
const uploadForm = z.object({
  file: z.string().meta({ format: 'binary', description: 'The audio, at most AUDIO_FETCH_MAX_BYTES (413 above); decoded and measured now (422 at `file` when it cannot be)' }),
  name: z.string().min(1).max(200),
  volume: z.string().optional().meta({ description: 'An integer from 0 to 100; 100 when left out' }),
  project_id: z.string().optional().meta({ description: "The project the track belongs to; `null` or left out: the organization's (project keys: their own project)" }),
});

export function registerBackgroundTracks(registry: OpenAPIRegistry) {
  const links = linksTo(
    { GetBackgroundTrack: 'getBackgroundTrack', UpdateBackgroundTrack: 'updateBackgroundTrack', DeleteBackgroundTrack: 'deleteBackgroundTrack' },
    { id: '$response.body#/id' },
  );
  registry.registerPath({
    ...common,
    method: 'get',
    path: collection,
    operationId: 'listBackgroundTracks',
    summary: "List background tracks: organization keys see all, project keys their project's and the organization's",
    request: { query: pageQuery },
    responses: { 200: json(z.array(backgroundTrackWire), 'A page, oldest first'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: collection,
    operationId: 'createBackgroundTrack',
    summary:
      'Create a background track from the audio at `url`, fetched and measured now (422 at `url` when it cannot be fetched or decoded), or from an uploaded `file` (multipart/form-data), kept and served at the `url` it is given',
    request: {
      headers: idempotencyHeaders,
      body: { required: true, content: { 'application/json': { schema: backgroundTrackSchemas.create }, 'multipart/form-data': { schema: uploadForm } } },
    },
    responses: { 201: { ...json(backgroundTrackWire, 'Created'), links }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: member,
    operationId: 'getBackgroundTrack',
    summary: 'Get a background track',
    request: { params },
    responses: { 200: json(backgroundTrackWire, 'Found'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: member,
    operationId: 'updateBackgroundTrack',
    summary: "Change a background track (project keys: their project's only); a new `url` is fetched and measured again",
    request: { params, body: jsonBody(backgroundTrackSchemas.update) },
    responses: { 200: json(backgroundTrackWire, 'After the change'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'delete',
    path: member,
    operationId: 'deleteBackgroundTrack',
    summary: "Delete a background track (project keys: their project's only); items naming it keep the reference",
    request: { params },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
}
