// Content items read model: one document per item, guarded by stream revision so replays are idempotent, and each project's statistics.
import { extractedFieldNames, type ContentEvent } from '../src/content/events.ts';
import { CONTENT_ITEMS, CONTENT_STATS, contentIndexes, type ContentItemView } from '../src/content/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';
import { countChange, mergeStats, recordChange, type StatsTally } from './contentStats.ts';
import { searchTextOf } from '../src/content/search.ts';

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
function viewFields(fields: object): Record<string, unknown> {
  // Keys, not entries mapped and put together again: a replay makes views of every item, and the pairs are garbage.
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (key === 'metadata') view.metadataJson = value == null ? null : JSON.stringify(value);
    else view[key === 'segments' ? 'requestedSegments' : key] = value === null && key in defaults ? defaults[key as keyof typeof defaults] : value;
  }
  return view;
}

/** The item after an event of its stream (not its creation); null when the event deletes it. */
function evolveView(item: ContentItemView, event: ContentEvent, revision: number): ContentItemView | null {
  switch (event.type) {
    case 'ContentUpdated': {
      const next: ContentItemView = Object.assign({}, item, viewFields(event.data.changes), { revision, updated: event.data.updated });
      // A field the client sets is its own from now on: a later extraction leaves it alone.
      if (item.extractedNames?.some((name) => name in event.data.changes)) next.extractedNames = item.extractedNames.filter((name) => !(name in event.data.changes));
      return 'title' in event.data.changes || 'body' in event.data.changes ? { ...next, searchText: searchTextOf(next) } : next;
    }
    case 'ContentExtracted': {
      const filled: Record<string, unknown> = {};
      const names = new Set(item.extractedNames ?? []);
      for (const name of extractedFieldNames) {
        const value = event.data.fields[name];
        if (value == null || !(item[name] == null || item[name] === '' || names.has(name))) continue;
        filled[name] = value;
        names.add(name);
      }
      const next: ContentItemView = Object.assign({}, item, filled, { revision, extractedNames: [...names] });
      return { ...next, searchText: searchTextOf(next) };
    }
    case 'ContentSummarized':
      return Object.assign({}, item, viewFields(event.data.changes), { revision, updated: event.data.summarized });
    case 'ContentDeleted':
      return null;
    case 'ContentRegenerationRequested':
      return { ...item, revision, status: 'queued', generation: event.data.generation, error: null, liveAudio: null, updated: event.data.requested };
    case 'ContentProcessingStarted':
      return { ...item, revision, status: 'processing', updated: event.data.started };
    // The live entry stands beside the previous generation's files, which a failure or a skip leaves in place.
    case 'ContentStreamStarted':
      return { ...item, revision, liveAudio: event.data.media, updated: event.data.started };
    case 'ContentProcessed': {
      const { media, published, videoPublished, processed } = event.data;
      const { audio, video, segments, summarySegments, duration } = media;
      const audioWithIntroOutro = media.audioWithIntroOutro ?? [];
      const processedItem = { ...item, revision, status: 'processed' as const, error: null, audio, audioWithIntroOutro, liveAudio: null, video, segments, summarySegments, duration, published, updated: processed };
      return videoPublished === undefined ? processedItem : { ...processedItem, videoPublished };
    }
    case 'ContentProcessingFailed':
      return { ...item, revision, status: 'error', error: event.data.reason, liveAudio: null, updated: event.data.failed };
    case 'ContentSkipped':
      return { ...item, revision, status: 'skipped', error: event.data.reason, liveAudio: null, updated: event.data.skipped };
    default:
      return item;
  }
}

/** What an item's change does to its project's statistics: `recordChange`, or a thread's count in a split replay. */
type RecordChange = (position: number, before: ContentItemView | null, after: ContentItemView | null) => Promise<void>;

/** The project's statistics change before the item does: see `recordChange` for why that order is idempotent. */
async function applyToItem(recorded: RecordedEvent, read: ReadStore, change: RecordChange): Promise<void> {
  const items = read.collection<ContentItemView>(CONTENT_ITEMS);
  const event = recorded as unknown as ContentEvent & RecordedEvent;
  const id = recorded.stream.slice('content-'.length);
  if (event.type === 'ContentCreated') {
    const { projectId, contentType, fields, previewToken, created } = event.data;
    if (await items.findOne({ _id: id })) return;
    // `Object.assign`, not spreads: V8 builds an object literal of two spreads and these fields ten times slower.
    const item: ContentItemView = Object.assign({}, defaults, viewFields(fields), {
      _id: id,
      revision: recorded.revision,
      projectId,
      legacyId: recorded.position,
      contentType,
      status: 'queued' as const,
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
    item.searchText = searchTextOf(item);
    await change(recorded.position, null, item);
    await items.put(item);
    return;
  }
  const item = await items.findOne({ _id: id });
  if (!item || recorded.revision <= item.revision) return;
  const next = evolveView(item, event, recorded.revision);
  if (next === item) return;
  await change(recorded.position, item, next);
  if (next) await items.put(next);
  else await items.deleteOne(id);
}

export const contentItemsProjection: Projection = {
  name: 'contentItems',
  streamPrefix: 'content-',
  collections: { [CONTENT_ITEMS]: contentIndexes, [CONTENT_STATS]: [] },
  apply: (recorded, read) => applyToItem(recorded, read, (position, before, after) => recordChange(read, position, before, after)),
  // An item's document depends on its stream alone; its project's statistics are counted apart and written at the end.
  split: {
    tally: () => new Map(),
    apply: (recorded, read, tally) => applyToItem(recorded, read, async (position, before, after) => countChange(tally as StatsTally, position, before, after)),
    merge: (read, tallies) => mergeStats(read, tallies as StatsTally[]),
  },
};
