// Content items read model: one document per item, guarded by stream revision so replays are idempotent.
import type { ContentEvent } from '../src/content/events.ts';
import { CONTENT_ITEMS, contentIndexes, type ContentItemView } from '../src/content/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

/** What an item shows for fields its creator left out or set to null. */
const defaults = {
  titleEnabled: true,
  bodyEnabled: true,
  summaryEnabled: false,
  summaryTitleEnabled: false,
  published: false,
  videoPublished: false,
  adsEnabled: true,
  autoSegmentUpdatesEnabled: false,
  aiSummaryUpdatesEnabled: false,
  tags: [] as string[],
};

/** A field set to null takes its default; fields left out are not touched; manual segments become requestedSegments, metadata becomes metadataJson. */
const viewFields = (fields: object) =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      if (key === 'metadata') return ['metadataJson', value == null ? null : JSON.stringify(value)];
      return [key === 'segments' ? 'requestedSegments' : key, value === null && key in defaults ? defaults[key as keyof typeof defaults] : value];
    }),
  );

export const contentItemsProjection: Projection = {
  name: 'contentItems',
  streamPrefix: 'content-',
  collections: { [CONTENT_ITEMS]: contentIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const items = read.collection<ContentItemView>(CONTENT_ITEMS);
    const event = recorded as unknown as ContentEvent & RecordedEvent;
    const id = recorded.stream.slice('content-'.length);
    if (event.type === 'ContentCreated') {
      const { projectId, contentType, fields, previewToken, created } = event.data;
      if (await items.findOne({ _id: id })) return;
      await items.put({
        ...defaults,
        ...(viewFields(fields) as Partial<ContentItemView>),
        _id: id,
        revision: recorded.revision,
        projectId,
        legacyId: recorded.position,
        contentType,
        status: 'queued',
        previewToken,
        generation: 1,
        audio: [],
        video: [],
        segments: [],
        duration: null,
        error: null,
        created,
        updated: created,
      });
      return;
    }
    const item = await items.findOne({ _id: id });
    if (!item || recorded.revision <= item.revision) return;
    const revision = recorded.revision;
    switch (event.type) {
      case 'ContentUpdated':
        await items.put({ ...item, ...viewFields(event.data.changes), revision, updated: event.data.updated });
        return;
      case 'ContentDeleted':
        await items.deleteOne(id);
        return;
      case 'ContentRegenerationRequested':
        await items.put({ ...item, revision, status: 'queued', generation: event.data.generation, error: null, updated: event.data.requested });
        return;
      case 'ContentProcessingStarted':
        await items.put({ ...item, revision, status: 'processing', updated: event.data.started });
        return;
      case 'ContentProcessed': {
        const { media, published, processed } = event.data;
        const { audio, video, segments, summarySegments, duration } = media;
        await items.put({ ...item, revision, status: 'processed', error: null, audio, video, segments, summarySegments, duration, published, updated: processed });
        return;
      }
      case 'ContentProcessingFailed':
        await items.put({ ...item, revision, status: 'error', error: event.data.reason, updated: event.data.failed });
        return;
      case 'ContentSkipped':
        await items.put({ ...item, revision, status: 'skipped', error: event.data.reason, updated: event.data.skipped });
        return;
    }
  },
};
