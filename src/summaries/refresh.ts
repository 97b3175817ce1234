// Summaries a generation makes before it plans: the first one when summarization is enabled and the item has no
// summary of its own, and a new one when `ai_summary_updates_enabled` and the text changed since the last.
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { Summarizer } from '../infrastructure/summarizer/port.ts';
import type { ContentSource } from '../generation/source.ts';
import { prepareArticle } from '../generation/textPreparation.ts';
import type { SummarizeWire } from './commands.ts';
import { digestOf, lastSummaryOf, summaryParametersOf, textToSummarize } from './source.ts';
import { summarizeItem } from './summarize.ts';

export interface RefreshDeps {
  events: EventStore;
  summarizer?: Summarizer;
  now: () => Date;
  log?: (message: string) => void;
}

/** A summary the publisher wrote: the `summary` field, the body's leading summary block, or summary segments. */
function hasOwnSummary(source: ContentSource): boolean {
  const { fields } = source;
  if (source.contentType === 'manual_segment') return (fields.segments ?? []).some((segment) => segment.section === 'summary');
  if (fields.summary) return true;
  const prepared = prepareArticle({ title: null, summary: null, body: fields.body ?? '', titleEnabled: false, bodyEnabled: false, summaryEnabled: true, summaryTitleEnabled: false });
  return prepared.summary.length > 0;
}

/** What to ask for, or null when the item needs no new summary. */
async function requestFor(deps: RefreshDeps & { summarizer: Summarizer }, events: RecordedEvent[], source: ContentSource, text: string): Promise<SummarizeWire | null> {
  const last = lastSummaryOf(events);
  if (last) {
    if (!source.fields.aiSummaryUpdatesEnabled || last.sourceDigest === digestOf(text)) return null;
    // Made again as it was made last: the same model while it is offered, the prompt the item records.
    return {
      ...(deps.summarizer.models().includes(last.model) ? { model: last.model } : {}),
      ...(source.fields.aiSummaryPrompt ? { prompt: source.fields.aiSummaryPrompt } : {}),
    };
  }
  if (hasOwnSummary(source)) return null;
  const { enabled } = await summaryParametersOf(deps.events, deps.summarizer, source, {});
  return enabled ? {} : null;
}

/**
 * The source to plan from: with a new summary recorded when one is due. A summarizer that fails leaves the summary as
 * it was (the article is still narrated; the failure is logged), and a retried attempt finds the summary made.
 */
export async function withCurrentSummary(deps: RefreshDeps, contentId: string, events: RecordedEvent[], source: ContentSource): Promise<ContentSource> {
  const { summarizer } = deps;
  if (!summarizer || source.contentType === 'audio_upload') return source;
  const text = textToSummarize(source);
  if (!text) return source;
  const request = await requestFor({ ...deps, summarizer }, events, source, text);
  if (!request) return source;
  try {
    return (await summarizeItem({ events: deps.events, summarizer }, source.projectId, contentId, request, { regenerate: false, now: deps.now() })).source;
  } catch (error) {
    deps.log?.(`summaries: item ${contentId} keeps its summary: ${error instanceof Error ? error.message : String(error)}`);
    return source;
  }
}
