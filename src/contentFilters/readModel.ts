// The content filter read model: its document type and the queries the service makes of it.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { ContentFilterFields } from './events.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';

export const CONTENT_FILTERS = 'content_filters';

export type ContentFilterView = ProjectResourceDocument<ContentFilterFields>;

export const contentFilterIndexes = projectResourceIndexes;

const resource = projectResource<ContentFilterView>(CONTENT_FILTERS);
export const listContentFilters = resource.list;

/** The enabled filters of a project, oldest first: what extraction and body preparation apply. */
export const enabledContentFiltersOf = (read: ReadStore, projectId: number) =>
  read.collection<ContentFilterView>(CONTENT_FILTERS).find({ projectId, enabled: true }, { sort: { id: 1 } });
