// What clients may send to create, update or test a feed import, as zod schemas of the wire format (snake_case).
import { z } from 'zod';
import { chosenHeaders, httpUrl } from '../shared/wireSchemas.ts';

/** Our fields an entry fills, in the order of the wire's `field_map`. */
export const mappedFields = ['body', 'source_id', 'title', 'source_url', 'summary', 'author', 'image_url', 'publish_date'] as const;
export type MappedField = (typeof mappedFields)[number];

/** The elements of an entry a `field_map` may name: RSS 2.0 (with its common namespaces), Atom and JSON Feed. */
export const feedElements = [
  // RSS 2.0
  'title', 'link', 'description', 'content:encoded', 'guid', 'pubDate', 'author', 'dc:creator', 'dc:date', 'enclosure', 'media:thumbnail', 'media:content', 'comments',
  // Atom
  'id', 'content', 'summary', 'published', 'updated',
  // JSON Feed
  'url', 'external_url', 'content_html', 'content_text', 'image', 'banner_image', 'date_published', 'date_modified', 'authors',
] as const;
export type FeedElement = (typeof feedElements)[number];

/** Headers the fetch sets itself (conditional GET, framing) or that would change where or how it goes. */
const reservedHeaders = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'if-none-match', 'if-modified-since', 'accept-encoding']);

const requestHeaders = chosenHeaders((name) => reservedHeaders.has(name) || name.startsWith('proxy-'), 'is reserved: the importer sets it')
  .describe('Sent with every fetch of the feed (a token, a cookie); the conditional GET headers are the importer\'s own');

/** A partial map: a field left out (or null) takes the default of the feed's format. */
const fieldMap = z
  .object(Object.fromEntries(mappedFields.map((field) => [field, z.enum(feedElements).nullable().optional()])) as Record<MappedField, z.ZodOptional<z.ZodNullable<z.ZodEnum<{ [K in FeedElement]: K }>>>>)
  .strict()
  .describe("The feed's own element for each of our fields; a field left out or null takes its format's default (docs/feeds.md)");

const fields = {
  url: httpUrl.describe('The RSS 2.0, Atom or JSON Feed document'),
  enabled: z.boolean().describe('Imported every 10 minutes while true'),
  field_map: fieldMap,
  fetch_full_article: z.boolean().describe("Create each item from its entry's page (extracted) rather than from the entry's body"),
  publish: z.boolean().describe('Items are created published'),
  request_headers: requestHeaders,
};

export const createFeedImportSchema = z.object({
  ...fields,
  enabled: fields.enabled.default(true),
  field_map: fieldMap.default({}),
  fetch_full_article: fields.fetch_full_article.default(false),
  publish: fields.publish.default(true),
  request_headers: requestHeaders.default({}),
});
export const updateFeedImportSchema = z.object(fields).partial();

export type FeedImportWireFields = z.infer<typeof createFeedImportSchema>;
export type FieldMap = FeedImportWireFields['field_map'];
