// The facts of a content item's life, stored on its stream `content-<uuid>`.
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { ContentType, ContentWireFields } from './commands.ts';

export type ContentFields = CamelKeys<ContentWireFields>;

export type ContentCreated = {
  type: 'ContentCreated';
  data: { contentId: string; projectId: number; contentType: ContentType; fields: ContentFields; previewToken: string; created: string };
};
export type ContentUpdated = { type: 'ContentUpdated'; data: { changes: Partial<ContentFields>; updated: string } };
export type ContentDeleted = { type: 'ContentDeleted'; data: { deleted: string } };
/**
 * An AI script summary became the item's summary: `changes` as in ContentUpdated (its `summary`, or its summary
 * segments for a manual_segment item, `aiSummaryPrompt`, `summaryEnabled`), with the model that wrote it and a digest
 * of the text it summarized (src/summaries/source.ts), which tells whether the text changed since.
 */
export type ContentSummarized = {
  type: 'ContentSummarized';
  data: { changes: Partial<ContentFields>; model: string; sourceDigest: string; summarized: string };
};

/** Generation N of an item's media; creation asks for generation 1, each regeneration for the next. */
export type ContentRegenerationRequested = { type: 'ContentRegenerationRequested'; data: { generation: number; requested: string } };
export type ContentProcessingStarted = { type: 'ContentProcessingStarted'; data: { generation: number; started: string } };
/**
 * The article's HLS playlist, still growing, lists its first segment: players can start listening before the
 * generation ends. `media` keeps its id and URL in the completed set; its duration is 0 (not known yet).
 */
export type ContentStreamStarted = { type: 'ContentStreamStarted'; data: { generation: number; media: MediaFileRecord; started: string } };
/** `videoPublished`: recorded since video is rendered; older events leave the item's value as it was. */
export type ContentProcessed = {
  type: 'ContentProcessed';
  data: { generation: number; media: GeneratedMedia; published: boolean; videoPublished?: boolean; processed: string };
};
export type ContentProcessingFailed = { type: 'ContentProcessingFailed'; data: { generation: number; reason: string; failed: string } };
/**
 * What the page at the item's `source_url` gave for generation N: the fields the client left empty, filled from the
 * article and the page's metadata. Each fills a field only while the client has not given it (see `withExtracted`).
 */
export type ContentExtracted = { type: 'ContentExtracted'; data: { generation: number; url: string; fields: ExtractedFields; extracted: string } };
export type ExtractedFields = Partial<Pick<ContentFields, 'title' | 'body' | 'author' | 'publishDate'>>;
export type ContentSkipped = { type: 'ContentSkipped'; data: { generation: number; reason: string; skipped: string } };

export interface MediaFileRecord {
  id: number;
  content_type: string;
  url: string;
  duration: number;
  variant: 'article' | 'summary';
  /** Video files only: the frame size it was rendered in. */
  video_size?: { name: string; width: number; height: number };
}

export interface GeneratedMedia {
  audio: MediaFileRecord[];
  video: MediaFileRecord[];
  /** The article with the project's intro and outro around it (absent from facts recorded before they existed). */
  audioWithIntroOutro?: MediaFileRecord[];
  segments: Record<string, unknown>[];
  summarySegments: Record<string, unknown>[];
  duration: number;
}

export type ContentEvent =
  | ContentCreated
  | ContentUpdated
  | ContentDeleted
  | ContentSummarized
  | ContentRegenerationRequested
  | ContentProcessingStarted
  | ContentStreamStarted
  | ContentProcessed
  | ContentProcessingFailed
  | ContentSkipped
  | ContentExtracted;

export const contentStream = (contentId: string) => `content-${contentId}`;

/** `source_id` is unique per project: a claim stream per (project, source id) says which item holds it. */
export type SourceIdClaimed = { type: 'SourceIdClaimed'; data: { projectId: number; sourceId: string; contentId: string; claimed: string } };
export type SourceIdReleased = { type: 'SourceIdReleased'; data: { contentId: string } };
export type SourceIdEvent = SourceIdClaimed | SourceIdReleased;

/** The fields extraction fills, when the client gave none. */
export const extractedFieldNames = ['title', 'body', 'author', 'publishDate'] as const;

/**
 * The item's fields with what extraction found filling the ones the client left empty (or had filled by an earlier
 * extraction): `given` are the client's fields, `fromPage` the latest ContentExtracted's.
 */
export function withExtracted<T extends Partial<ContentFields>>(given: T, fromPage: ExtractedFields | null): T {
  if (!fromPage) return given;
  const merged: Record<string, unknown> = { ...given };
  for (const name of extractedFieldNames) {
    const value = fromPage[name];
    if (value != null && (given[name] == null || given[name] === '')) merged[name] = value;
  }
  return merged as T;
}
