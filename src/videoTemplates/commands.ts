// What clients may send to create or update a video settings template, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { videoSettingsSchema } from '../player/videoSettings.ts';

/** A template holds video settings only; it cannot name another template. */
export const templateSettings = videoSettingsSchema
  .omit({ template: true })
  .strict()
  .meta({ id: 'VideoSettingsTemplateSettings', description: "Video settings fields the template sets; fields it leaves out keep the project's values" });

export const slug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits joined by single dashes');

const fields = {
  name: z.string().trim().min(1).max(100),
  slug: slug.describe('A short name for clients; made from `name` when left out'),
  settings: templateSettings,
};

export const videoTemplateSchemas = {
  create: z.object({ ...fields, slug: fields.slug.optional(), settings: fields.settings.default({}) }),
  update: z.object(fields).partial(),
};

export type VideoTemplateWireFields = z.infer<typeof videoTemplateSchemas.create>;

/** The slug a name gives when none is sent: `Brand Story 1` → `brand-story-1`. */
export const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '') || 'template';
