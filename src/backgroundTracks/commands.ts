// What clients may send to create or update a background track, as zod schemas of the wire format. A multipart upload
// (src/backgroundTracks/upload.ts) is turned into the same body, with the `url` the upload is served at.
import { z } from 'zod';

const fields = {
  name: z.string().trim().min(1).max(200),
  url: z.url({ protocol: /^https?$/ }).max(2048).describe('Where the audio is fetched from; it is downloaded and probed on create and when it changes'),
  volume: z.number().int().min(0).max(100).describe("Level of the track between sentences, in percent (of amplitude) of the narration's loudness; ducked under speech"),
};

export const backgroundTrackSchemas = {
  create: z.object({
    ...fields,
    volume: fields.volume.default(100),
    project: z
      .object({ id: z.number().int().min(1) })
      .nullable()
      .optional()
      .describe("The project the track belongs to; null or left out: the organization's, for every project (project keys: their own project)"),
  }),
  update: z.object(fields).partial(),
};
