// The CMS integration's answers in the wire format, as zod schemas (the source of their OpenAPI components).
import { z } from 'zod';
import { contentStatuses } from '../content/readModel.ts';
import { cmsPlatforms, defaultCmsSettings, type CmsSettings } from './settings.ts';

export const cmsSettingsWire = z
  .object({
    enabled: z.boolean(),
    platform: z.enum(cmsPlatforms),
    publish: z.boolean(),
    allowed_domains: z.array(z.string()),
    created: z.string().nullable().describe('When the integration was first configured; null until then'),
    updated: z.string().nullable(),
  })
  .meta({ id: 'CmsIntegration' });
export type CmsSettingsWire = z.infer<typeof cmsSettingsWire>;

export const touchedWire = z
  .object({
    id: z.string().nullable().describe('The item the post concerns; null when none does (a draft, a post never published)'),
    status: z.enum([...contentStatuses, 'deleted']).nullable(),
  })
  .meta({ id: 'CmsPostResult' });

const postActions = ['publish', 'schedule', 'unpublish', 'delete', 'ignore'] as const;

export const cmsTestWire = z
  .object({
    ok: z.boolean().describe('True when deliveries would be applied and the sample (if any) was read'),
    problems: z.array(z.string()).describe('What stops deliveries or imports, in words'),
    post: z
      .object({
        action: z.enum(postActions),
        source_id: z.string(),
        title: z.string().nullable(),
        source_url: z.string().nullable(),
        publish_date: z.string().nullable(),
        item: touchedWire.nullable().describe('The item the post would change; null when it would create one or none'),
      })
      .nullable()
      .describe('What a delivery of the sample would do; null without a sample'),
  })
  .meta({ id: 'CmsIntegrationTest' });
export type CmsTestWire = z.infer<typeof cmsTestWire>;

export function cmsSettingsToWire(settings: CmsSettings | null, created: string | null, updated: string | null): CmsSettingsWire {
  const { enabled, platform, publish, allowedDomains } = settings ?? defaultCmsSettings;
  return { enabled, platform, publish, allowed_domains: allowedDomains, created, updated };
}
