// A project's embed settings: whether and where its public player data may be embedded, and in which format.
import { z } from 'zod';
import type { CamelKeys } from '../shared/caseMapping.ts';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const isHostname = (value: string) => value.length <= 253 && value.split('.').every((label) => LABEL.test(label));

export const hostname = z
  .string()
  .trim()
  .transform((value) => value.toLowerCase().replace(/\.$/, ''))
  .refine(isHostname, 'must be a host name such as example.com (no scheme, port or path)');

export const embedSettingsSchema = z
  .object({
    /** When false, the project's player data answers 404 everywhere. */
    enabled: z.boolean(),
    /** Host names (with their subdomains) of the pages that may load the player; empty means any. */
    allowed_domains: z.array(hostname).max(100),
    /** The media format of player data when the request does not name one. */
    default_media_format: z.enum(['audio', 'video']),
  })
  .partial();

export type EmbedSettingsChanges = CamelKeys<z.infer<typeof embedSettingsSchema>>;
export type EmbedSettings = Required<EmbedSettingsChanges>;

export const defaultEmbedSettings: EmbedSettings = { enabled: true, allowedDomains: [], defaultMediaFormat: 'audio' };

/** Whether a page of this host may load the player: its host or a parent domain is allowed (or every host is). */
export function embeddableFrom(allowedDomains: string[], host: string | null): boolean {
  if (allowedDomains.length === 0 || host === null) return true;
  return allowedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
