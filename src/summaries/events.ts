// The facts of AI script summaries: script templates (`summary-template-<id>`, owned by an organization) and a
// project's summarization settings (`summarization_settings-<project id>`). Summaries themselves are facts of their
// item (ContentSummarized, src/content/events.ts).
import type { Lifecycle } from '../shared/crud/organizationDecider.ts';
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { SummarizationSettingsWire, SummaryTemplateWireFields } from './commands.ts';

export type SummaryTemplateFields = CamelKeys<Omit<SummaryTemplateWireFields, 'slug'>> & { slug: string };

export type SummaryTemplateCreated = {
  type: 'SummaryTemplateCreated';
  data: { templateId: number; organizationId: number; fields: SummaryTemplateFields; created: string };
};
export type SummaryTemplateUpdated = { type: 'SummaryTemplateUpdated'; data: { changes: Partial<SummaryTemplateFields>; updated: string } };
export type SummaryTemplateDeleted = { type: 'SummaryTemplateDeleted'; data: { deleted: string } };
export type SummaryTemplateEvent = SummaryTemplateCreated | SummaryTemplateUpdated | SummaryTemplateDeleted;

export const summaryTemplateLifecycle: Lifecycle<SummaryTemplateEvent> = {
  types: { created: 'SummaryTemplateCreated', updated: 'SummaryTemplateUpdated', deleted: 'SummaryTemplateDeleted' },
  idKey: 'templateId',
};

export const SUMMARY_TEMPLATE_STREAM_PREFIX = 'summary-template-';
export const summaryTemplateStream = (templateId: number) => `${SUMMARY_TEMPLATE_STREAM_PREFIX}${templateId}`;

/** A settings field left out is unchanged; `template` is kept as the template's id. */
export type SummarizationSettingsFields = {
  enabled: boolean;
  model: string | null;
  prompt: string | null;
  temperature: number | null;
  limitTokenUsage: number | null;
  templateId: number | null;
};
export type SummarizationSettingsChanges = Partial<SummarizationSettingsFields>;

/** Carries only the fields that changed. */
export type SummarizationSettingsUpdated = {
  type: 'SummarizationSettingsUpdated';
  data: { projectId: number; changes: SummarizationSettingsChanges; updated: string };
};
export type SummarizationSettingsEvent = SummarizationSettingsUpdated;

export const SUMMARIZATION_SETTINGS_STREAM_PREFIX = 'summarization_settings-';
export const summarizationSettingsStream = (projectId: number) => `${SUMMARIZATION_SETTINGS_STREAM_PREFIX}${projectId}`;

/** The wire's settings body as stored fields. */
export function settingsChangesOf(body: SummarizationSettingsWire): SummarizationSettingsChanges {
  const changes: SummarizationSettingsChanges = {};
  if (body.enabled !== undefined) changes.enabled = body.enabled;
  if (body.model !== undefined) changes.model = body.model;
  if (body.prompt !== undefined) changes.prompt = body.prompt;
  if (body.temperature !== undefined) changes.temperature = body.temperature;
  if (body.limit_token_usage !== undefined) changes.limitTokenUsage = body.limit_token_usage;
  if (body.template !== undefined) changes.templateId = body.template?.id ?? null;
  return changes;
}
