// The voice, voice design and language operations of the OpenAPI document.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { customVoiceSchemas, designPreviewsSchema, finalizeDesignSchema, voiceQuery } from '../voices/commands.ts';
import { languageWire, voiceWire } from '../voices/wire.ts';
import { actionErrors, API_KEY_SCHEME, errors, idempotencyHeaders, json, jsonBody, linksTo, noContent, numericId, projectId, readErrors, writeErrors } from './registry.ts';

const security = [{ [API_KEY_SCHEME]: [] }];
const tags = ['Voices'];
const common = { tags, security };
const memberParams = z.object({ id: numericId });
const voiceLinks = linksTo({ GetVoice: 'getVoice', UpdateVoice: 'updateVoice', DeleteVoice: 'deleteVoice' }, { id: '$response.body#/id' });

/** What cloning clients send: recordings and a name. Read and dropped, since no installed engine clones. */
const cloneForm = z.object({
  files: z.array(z.string().meta({ format: 'binary' })).meta({ description: 'Recordings of the voice: read and dropped, then refused at `files` (422)' }),
  name: z.string().optional(),
});

const previewsWire = z
  .object({
    text: z.string().describe('What the previews say'),
    previews: z.array(
      z.object({
        generated_voice_id: z.string().describe('Keeps this preview\'s voice with finalize_design'),
        audio_base_64: z.string().describe('The preview as mp3, base64'),
        duration_secs: z.number(),
        language: z.string().describe('Language code of the voice: `en_US`'),
      }),
    ),
  })
  .meta({ id: 'VoiceDesignPreviews' });

export function registerVoices(registry: OpenAPIRegistry) {
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/organization/voices',
    operationId: 'listVoices',
    summary: "List the stock voices and the organization's own (any valid key)",
    request: { query: voiceQuery },
    responses: { 200: json(z.array(voiceWire), 'The voices: stock first, then the organization\'s by id'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/organization/voices',
    operationId: 'createVoice',
    summary: 'Create a custom voice from a stock voice, with its own speed (and espeak-ng variant)',
    request: { headers: idempotencyHeaders, body: jsonBody(customVoiceSchemas.create) },
    responses: { 201: { ...json(voiceWire, 'Created'), links: voiceLinks }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/organization/voices/design_previews',
    operationId: 'designVoicePreviews',
    summary: 'Speak up to three previews of voices that fit a description (no voice is kept until finalize_design)',
    request: { headers: idempotencyHeaders, body: jsonBody(designPreviewsSchema) },
    responses: { 200: json(previewsWire, 'The previews, closest first'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/organization/voices/finalize_design',
    operationId: 'finalizeVoiceDesign',
    summary: 'Keep a preview\'s voice as a designed voice of the organization',
    request: { headers: idempotencyHeaders, body: jsonBody(finalizeDesignSchema) },
    responses: { 201: { ...json(voiceWire, 'Created'), links: voiceLinks }, ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'post',
    path: '/organization/voices/clone',
    operationId: 'cloneVoice',
    summary: 'Clone a voice from recordings: not available with the installed engines, always answers 422 at `files` (multipart/form-data or JSON bodies alike)',
    request: { headers: idempotencyHeaders, body: { required: false, content: { 'multipart/form-data': { schema: cloneForm }, 'application/json': { schema: cloneForm.partial() } } } },
    responses: errors(400, 401, 403, 404, 413, 415, 422, 429),
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/organization/voices/{id}',
    operationId: 'getVoice',
    summary: 'Get a stock voice or one of the organization\'s (any valid key)',
    request: { params: memberParams },
    responses: { 200: json(voiceWire, 'Found'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'put',
    path: '/organization/voices/{id}',
    operationId: 'updateVoice',
    summary: 'Change a custom or designed voice: fields sent replace the current ones (stock voices answer 409)',
    request: { params: memberParams, body: jsonBody(customVoiceSchemas.update) },
    responses: { 200: json(voiceWire, 'After the change'), ...writeErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'delete',
    path: '/organization/voices/{id}',
    operationId: 'deleteVoice',
    summary: 'Delete a custom or designed voice (stock voices answer 409); items naming it speak with their defaults',
    request: { params: memberParams },
    responses: { 204: noContent('Deleted'), ...actionErrors(403) },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/organization/languages',
    operationId: 'listLanguages',
    summary: 'List the languages that have voices, with their accent and default voices (any valid key)',
    responses: { 200: json(z.array(languageWire), 'The languages'), ...readErrors() },
  });
  registry.registerPath({
    ...common,
    method: 'get',
    path: '/projects/{project_id}/voices',
    operationId: 'listProjectVoices',
    summary: "List the voices that read the project's language: its region's (`primary`) first, then the language's other regions (`secondary`)",
    request: { params: z.object({ project_id: projectId }) },
    responses: { 200: json(z.array(voiceWire), 'The voices'), ...readErrors() },
  });
}
