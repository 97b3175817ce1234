// A project's filters read from the event store, for generation (the worker has no read store): each filter's id is
// listed in the project's index stream when it is created, and each filter's own stream says what it is now.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { foldStream } from '../shared/decider.ts';
import type { ContentFilter } from './apply.ts';
import { contentFilterDecider } from './decider.ts';
import { contentFilterStream } from './events.ts';

export const projectContentFiltersStream = (projectId: number) => `project_content_filters-${projectId}`;

export type ContentFilterListed = { type: 'ContentFilterListed'; data: { contentFilterId: number } };

/** Lists a new filter's id under its project, before the filter's first event (an id whose filter was never created is skipped). */
export async function listContentFilter(events: EventStore, projectId: number, contentFilterId: number): Promise<void> {
  const listed: ContentFilterListed = { type: 'ContentFilterListed', data: { contentFilterId } };
  await events.appendToStream(projectContentFiltersStream(projectId), [listed], 'any');
}

/** The project's enabled filters, oldest first, as their streams tell now. */
export async function enabledFiltersOfProject(events: EventStore, projectId: number): Promise<ContentFilter[]> {
  const listed = (await events.readStream(projectContentFiltersStream(projectId))) as unknown as ContentFilterListed[];
  const ids = [...new Set(listed.map((event) => event.data.contentFilterId))].sort((a, b) => a - b);
  const states = await Promise.all(ids.map(async (id) => foldStream(contentFilterDecider, await events.readStream(contentFilterStream(id)))));
  return states.flatMap((state) =>
    state.status === 'active' && state.projectId === projectId && state.fields!.enabled
      ? [{ type: state.fields!.type, selector: state.fields!.selector, enabled: true }]
      : [],
  );
}
