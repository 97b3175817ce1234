// What clients may send to create or update a background track, as zod schemas of the wire format (JSON only:
// multipart uploads are not accepted yet, so the audio is named by a URL the service fetches).
import { z } from 'zod';

const fields = {
  name: z.string().trim().min(1).max(200),
  url: z.url({ protocol: /^https?$/ }).max(2048).describe('Where the audio is fetched from; it is downloaded and probed on create and when it changes'),
  volume: z.number().int().min(0).max(100).describe('Level of the track under speech, in percent of its own level'),
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
