// What clients may send to create or update a speaker, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { httpUrl, positiveId } from '../shared/wireSchemas.ts';

const fields = {
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().max(100),
  avatar_url: httpUrl.nullable(),
  /** Catalogue voices the speaker speaks with (`GET /organization/voices`). */
  voices: z.array(z.object({ id: positiveId })).max(50).describe('Voices of the catalogue (`GET /organization/voices`) this speaker speaks with'),
};

export const speakerSchemas = {
  create: z.object({ ...fields, last_name: fields.last_name.default(''), avatar_url: fields.avatar_url.default(null), voices: fields.voices.default([]) }),
  update: z.object(fields).partial(),
};

export type SpeakerWireFields = z.infer<typeof speakerSchemas.create>;

/** How much of each custom voice an answer carries (`?detail=`): `full` by default. */
export const speakerQuery = z.object({ detail: z.enum(['none', 'partial', 'full']).default('full') });
export type SpeakerDetail = z.infer<typeof speakerQuery>['detail'];
