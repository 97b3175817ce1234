// The content item read model: its document type and the queries the API makes of it.
import type { Filter, IndexSpec, ReadStore, Sort } from '../infrastructure/readStore/port.ts';
import type { ContentType } from './commands.ts';
import type { ContentFields, MediaFileRecord } from './events.ts';
import type { SearchText } from './search.ts';

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
  /** Fields the item's page filled (ContentExtracted) rather than the client: the next extraction may replace them. */
  extractedNames?: string[];
  /** The words of the title and body, for `filter[title]` and `filter[body]` (see search.ts). */
  searchText?: SearchText;
  _id: string;
  revision: number;
  projectId: number;
  legacyId: number;
  contentType: ContentType;
  status: ContentStatus;
  previewToken: string;
  generation: number;
  audio: MediaFileRecord[];
  /** While processing, the growing playlist of the generation being made (ContentStreamStarted); answered as `audio`. */
  liveAudio?: MediaFileRecord | null;
  video: MediaFileRecord[];
  /** The article with the project's intro and outro around it; absent from documents projected before they existed. */
  audioWithIntroOutro?: MediaFileRecord[];
  segments: Record<string, unknown>[];
  summarySegments?: Record<string, unknown>[];
  duration: number | null;
  error: string | null;
  created: string;
  updated: string;
};

/**
 * Every list order ends with the tie-breaker the lists sort by (`legacyId`, in the order's direction), so a page is
 * a walk of one index: no run of equal values is sorted per request. Names differ from the indexes they replace, so
 * a MongoDB database of an older release gets them beside its old ones instead of refusing a redefinition.
 */
export const contentIndexes: IndexSpec[] = [
  { name: 'project_created_legacy_id', keys: { projectId: 1, created: -1, legacyId: -1 } },
  { name: 'project_source_id', keys: { projectId: 1, sourceId: 1 } },
  { name: 'project_legacy_id', keys: { projectId: 1, legacyId: 1 } },
  { name: 'project_source_url', keys: { projectId: 1, sourceUrl: 1 } },
  // `created` last: a `filter[publish_date]` range sorted newest first reads the index alone, no row per match.
  { name: 'project_publish_date_legacy_id_created', keys: { projectId: 1, publishDate: -1, legacyId: -1, created: -1 } },
  { name: 'project_duration_legacy_id', keys: { projectId: 1, duration: -1, legacyId: -1 } },
  { name: 'project_published_legacy_id', keys: { projectId: 1, published: 1, legacyId: 1 } },
  { name: 'project_status_legacy_id', keys: { projectId: 1, status: 1, legacyId: 1 } },
  // The `filter[updated]` range (sorted newest first from the index alone), and the newest update of a project when
  // its newest item leaves (projection statistics).
  { name: 'project_updated_created_legacy_id', keys: { projectId: 1, updated: -1, created: -1, legacyId: -1 } },
  // Players and feeds: published, processed items newest first; playlists selecting by tag.
  { name: 'project_feed', keys: { projectId: 1, status: 1, published: 1, created: -1, legacyId: -1 } },
  { name: 'project_tags', keys: { projectId: 1, tags: 1 } },
  // Unfinished items of every project, which the generation reactor resumes at start.
  { name: 'status_legacy_id', keys: { status: 1, legacyId: 1 } },
];

/** Per project, kept by the contentItems projection: what `content_total_count` and `content_updated` show. */
export const CONTENT_STATS = 'contentStats';

export type ContentStatsView = {
  _id: string;
  projectId: number;
  /** Items the project holds. */
  total: number;
  /** The newest `updated` among them. */
  lastUpdated: string | null;
  /** The last event applied to these numbers: a replayed event finds it and leaves them alone. */
  position: number;
};

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

/** Offsets below this are walked as they are: the statistics read would cost more than it saves. */
const FAR_OFFSET = 1_000;

const reversed = (sort: Sort): Sort => Object.fromEntries(Object.entries(sort).map(([field, direction]) => [field, direction === 1 ? -1 : 1]));

/**
 * A page of the list. A page past the middle of an unfiltered list is read from the other end (the sort reversed,
 * then the page): the count kept by the projection says where that end is, and the sort ends with the unique
 * `legacyId`, so the reversed order is exactly the reverse. An offset then costs at most half the project.
 */
export async function listContent(read: ReadStore, projectId: number, query: ContentListQuery): Promise<ContentItemView[]> {
  const items = read.collection<ContentItemView>(CONTENT_ITEMS);
  const filter = { ...query.filter, projectId };
  if (query.offset >= FAR_OFFSET && Object.keys(query.filter).length === 0) {
    const { total } = await contentStatsOf(read, projectId);
    if (query.offset > total / 2) {
      const end = Math.min(total, query.offset + query.limit);
      if (end <= query.offset) return [];
      return (await items.find(filter, { sort: reversed(query.sort), skip: total - end, limit: end - query.offset })).reverse();
    }
  }
  return items.find(filter, { sort: query.sort, skip: query.offset, limit: query.limit });
}

/** The project's item count and newest update, as the projection keeps them: one lookup, whatever the project's size. */
export async function contentStatsOf(read: ReadStore, projectId: number): Promise<{ total: number; lastUpdated: string | null }> {
  const stats = await read.collection<ContentStatsView>(CONTENT_STATS).findOne({ _id: String(projectId) });
  return { total: stats?.total ?? 0, lastUpdated: stats?.lastUpdated ?? null };
}
