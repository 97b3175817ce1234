// What a summary is made from: the item's text, a digest of it, and the parameters its settings and templates give.
// Read from the event store alone, so the API and the generation workers (which have no read store) agree.
import { createHash } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import { EXTRACTIVE_MODEL, type Summarizer } from '../infrastructure/summarizer/port.ts';
import type { ContentEvent, ContentSummarized } from '../content/events.ts';
import type { ContentSource } from '../generation/source.ts';
import { prepareArticle } from '../generation/textPreparation.ts';
import { foldStream } from '../shared/decider.ts';
import { projectDecider } from '../projects/decider.ts';
import { projectStream } from '../projects/events.ts';
import type { SummarizeWire } from './commands.ts';
import { summarizationSettingsDecider } from './decider.ts';
import { summarizationSettingsStream, summaryTemplateStream, type SummarizationSettingsFields, type SummaryTemplateEvent, type SummaryTemplateFields } from './events.ts';
import { defaultSummarizationSettings } from './readModel.ts';

export const DEFAULT_PROMPT =
  'Summarize the article below in two or three sentences that will be read aloud. Use only facts the article states; ' +
  'add no figures, names or dates of your own. Answer with the summary alone.';
export const DEFAULT_TEMPERATURE = 0.3;
export const DEFAULT_LIMIT_TOKEN_USAGE = 150;

/** The article's own text, paragraph by paragraph, without its title and summary. */
export function textToSummarize(source: ContentSource): string {
  const { fields } = source;
  if (source.contentType === 'auto_segment') {
    const prepared = prepareArticle({
      title: null,
      summary: null,
      body: fields.body ?? '',
      titleEnabled: false,
      bodyEnabled: true,
      summaryEnabled: false,
      summaryTitleEnabled: false,
    });
    return prepared.segments.flatMap((segment) => (segment.text ? [segment.text] : [])).join('\n\n');
  }
  if (source.contentType === 'manual_segment') {
    return (fields.segments ?? [])
      .filter((segment) => segment.content_type === 'text' && (segment.section ?? 'body') === 'body' && segment.text)
      .map((segment) => segment.text!)
      .join('\n\n');
  }
  return '';
}

export const digestOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The item's last summary made by a summarizer, if any. */
export function lastSummaryOf(events: RecordedEvent[]): ContentSummarized['data'] | null {
  const summaries = (events as unknown as ContentEvent[]).filter((event): event is ContentSummarized => event.type === 'ContentSummarized');
  return summaries.at(-1)?.data ?? null;
}

export interface SummaryParameters {
  model: string;
  prompt: string;
  temperature: number;
  limitTokenUsage: number;
}

type Partial4 = { model?: string | null; prompt?: string | null; temperature?: number | null; limitTokenUsage?: number | null };

async function templateOf(events: EventStore, organizationId: number, id: number | null | undefined): Promise<SummaryTemplateFields | null> {
  if (!id) return null;
  let fields: SummaryTemplateFields | null = null;
  for (const event of (await events.readStream(summaryTemplateStream(id))) as unknown as SummaryTemplateEvent[]) {
    if (event.type === 'SummaryTemplateCreated') fields = event.data.organizationId === organizationId ? event.data.fields : null;
    if (event.type === 'SummaryTemplateUpdated' && fields) fields = { ...fields, ...event.data.changes };
    if (event.type === 'SummaryTemplateDeleted') fields = null;
  }
  return fields;
}

/** The project's summarization settings, from their stream. */
export async function projectSummarizationSettings(events: EventStore, projectId: number): Promise<SummarizationSettingsFields> {
  return { ...defaultSummarizationSettings, ...foldStream(summarizationSettingsDecider, await events.readStream(summarizationSettingsStream(projectId))) };
}

/** The item's own `summarization_settings`, as sent (snake_case inside). */
function itemSettingsOf(source: ContentSource): Partial4 & { enabled?: boolean; templateId?: number | null } {
  const own = source.fields.summarizationSettings ?? {};
  return { enabled: own.enabled, model: own.model, prompt: own.prompt, temperature: own.temperature, limitTokenUsage: own.limit_token_usage, templateId: own.template?.id };
}

/**
 * Each parameter from the first that gives it: the request, the item's summarization settings, the item's template,
 * the project's settings, the project's template, then the defaults (the configured model, else `extractive`).
 */
export async function summaryParametersOf(events: EventStore, summarizer: Summarizer, source: ContentSource, request: SummarizeWire): Promise<SummaryParameters & { enabled: boolean }> {
  const project = await projectSummarizationSettings(events, source.projectId);
  const organizationId = foldStream(projectDecider, await events.readStream(projectStream(source.projectId))).organizationId ?? 0;
  const item = itemSettingsOf(source);
  const layers: Partial4[] = [
    { model: request.model, prompt: request.prompt, temperature: request.temperature, limitTokenUsage: request.limit_token_usage },
    item,
    (await templateOf(events, organizationId, item.templateId)) ?? {},
    project,
    (await templateOf(events, organizationId, project.templateId)) ?? {},
  ];
  const first = <K extends keyof Partial4>(key: K) => layers.map((layer) => layer[key]).find((value) => value !== null && value !== undefined);
  return {
    enabled: item.enabled ?? project.enabled,
    model: (first('model') as string | undefined) ?? summarizer.defaultModel(),
    prompt: (first('prompt') as string | undefined) ?? DEFAULT_PROMPT,
    temperature: (first('temperature') as number | undefined) ?? DEFAULT_TEMPERATURE,
    limitTokenUsage: (first('limitTokenUsage') as number | undefined) ?? DEFAULT_LIMIT_TOKEN_USAGE,
  };
}

export const isExtractive = (model: string) => model === EXTRACTIVE_MODEL;
