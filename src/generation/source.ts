// What a generation works from: the item's and its project's current fields, folded from their streams.
import type { RecordedEvent } from '../infrastructure/eventStore/port.ts';
import { contentDecider, type ContentState } from '../content/decider.ts';
import { withExtracted, type ContentEvent, type ContentFields, type ExtractedFields } from '../content/events.ts';
import type { ContentType } from '../content/commands.ts';
import { foldStream } from '../shared/decider.ts';
import type { ProjectEvent, ProjectFields } from '../projects/events.ts';
import { projectDefaults } from '../projects/readModel.ts';

export interface ContentSource {
  state: ContentState;
  contentType: ContentType;
  projectId: number;
  /** The client's fields, with what extraction found filling the ones it left empty. */
  fields: ContentFields;
  /** The client's fields alone. */
  given: ContentFields;
  /** The generation whose page was last extracted, or 0. */
  extractedGeneration: number;
}

export function contentSourceOf(events: RecordedEvent[]): ContentSource {
  const state = foldStream(contentDecider, events);
  let fields = {} as ContentFields;
  let fromPage: ExtractedFields | null = null;
  let extractedGeneration = 0;
  for (const event of events as unknown as ContentEvent[]) {
    if (event.type === 'ContentCreated') fields = event.data.fields;
    if (event.type === 'ContentUpdated' || event.type === 'ContentSummarized') fields = { ...fields, ...event.data.changes };
    if (event.type === 'ContentExtracted') {
      fromPage = event.data.fields;
      extractedGeneration = event.data.generation;
    }
  }
  return { state, contentType: state.contentType!, projectId: state.projectId!, fields: withExtracted(fields, fromPage), given: fields, extractedGeneration };
}

export type ProjectSettings = Required<Omit<ProjectFields, 'name'>>;

export function projectSettingsOf(events: RecordedEvent[]): ProjectSettings {
  let settings: ProjectSettings = { ...projectDefaults };
  for (const event of events as unknown as ProjectEvent[]) {
    if (event.type === 'ProjectCreated') settings = { ...settings, ...event.data.fields };
    if (event.type === 'ProjectUpdated') settings = { ...settings, ...event.data.changes };
  }
  return settings;
}
