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

export type ContentEvent = ContentCreated | ContentUpdated | ContentDeleted;

export const contentStream = (contentId: string) => `content-${contentId}`;

/** `source_id` is unique per project: a claim stream per (project, source id) says which item holds it. */
export type SourceIdClaimed = { type: 'SourceIdClaimed'; data: { projectId: number; sourceId: string; contentId: string; claimed: string } };
export type SourceIdReleased = { type: 'SourceIdReleased'; data: { contentId: string } };
export type SourceIdEvent = SourceIdClaimed | SourceIdReleased;
