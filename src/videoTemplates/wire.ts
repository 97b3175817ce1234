// The video settings template's wire format: zod schemas (the source of the OpenAPI document) and the mappings to them.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import { templateSettings } from './commands.ts';
import type { VideoTemplateView } from './readModel.ts';

export const videoTemplateSummaryWire = z
  .object({ id: z.number().int().min(1), slug: z.string(), name: z.string() })
  .meta({ id: 'VideoSettingsTemplateSummary' });

export const videoTemplateWire = videoTemplateSummaryWire
  .extend({ settings: templateSettings, created: timestamp, updated: timestamp })
  .meta({ id: 'VideoSettingsTemplate' });
export type VideoTemplateWire = z.infer<typeof videoTemplateWire>;

/** Lists carry what a client picks a template by (the WordPress plugin reads `[{id, slug, name}]`). */
export const videoTemplateSummaryToWire = ({ id, slug, name }: VideoTemplateView) => ({ id, slug, name });

export const videoTemplateToWire = (template: VideoTemplateView): VideoTemplateWire => ({
  id: template.id,
  slug: template.slug,
  name: template.name,
  settings: template.settings,
  created: template.created,
  updated: template.updated,
});
