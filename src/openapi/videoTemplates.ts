// The organization's video settings templates in the OpenAPI document: any key reads, organization keys write.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { videoTemplateSchemas } from '../videoTemplates/commands.ts';
import { videoTemplateSummaryWire, videoTemplateWire } from '../videoTemplates/wire.ts';
import { pageQuery } from '../webhooks/wire.ts';
import { registerOrganizationResource } from './organizationResources.ts';
import { jsonBody } from './registry.ts';

export function registerVideoTemplates(registry: OpenAPIRegistry) {
  registerOrganizationResource(registry, {
    path: '/video_settings_templates',
    name: 'VideoSettingsTemplate',
    tags: ['Video'],
    summaries: {
      list: "List the organization's video settings templates (any key of the organization)",
      create: 'Create a video settings template (organization keys)',
      get: 'Get a video settings template (any key of the organization)',
      update: 'Change a video settings template (organization keys): fields sent replace the current ones, `settings` as a whole',
      remove: 'Delete a video settings template (organization keys); projects naming it keep the reference',
    },
    create: jsonBody(videoTemplateSchemas.create),
    update: videoTemplateSchemas.update,
    answer: videoTemplateWire,
    list: { query: pageQuery, answer: videoTemplateSummaryWire, description: 'A page, oldest first: what a client picks a template by' },
    projectKeysRead: true,
  });
}
