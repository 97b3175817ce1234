// Feed imports as a read model, guarded by stream revision so replays are idempotent.
import type { FeedImportEvent } from '../src/feedImports/events.ts';
import { FEED_IMPORTS, feedImportIndexes, type FeedImportView } from '../src/feedImports/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

const PREFIX = 'feed_import-';

export const feedImportsProjection: Projection = {
  name: 'feedImports',
  streamPrefix: PREFIX,
  collections: { [FEED_IMPORTS]: feedImportIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const imports = read.collection<FeedImportView>(FEED_IMPORTS);
    const event = recorded as unknown as FeedImportEvent;
    const _id = recorded.stream.slice(PREFIX.length);
    if (event.type === 'FeedImportCreated') {
      const { feedImportId, projectId, fields, created } = event.data;
      if (await imports.findOne({ _id })) return;
      await imports.put({ ...fields, _id, revision: recorded.revision, id: feedImportId, projectId, created, updated: created, lastRun: null, runStarted: null });
      return;
    }
    const found = await imports.findOne({ _id });
    if (!found || recorded.revision <= found.revision) return;
    const revision = recorded.revision;
    switch (event.type) {
      case 'FeedImportUpdated':
        await imports.put({ ...found, ...event.data.changes, revision, updated: event.data.updated });
        return;
      case 'FeedImportDeleted':
        await imports.deleteOne(_id);
        return;
      case 'FeedImportRunStarted':
        await imports.put({ ...found, revision, runStarted: event.data.started });
        return;
      case 'FeedImportRunFinished':
        await imports.put({ ...found, revision, lastRun: event.data.outcome });
        return;
    }
  },
};
