// The read models of AI script summaries: the organization's script templates and each project's settings.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, organizationResourceIndexes, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { SummarizationSettingsChanges, SummarizationSettingsFields, SummaryTemplateFields } from './events.ts';

export const SUMMARY_TEMPLATES = 'summary_templates';
export type SummaryTemplateView = OrganizationResourceDocument<SummaryTemplateFields>;
export const summaryTemplateIndexes = organizationResourceIndexes;
const templates = organizationResource<SummaryTemplateView>(SUMMARY_TEMPLATES);
export const findSummaryTemplate = templates.find;
export const listSummaryTemplates = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  templates.list(read, organizationId, { skip: offset, limit });

export const SUMMARIZATION_SETTINGS = 'summarizationSettings';
export type SummarizationSettingsView = { _id: string; revision: number; projectId: number; settings: SummarizationSettingsChanges; updated: string };
export const summarizationSettingsIndexes: IndexSpec[] = [];

export const defaultSummarizationSettings: SummarizationSettingsFields = {
  enabled: false,
  model: null,
  prompt: null,
  temperature: null,
  limitTokenUsage: null,
  templateId: null,
};

/** Every setting of the project, those it never set at their defaults. */
export async function summarizationSettingsOf(read: ReadStore, projectId: number): Promise<SummarizationSettingsFields> {
  const stored = await read.collection<SummarizationSettingsView>(SUMMARIZATION_SETTINGS).findOne({ _id: String(projectId) });
  return { ...defaultSummarizationSettings, ...stored?.settings };
}
