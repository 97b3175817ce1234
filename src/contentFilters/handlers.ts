// Content filter commands: allocate an id, list it under its project, decide, append (through the project resource kit).
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { createContentFilterSchema, updateContentFilterSchema } from './commands.ts';
import { contentFilterDecider } from './decider.ts';
import { contentFilterStream, type ContentFilterFields } from './events.ts';
import { listContentFilter } from './projectFilters.ts';

export function createContentFilterHandlers(store: EventStore) {
  return projectResourceHandlers(store, {
    sequence: 'content_filter',
    stream: contentFilterStream,
    decider: contentFilterDecider,
    schemas: { create: createContentFilterSchema, update: updateContentFilterSchema },
    commands: {
      create: (contentFilterId, projectId, fields: ContentFilterFields, now) => ({ kind: 'CreateContentFilter', contentFilterId, projectId, fields, now } as const),
      update: (projectId, changes, now) => ({ kind: 'UpdateContentFilter', projectId, changes, now } as const),
      remove: (projectId, now) => ({ kind: 'DeleteContentFilter', projectId, now } as const),
    },
    beforeCreate: (projectId, contentFilterId) => listContentFilter(store, projectId, contentFilterId),
  });
}
