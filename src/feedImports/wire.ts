// The feed import's wire formats: zod schemas, the source of the OpenAPI document, and their mapping.
import { z } from 'zod';
import { timestamp, urlText } from '../shared/wireResponses.ts';
import { feedElements, mappedFields } from './commands.ts';
import type { FeedImportView } from './readModel.ts';

const element = z.enum(feedElements).nullable();

const fieldMapWire = z
  .object(Object.fromEntries(mappedFields.map((field) => [field, element])) as Record<(typeof mappedFields)[number], typeof element>)
  .describe("The feed's element for each of our fields; null: the default of the feed's format (docs/feeds.md)");

const runErrorWire = z.object({
  item: z.string().nullable().describe("The entry's id; null when the whole feed failed"),
  message: z.string(),
});

export const runCountsWire = z
  .object({
    imported: z.number().int().min(0).describe('Items created'),
    updated: z.number().int().min(0).describe('Items whose entry changed'),
    skipped: z.number().int().min(0).describe('Entries unchanged since their item was made'),
    errors: z.array(runErrorWire).describe('Entries (or the feed) that could not be imported; at most 100'),
  })
  .meta({ id: 'FeedImportRun' });

const lastRunWire = runCountsWire.extend({ started: timestamp, finished: timestamp }).nullable();

export const feedImportWire = z
  .object({
    id: z.number().int().min(1),
    url: urlText,
    enabled: z.boolean(),
    field_map: fieldMapWire,
    fetch_full_article: z.boolean(),
    publish: z.boolean(),
    request_headers: z.record(z.string(), z.string()),
    last_run: lastRunWire.describe('The last finished run; null before the first'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'FeedImport' });
export type FeedImportWire = z.infer<typeof feedImportWire>;

export const feedTestWire = z
  .object({
    items: z.array(
      z.object({ source_id: z.string(), title: z.string().nullable(), source_url: urlText.nullable(), publish_date: timestamp.nullable() }),
    ),
  })
  .meta({ id: 'FeedImportTest' });
export type FeedTestWire = z.infer<typeof feedTestWire>;

export function feedImportToWire(view: FeedImportView): FeedImportWire {
  return {
    id: view.id,
    url: view.url,
    enabled: view.enabled,
    field_map: Object.fromEntries(mappedFields.map((field) => [field, view.fieldMap[field] ?? null])) as FeedImportWire['field_map'],
    fetch_full_article: view.fetchFullArticle,
    publish: view.publish,
    request_headers: view.requestHeaders,
    last_run: view.lastRun,
    created: view.created,
    updated: view.updated,
  };
}
