// The extraction step of a generation: an item with a `source_url` and no body of its own gets its article from
// its page before it is segmented, recorded as ContentExtracted (never over what the client gave).
import { ApplicationFailure } from '@temporalio/common';
import type { RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ContentFilter } from '../contentFilters/apply.ts';
import type { ContentSource } from '../generation/source.ts';
import type { ProjectEvent } from '../projects/events.ts';
import { applySettingsChanges } from '../projects/readModel.ts';
import type { PageRenderer } from './browser.ts';
import { extractPage } from './extractor.ts';
import { PageError, type PageLimits } from './page.ts';
import { defaultExtractionSettings, type ExtractionSettings } from './settings.ts';
import type { ExtractedFields } from '../content/events.ts';

export interface ExtractionStepDeps {
  limits: PageLimits;
  renderer?: PageRenderer;
  /** The project's enabled content filters, oldest first. */
  filtersOf(projectId: number): Promise<ContentFilter[]>;
}

/** Whether this generation reads its text from the item's page: a source_url, no body given, not extracted yet. */
export const needsExtraction = (source: ContentSource, generation: number) =>
  source.contentType === 'auto_segment' && !source.given.body && Boolean(source.given.sourceUrl) && source.extractedGeneration !== generation;

export function extractionSettingsOf(projectEvents: RecordedEvent[]): ExtractionSettings {
  let settings = defaultExtractionSettings;
  for (const event of projectEvents as unknown as ProjectEvent[]) {
    if (event.type === 'ExtractionSettingsUpdated') settings = applySettingsChanges(settings, event.data.changes);
  }
  return settings;
}

/** The fields the page gives; a failure no retry mends is non-retryable, with the reason a person can act on. */
export async function extractForItem(source: ContentSource, projectEvents: RecordedEvent[], deps: ExtractionStepDeps): Promise<{ url: string; fields: ExtractedFields }> {
  const settings = extractionSettingsOf(projectEvents);
  try {
    const filters = await deps.filtersOf(source.projectId);
    const article = await extractPage(source.given.sourceUrl!, settings, filters, deps);
    const fields: ExtractedFields = { body: article.body };
    if (article.title) fields.title = article.title;
    if (article.author) fields.author = article.author;
    if (article.publishDate) fields.publishDate = article.publishDate;
    return { url: article.url, fields };
  } catch (error) {
    if (error instanceof PageError) {
      throw error.permanent ? ApplicationFailure.nonRetryable(error.message, 'ExtractionFailed') : ApplicationFailure.retryable(error.message, 'ExtractionFailed');
    }
    throw error;
  }
}
