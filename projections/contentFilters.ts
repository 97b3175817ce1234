// Content filters as a read model, guarded by stream revision so replays are idempotent.
import type { ContentFilterEvent } from '../src/contentFilters/events.ts';
import { CONTENT_FILTERS, contentFilterIndexes, type ContentFilterView } from '../src/contentFilters/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

const PREFIX = 'content_filter-';

export const contentFiltersProjection: Projection = {
  name: 'content_filters',
  streamPrefix: PREFIX,
  collections: { [CONTENT_FILTERS]: contentFilterIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const filters = read.collection<ContentFilterView>(CONTENT_FILTERS);
    const event = recorded as unknown as ContentFilterEvent;
    const _id = recorded.stream.slice(PREFIX.length);
    if (event.type === 'ContentFilterCreated') {
      const { contentFilterId, projectId, fields, created } = event.data;
      if (await filters.findOne({ _id })) return;
      await filters.put({ ...fields, _id, revision: recorded.revision, id: contentFilterId, projectId, created, updated: created });
      return;
    }
    const filter = await filters.findOne({ _id });
    if (!filter || recorded.revision <= filter.revision) return;
    switch (event.type) {
      case 'ContentFilterUpdated':
        await filters.put({ ...filter, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'ContentFilterDeleted':
        await filters.deleteOne(_id);
        return;
    }
  },
};
