// What clients may send to create or update a project (wire format).
import { z } from 'zod';
import { cssColor, httpUrl, languageCode, positiveId } from '../shared/wireSchemas.ts';

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const section = z.object({ enabled: z.boolean().optional(), voice_id: positiveId.nullable().optional() });

const projectFields = {
  name: z.string().trim().min(1).max(200),
  /** The spec sends `language` as an object on update; a bare code is accepted too. */
  language: z.union([languageCode, z.object({ code: languageCode }).transform((value) => value.code)]),
  environment: z.enum(['production', 'staging']).nullable(),
  logo_color: cssColor.nullable(),
  title: section,
  summary: section,
  body: section,
  background_track: z.object({ enabled: z.boolean().optional(), track: z.object({ id: positiveId }).nullable().optional() }),
  auto_publish_enabled: z.boolean(),
  auto_video_publish_enabled: z.boolean(),
  time_zone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name such as Europe/London'),
  avatar_url: httpUrl.nullable(),
  pause_after_title_segments_seconds: z.number().min(0).max(3),
  pause_after_segments_seconds: z.number().min(0).max(3),
};

export const createProjectSchema = z.object(projectFields).partial().required({ name: true });
export const updateProjectSchema = z.object(projectFields).partial();
export type ProjectWireFields = z.infer<typeof updateProjectSchema>;
