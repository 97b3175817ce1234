// The organization's background tracks in the OpenAPI document: JSON bodies naming the audio by URL, or uploads of it.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { backgroundTrackSchemas } from '../backgroundTracks/commands.ts';
import { backgroundTrackWire } from '../backgroundTracks/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { registerOrganizationResource } from './organizationResources.ts';

/** A create by upload (src/backgroundTracks/upload.ts): form fields are text, checked like the JSON body's. */
const uploadForm = z.object({
  file: z.string().meta({ format: 'binary', description: 'The audio, at most AUDIO_FETCH_MAX_BYTES (413 above): mp3, wav, flac, ogg, aac or m4a by its bytes (its name is not used), at most AUDIO_MAX_DURATION_S long; decoded and measured now (422 at `file` when it is not allowed or cannot be decoded)' }),
  name: z.string().min(1).max(200),
  volume: z.string().optional().meta({ description: 'An integer from 0 to 100; 100 when left out' }),
  project_id: z.string().optional().meta({ description: "The project the track belongs to; `null` or left out: the organization's (project keys: their own project)" }),
});

export function registerBackgroundTracks(registry: OpenAPIRegistry) {
  registerOrganizationResource(registry, {
    path: '/background_tracks',
    name: 'BackgroundTrack',
    tags: ['Audio'],
    summaries: {
      list: "List background tracks: organization keys see all, project keys their project's and the organization's",
      create:
        'Create a background track from the audio at `url`, fetched and measured now (422 at `url` when it cannot be fetched, is not allowed audio or longer than AUDIO_MAX_DURATION_S, or cannot be decoded), or from an uploaded `file` (multipart/form-data), kept and served at the `url` it is given',
      get: 'Get a background track',
      update: "Change a background track (project keys: their project's only); a new `url` is fetched and measured again",
      remove: "Delete a background track (project keys: their project's only); items naming it keep the reference",
    },
    create: { required: true, content: { 'application/json': { schema: backgroundTrackSchemas.create }, 'multipart/form-data': { schema: uploadForm } } },
    update: backgroundTrackSchemas.update,
    answer: backgroundTrackWire,
    list: { query: pageQuery },
    projectKeysRead: true,
  });
}
