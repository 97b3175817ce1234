// What clients may send to create or update a playlist, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { httpUrl } from '../shared/wireSchemas.ts';

export const playlistTypes = ['manual', 'auto'] as const;
export const DEFAULT_CONTENT_LIMIT = 10;
export const MAX_CONTENT_LIMIT = 100;

const contentRef = z.union([z.string().trim().min(1).max(255), z.number().int().positive().transform(String)]);
const names = z.array(z.string().trim().min(1).max(100)).max(50);

const fields = {
  title: z.string().trim().min(1).max(200),
  type: z.enum(playlistTypes),
  /** Manual playlists: item UUIDs, source ids or legacy ids, in playing order; resolved to UUIDs at write time. */
  content_ids: z.array(contentRef).max(MAX_CONTENT_LIMIT),
  /** Auto playlists: items carrying any of these tags. */
  tags: names,
  source_url_prefix: httpUrl.nullable(),
  authors: names,
  image_url: httpUrl.nullable(),
  content_limit: z.number().int().min(1).max(MAX_CONTENT_LIMIT),
};

export const playlistSchemas = {
  create: z.object({
    ...fields,
    type: fields.type.default('manual'),
    content_ids: fields.content_ids.default([]),
    tags: fields.tags.default([]),
    source_url_prefix: fields.source_url_prefix.default(null),
    authors: fields.authors.default([]),
    image_url: fields.image_url.default(null),
    content_limit: fields.content_limit.default(DEFAULT_CONTENT_LIMIT),
  }),
  update: z.object(fields).partial(),
};

export type PlaylistWireFields = z.infer<typeof playlistSchemas.create>;
