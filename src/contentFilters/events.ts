// The facts of content filters (`content_filter-<id>`).
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { ContentFilterWireFields } from './commands.ts';

export type ContentFilterFields = CamelKeys<ContentFilterWireFields>;

export type ContentFilterCreated = {
  type: 'ContentFilterCreated';
  data: { contentFilterId: number; projectId: number; fields: ContentFilterFields; created: string };
};
export type ContentFilterUpdated = { type: 'ContentFilterUpdated'; data: { changes: Partial<ContentFilterFields>; updated: string } };
export type ContentFilterDeleted = { type: 'ContentFilterDeleted'; data: { deleted: string } };

export type ContentFilterEvent = ContentFilterCreated | ContentFilterUpdated | ContentFilterDeleted;

export const contentFilterStream = (contentFilterId: number) => `content_filter-${contentFilterId}`;
