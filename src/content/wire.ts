// The one mapping from the content read model to the spec's wire format, and of list queries to read-model queries.
import { z } from 'zod';
import { snakeKeys } from '../shared/caseMapping.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { queryBoolean, queryDateTime, queryInt } from '../shared/wireSchemas.ts';
import { segmentsDetail, type SegmentsDetail } from './commands.ts';
import { contentStatuses, type ContentItemView, type ContentListQuery } from './readModel.ts';
import type { MediaFileRecord } from './events.ts';

const internal = new Set(['_id', 'revision', 'projectId', 'contentType', 'duration', 'segments', 'summarySegments', 'requestedSegments', 'generation', 'error']);

export interface Detail {
  segments: SegmentsDetail;
  words: SegmentsDetail;
}

/** Media URLs are stored as paths, so a change of host name needs no rewrite of history. */
const absolute = (files: MediaFileRecord[], baseUrl: string) => files.map((file) => ({ ...file, url: `${baseUrl}${file.url}` }));

export function contentToWire(item: ContentItemView, detail: Detail, baseUrl: string): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(item).filter(([key]) => !internal.has(key)));
  return {
    id: item._id,
    type: item.contentType,
    ...snakeKeys(fields),
    audio: absolute(item.audio, baseUrl),
    video: absolute(item.video, baseUrl),
    duration: item.duration,
    audio_with_intro_outro: [],
    summarization: {},
    segments: segmentsAt(item.segments, detail),
    error: item.error,
  };
}

/** `segments=partial` leaves out each segment's text; words come only with `words=partial` or `full`. */
function segmentsAt(segments: Record<string, unknown>[], detail: Detail) {
  if (detail.segments === 'none') return null;
  const hidden = new Set([...(detail.segments === 'full' ? [] : ['text']), ...(detail.words === 'none' ? ['words'] : [])]);
  return segments.map((segment) => Object.fromEntries(Object.entries(segment).filter(([key]) => !hidden.has(key))));
}

export const detailQuery = z.object({ segments: segmentsDetail.default('partial'), words: segmentsDetail.default('none') });

/** Page size when `pagination[limit]` is not given, and the largest one allowed. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const orderFields = { created: 'created', publish_date: 'publishDate', duration: 'duration', published: 'published', status: 'status' } as const;

const listQuerySchema = z.object({
  segments: segmentsDetail.default('partial'),
  words: segmentsDetail.default('none'),
  'filter[id]': z.string().max(255).optional(),
  'filter[source_id]': z.string().max(255).optional(),
  'filter[source_url]': z.string().max(2048).optional(),
  'filter[title]': z.string().max(500).optional(),
  'filter[body]': z.string().max(1000).optional(),
  'filter[published]': queryBoolean.optional(),
  'filter[video_published]': queryBoolean.optional(),
  'filter[statuses][]': z.array(z.enum(contentStatuses)).optional(),
  'filter[created][from]': queryDateTime.optional(),
  'filter[created][to]': queryDateTime.optional(),
  'filter[updated][from]': queryDateTime.optional(),
  'filter[updated][to]': queryDateTime.optional(),
  'filter[publish_date][from]': queryDateTime.optional(),
  'filter[publish_date][to]': queryDateTime.optional(),
  'pagination[limit]': queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  'pagination[offset]': queryInt(0, 1_000_000_000).default(0),
  'order[by]': z.enum(['created', 'publish_date', 'duration', 'published', 'status']).default('created'),
  'order[dir]': z.enum(['asc', 'desc']).default('desc'),
});

export type ContentListWireQuery = z.input<typeof listQuerySchema>;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const contains = (text: string) => ({ $regex: escapeRegex(text), $options: 'i' });
const range = (from?: string, to?: string) =>
  from || to ? { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) } : undefined;

export function parseListQuery(raw: Record<string, unknown>): ContentListQuery & { detail: Detail } {
  const q = parseOrThrow(listQuerySchema, raw, 'Invalid query parameters');
  const filter: Record<string, unknown> = {
    _id: q['filter[id]'],
    sourceId: q['filter[source_id]'],
    sourceUrl: q['filter[source_url]'],
    title: q['filter[title]'] === undefined ? undefined : contains(q['filter[title]']),
    body: q['filter[body]'] === undefined ? undefined : contains(q['filter[body]']),
    published: q['filter[published]'],
    videoPublished: q['filter[video_published]'],
    status: q['filter[statuses][]'] ? { $in: q['filter[statuses][]'] } : undefined,
    created: range(q['filter[created][from]'], q['filter[created][to]']),
    updated: range(q['filter[updated][from]'], q['filter[updated][to]']),
    publishDate: range(q['filter[publish_date][from]'], q['filter[publish_date][to]']),
  };
  const direction = q['order[dir]'] === 'asc' ? 1 : -1;
  return {
    filter: Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)),
    // legacyId follows creation order, so pages stay stable when the ordered field ties.
    sort: { [orderFields[q['order[by]']]]: direction, legacyId: direction },
    offset: q['pagination[offset]'],
    limit: q['pagination[limit]'],
    detail: { segments: q.segments, words: q.words },
  };
}
