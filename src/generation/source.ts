// What a generation works from: the item's and its project's current fields, folded from their streams.
import type { RecordedEvent } from '../infrastructure/eventStore/port.ts';
import { contentDecider, type ContentState } from '../content/decider.ts';
import type { ContentEvent, ContentFields } from '../content/events.ts';
import type { ContentType } from '../content/commands.ts';
import { foldStream } from '../shared/decider.ts';
import type { ProjectEvent, ProjectFields } from '../projects/events.ts';
import { projectDefaults } from '../projects/readModel.ts';

export interface ContentSource {
  state: ContentState;
  contentType: ContentType;
  projectId: number;
  fields: ContentFields;
}

export function contentSourceOf(events: RecordedEvent[]): ContentSource {
  const state = foldStream(contentDecider, events);
  let fields = {} as ContentFields;
  for (const event of events as unknown as ContentEvent[]) {
    if (event.type === 'ContentCreated') fields = event.data.fields;
    if (event.type === 'ContentUpdated' || event.type === 'ContentSummarized') fields = { ...fields, ...event.data.changes };
  }
  return { state, contentType: state.contentType!, projectId: state.projectId!, fields };
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
