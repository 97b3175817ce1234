// The content item read model: its document type and the queries the API makes of it.
import type { Filter, IndexSpec, ReadStore, Sort } from '../infrastructure/readStore/port.ts';
import type { ContentType } from './commands.ts';
import type { ContentFields, MediaFileRecord } from './events.ts';

export const CONTENT_ITEMS = 'contentItems';

export const contentStatuses = ['draft', 'queued', 'processing', 'processed', 'skipped', 'error'] as const;
export type ContentStatus = (typeof contentStatuses)[number];


/** The item's fields, with manual segments as asked for kept apart from the generated, timed ones. */
export type ContentItemView = Omit<ContentFields, 'segments' | 'metadata'> & {
  requestedSegments?: ContentFields['segments'];
  /**
   * The free-form `metadata` as JSON text: kept opaque, so every read store holds it exactly (FerretDB refuses
   * nested arrays, which free-form values may have) and no filter ever reaches into it.
   */
  metadataJson?: string | null;
  _id: string;
  revision: number;
  projectId: number;
  legacyId: number;
  contentType: ContentType;
  status: ContentStatus;
  previewToken: string;
  generation: number;
  audio: MediaFileRecord[];
  video: MediaFileRecord[];
  segments: Record<string, unknown>[];
  summarySegments?: Record<string, unknown>[];
  duration: number | null;
  error: string | null;
  created: string;
  updated: string;
};

export const contentIndexes: IndexSpec[] = [
  { name: 'project', keys: { projectId: 1 } },
  { name: 'project_created', keys: { projectId: 1, created: -1 } },
  { name: 'project_source_id', keys: { projectId: 1, sourceId: 1 } },
  { name: 'project_legacy_id', keys: { projectId: 1, legacyId: 1 } },
  { name: 'project_source_url', keys: { projectId: 1, sourceUrl: 1 } },
  // The other orders of list and project statistics.
  { name: 'project_publish_date', keys: { projectId: 1, publishDate: -1 } },
  { name: 'project_updated', keys: { projectId: 1, updated: -1 } },
  { name: 'project_status', keys: { projectId: 1, status: 1 } },
  { name: 'project_duration', keys: { projectId: 1, duration: -1 } },
  // Players and feeds: published, processed items newest first; playlists selecting by tag.
  { name: 'project_published', keys: { projectId: 1, status: 1, published: 1, created: -1 } },
  { name: 'project_tags', keys: { projectId: 1, tags: 1 } },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves a route's `{id}`: a UUID is the item id; anything else is first a `source_id`
 * (clients use their own post ids, often numeric), then a legacy numeric id.
 */
export async function findContent(read: ReadStore, projectId: number, ref: string): Promise<ContentItemView | null> {
  const items = read.collection<ContentItemView>(CONTENT_ITEMS);
  if (UUID.test(ref)) {
    // By _id alone, then checked: the cheapest lookup on every store.
    const item = await items.findOne({ _id: ref.toLowerCase() });
    return item?.projectId === projectId ? item : null;
  }
  const bySource = await items.findOne({ projectId, sourceId: ref });
  if (bySource || !/^\d{1,15}$/.test(ref)) return bySource;
  return items.findOne({ projectId, legacyId: Number(ref) });
}

export interface ContentListQuery {
  filter: Filter;
  sort: Sort;
  offset: number;
  limit: number;
}

export function listContent(read: ReadStore, projectId: number, query: ContentListQuery): Promise<ContentItemView[]> {
  return read
    .collection<ContentItemView>(CONTENT_ITEMS)
    .find({ ...query.filter, projectId }, { sort: query.sort, skip: query.offset, limit: query.limit });
}

export async function contentStatsOf(read: ReadStore, projectId: number): Promise<{ total: number; lastUpdated: string | null }> {
  const items = read.collection<ContentItemView>(CONTENT_ITEMS);
  const [total, latest] = await Promise.all([
    items.count({ projectId }),
    items.find({ projectId }, { sort: { updated: -1 }, limit: 1 }),
  ]);
  return { total, lastUpdated: latest[0]?.updated ?? null };
}
