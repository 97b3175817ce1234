// A project's publishing-platform (CMS) integration settings: the wire schema, their stored form and defaults.
import { z } from 'zod';
import type { CamelKeys } from '../shared/caseMapping.ts';
import { hostname } from '../player/embedSettings.ts';

export const cmsPlatforms = ['ghost', 'wordpress'] as const;
export type CmsPlatform = (typeof cmsPlatforms)[number];

export const cmsSettingsSchema = z
  .object({
    /** When false, the posts webhook changes nothing (403) and client-side imports create nothing. */
    enabled: z.boolean(),
    /** Whose post payloads the posts webhook reads. */
    platform: z.enum(cmsPlatforms),
    /** Whether items made from published posts are published (shown in players) once processed. */
    publish: z.boolean(),
    /** Hosts (with their subdomains) whose pages client-side import may create items from; empty: none. */
    allowed_domains: z.array(hostname).max(100),
  })
  .partial()
  .strict();

export type CmsSettingsChanges = CamelKeys<z.infer<typeof cmsSettingsSchema>>;
export type CmsSettings = Required<CmsSettingsChanges>;

export const defaultCmsSettings: CmsSettings = { enabled: false, platform: 'wordpress', publish: true, allowedDomains: [] };

/** Whether a page of this host may be imported: its host or a parent domain is listed. */
export const importableFrom = (allowedDomains: string[], host: string) =>
  allowedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
