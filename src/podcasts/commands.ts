// What clients may send to update a project's podcast settings, as a zod schema of the wire format (snake_case).
import { z } from 'zod';
import { categoryNames } from './categories.ts';

const https = z.url({ protocol: /^https$/ }).max(2048);
const text = (max: number) => z.string().trim().min(1).max(max);
const categories = new Set(categoryNames);

const fields = {
  title: text(255).nullable(),
  description: text(4000).nullable(),
  author: text(255).nullable(),
  owner: z.object({ name: text(255).nullable().default(null), email: z.email().max(255).nullable().default(null) }),
  /** Apple asks for a square JPEG or PNG of at least 1400 px; we can only ask for an https URL. */
  image_url: https.nullable(),
  /** A project language code (`en_US`) or an RSS one (`en-us`). */
  language: z.string().regex(/^[a-zA-Z]{2,3}([_-][a-zA-Z]{2})?$/, 'must be a language code such as en_US').nullable(),
  categories: z
    .array(z.string().refine((name) => categories.has(name), 'must be an Apple Podcasts category, e.g. "Technology" or "Sports > Football"'))
    .max(3),
  explicit: z.boolean(),
  type: z.enum(['episodic', 'serial']),
  copyright: text(255).nullable(),
  link: z.url({ protocol: /^https?$/ }).max(2048).nullable(),
  enabled: z.boolean(),
};

export const podcastSettingsSchema = z.object(fields).partial();
export type PodcastSettingsWire = z.infer<typeof podcastSettingsSchema>;
