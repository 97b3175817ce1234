// The wire formats of AI script summaries: zod schemas (the source of the OpenAPI document) and the mappings to them.
import { z } from 'zod';
import { timestamp } from '../shared/wireResponses.ts';
import { segmentWire, type SegmentWire } from '../content/wire.ts';
import { segmentsForClients } from '../content/segments.ts';
import type { PlannedSegment } from '../generation/plan.ts';
import type { SummarizationSettingsFields } from './events.ts';
import type { SummaryTemplateView } from './readModel.ts';

export const summaryTemplateSummaryWire = z
  .object({ id: z.number().int().min(1), slug: z.string(), name: z.string() })
  .meta({ id: 'ScriptTemplateSummary' });

export const summaryTemplateWire = summaryTemplateSummaryWire
  .extend({
    prompt: z.string().nullable(),
    model: z.string().nullable(),
    temperature: z.number().nullable(),
    limit_token_usage: z.number().int().nullable(),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'ScriptTemplate' });
export type SummaryTemplateWire = z.infer<typeof summaryTemplateWire>;

/** Lists carry what a client picks a template by (the WordPress plugin's editor reads `[{id, slug, name}]`). */
export const summaryTemplateSummaryToWire = ({ id, slug, name }: SummaryTemplateView) => ({ id, slug, name });

export const summaryTemplateToWire = (template: SummaryTemplateView): SummaryTemplateWire => ({
  id: template.id,
  slug: template.slug,
  name: template.name,
  prompt: template.prompt,
  model: template.model,
  temperature: template.temperature,
  limit_token_usage: template.limitTokenUsage,
  created: template.created,
  updated: template.updated,
});

export const summarizationSettingsWire = z
  .object({
    enabled: z.boolean(),
    model: z.string().nullable(),
    prompt: z.string().nullable(),
    temperature: z.number().nullable(),
    limit_token_usage: z.number().int().nullable(),
    template: z.array(summaryTemplateSummaryWire).nullable().describe('The template the settings name, as a one-item array; null when none'),
    models: z.array(z.string()).describe('The models this service offers (`extractive` always)'),
  })
  .meta({ id: 'SummarizationSettings' });
export type SummarizationSettingsWireAnswer = z.infer<typeof summarizationSettingsWire>;

export const summarizationSettingsToWire = (
  settings: SummarizationSettingsFields,
  template: SummaryTemplateView | null,
  models: string[],
): SummarizationSettingsWireAnswer => ({
  enabled: settings.enabled,
  model: settings.model,
  prompt: settings.prompt,
  temperature: settings.temperature,
  limit_token_usage: settings.limitTokenUsage,
  template: template ? [summaryTemplateSummaryToWire(template)] : null,
  models,
});

export const summarySegmentsWire = z.array(segmentWire).describe('The summary segments as they will be narrated: not timed yet');

/** The planned summary segments as Segments: the markers are those the narrated segments will have. */
export function summarySegmentsToWire(contentId: string, planned: PlannedSegment[], now: string): SegmentWire[] {
  const stored = planned.map((segment) => ({ section: segment.section, content_type: segment.content_type, text: segment.text, md5: segment.md5, marker: segment.marker }));
  return segmentsForClients(contentId, stored).map((segment, index) => {
    const plannedSegment = planned[index]!;
    const voice = plannedSegment.voice;
    return {
      id: null,
      marker: segment.marker as string,
      section: plannedSegment.section,
      content_type: plannedSegment.content_type,
      text: plannedSegment.text,
      audio_url: plannedSegment.audio_url,
      image_url: plannedSegment.image_url,
      video_url: plannedSegment.video_url,
      start_time: null,
      duration: null,
      voice: voice ? { id: voice.id, name: voice.name } : null,
      language: voice ? { code: voice.language.code, name: voice.language.name } : null,
      preprocessing_settings: null,
      xpath: plannedSegment.xpath,
      md5: plannedSegment.md5,
      video_settings: null,
      pauses: [],
      created: now,
      updated: now,
    };
  });
}
