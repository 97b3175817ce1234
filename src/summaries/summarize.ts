// Makes an item's AI script summary and records it: the summary becomes the item's summary (its `summary` text, or
// its summary segments), narrated by the generation that follows. Used by `summarize` and by generations.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { SummarizerError, type Summarizer } from '../infrastructure/summarizer/port.ts';
import type { SegmentInput } from '../content/commands.ts';
import { contentDecider } from '../content/decider.ts';
import { contentStream, type ContentFields } from '../content/events.ts';
import { contentSourceOf, type ContentSource } from '../generation/source.ts';
import { AppError, invalid } from '../shared/errors.ts';
import { handleCommand } from '../shared/decider.ts';
import type { SummarizeWire } from './commands.ts';
import { digestOf, summaryParametersOf, textToSummarize, type SummaryParameters } from './source.ts';

export interface SummaryMade {
  source: ContentSource;
  summary: string;
  parameters: SummaryParameters;
  position: number;
}

/** Where the summary goes: an auto_segment item's `summary`, a manual_segment item's summary segments. */
export function summaryChangesOf(source: ContentSource, summary: string, prompt: string): Partial<ContentFields> {
  if (source.contentType === 'manual_segment') return { segments: withSummarySegments(source.fields.segments ?? [], summary), aiSummaryPrompt: prompt };
  // An item that turned its summary audio off keeps that choice: the summary is kept, and read where summaries are.
  return { summary, aiSummaryPrompt: prompt, ...(source.fields.summaryEnabled === false ? {} : { summaryEnabled: true }) };
}

/** The new summary segment stands where the old ones stood, else after the title segments; it keeps their voice. */
function withSummarySegments(segments: SegmentInput[], summary: string): SegmentInput[] {
  const isSummary = (segment: SegmentInput) => segment.section === 'summary';
  const old = segments.filter(isSummary);
  const segment: SegmentInput = { content_type: 'text', section: 'summary', text: summary, ...(old[0]?.voice ? { voice: old[0].voice } : {}) };
  const kept = segments.filter((candidate) => !isSummary(candidate));
  const firstOld = segments.findIndex(isSummary);
  const afterTitles = kept.findIndex((candidate) => candidate.section !== 'title');
  const index = firstOld >= 0 ? segments.slice(0, firstOld).filter((candidate) => !isSummary(candidate)).length : afterTitles < 0 ? kept.length : afterTitles;
  return [...kept.slice(0, index), segment, ...kept.slice(index)];
}

/**
 * Summarizes the item's current text and records the summary. `regenerate`: narrate it at once (a generation that
 * makes it narrates it itself). Fails with an AppError (422 nothing to summarize, 502/504 the summarizer failed);
 * nothing is recorded then.
 */
export async function summarizeItem(
  deps: { events: EventStore; summarizer: Summarizer },
  projectId: number,
  contentId: string,
  request: SummarizeWire,
  options: { regenerate: boolean; now: Date },
): Promise<SummaryMade> {
  const stream = contentStream(contentId);
  const source = contentSourceOf(await deps.events.readStream(stream));
  if (source.contentType === 'audio_upload') throw invalid([{ location: 'type', message: 'an audio_upload item has no text to summarize' }]);
  const text = textToSummarize(source);
  if (!text) throw invalid([{ location: source.contentType === 'manual_segment' ? 'segments' : 'body', message: 'the item has no text to summarize yet' }]);
  const parameters = await summaryParametersOf(deps.events, deps.summarizer, source, request);
  const summary = await summarizeText(deps.summarizer, text, parameters);
  const changes = summaryChangesOf(source, summary, parameters.prompt);
  const command = {
    kind: 'SummarizeContent',
    projectId,
    changes,
    model: parameters.model,
    sourceDigest: digestOf(text),
    regenerate: options.regenerate,
    now: options.now.toISOString(),
  } as const;
  const { position } = await handleCommand(deps.events, stream, contentDecider, command);
  return { source: { ...source, fields: { ...source.fields, ...changes } }, summary, parameters, position };
}

/** Summarizer failures as answers: an unknown model is the client's (422), a failed upstream a 502 or a 504. */
async function summarizeText(summarizer: Summarizer, text: string, parameters: SummaryParameters): Promise<string> {
  try {
    const summary = await summarizer.summarize({ text, model: parameters.model, prompt: parameters.prompt, temperature: parameters.temperature, maxTokens: parameters.limitTokenUsage });
    if (!summary) throw invalid([{ location: 'body', message: 'the item has no sentence to summarize' }]);
    return summary;
  } catch (error) {
    if (!(error instanceof SummarizerError)) throw error;
    if (error.reason === 'unknown-model') throw invalid([{ location: 'model', message: error.message }]);
    throw new AppError(error.reason === 'timeout' ? 'GatewayTimeout' : 'BadGateway', error.message);
  }
}
