// The content filter read model: its document type and the queries the service makes of it.
import type { ContentFilterFields } from './events.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';

export const CONTENT_FILTERS = 'content_filters';

export type ContentFilterView = ProjectResourceDocument<ContentFilterFields>;

export const contentFilterIndexes = projectResourceIndexes;

const resource = projectResource<ContentFilterView>(CONTENT_FILTERS);
export const listContentFilters = resource.list;

