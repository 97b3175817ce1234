// Reading a feed: one guarded, conditional GET within size and time limits, then RSS 2.0, Atom or JSON Feed parsed
// by feedsmith into entries, each field taken from the element the import's map names (or its format's default).
import { parseFeed } from 'feedsmith';
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { mappedFields, type FeedElement, type FieldMap, type MappedField } from './commands.ts';
import type { Validators } from './events.ts';

export interface FeedFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** One entry, our fields filled; null where the feed has nothing. */
export type FeedEntry = Record<MappedField, string | null>;

export type FeedFormat = 'rss' | 'atom' | 'json';

export type FeedRead =
  | { kind: 'unchanged' }
  | { kind: 'feed'; format: FeedFormat; entries: FeedEntry[]; validators: Validators | null };

/** A feed that cannot be read: its message is what a person can act on. */
export class FeedProblem extends Error {
  override readonly name = 'FeedProblem';
}

/** The elements tried in order for each field when the map names none. */
const defaults: Record<FeedFormat, Record<MappedField, FeedElement[]>> = {
  rss: {
    body: ['content:encoded', 'description'],
    source_id: ['guid', 'link'],
    title: ['title'],
    source_url: ['link'],
    summary: [],
    author: ['dc:creator', 'author'],
    image_url: ['media:thumbnail', 'media:content', 'enclosure'],
    publish_date: ['pubDate', 'dc:date'],
  },
  atom: {
    body: ['content', 'summary'],
    source_id: ['id'],
    title: ['title'],
    source_url: ['link'],
    summary: ['summary'],
    author: ['author'],
    image_url: ['media:thumbnail', 'media:content'],
    publish_date: ['published', 'updated'],
  },
  json: {
    body: ['content_html', 'content_text'],
    source_id: ['id'],
    title: ['title'],
    source_url: ['url', 'external_url'],
    summary: ['summary'],
    author: ['authors'],
    image_url: ['image', 'banner_image'],
    publish_date: ['date_published', 'date_modified'],
  },
};

type Raw = Record<string, any>;
type Reader = (entry: Raw) => unknown;

const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const nameOf = (person: unknown) => (typeof person === 'string' ? person : (person as { name?: string } | undefined)?.name);
const imageUrl = (media: Raw | undefined) => (media && (!media.type || String(media.type).startsWith('image/')) ? media.url : undefined);

/** How each element is read from feedsmith's entry of each format. */
const readers: Record<FeedFormat, Partial<Record<FeedElement, Reader>>> = {
  rss: {
    title: (e) => e.title,
    link: (e) => e.link,
    description: (e) => e.description,
    'content:encoded': (e) => e.content?.encoded,
    guid: (e) => e.guid?.value ?? e.guid,
    pubDate: (e) => e.pubDate,
    author: (e) => nameOf(first(e.authors)),
    'dc:creator': (e) => first(e.dc?.creators) ?? e.dc?.creator,
    'dc:date': (e) => first(e.dc?.dates) ?? e.dc?.date,
    enclosure: (e) => imageUrl(first(e.enclosures)),
    'media:thumbnail': (e) => first(e.media?.thumbnails)?.url,
    'media:content': (e) => (e.media?.contents as Raw[] | undefined)?.find((c) => !c.medium || c.medium === 'image')?.url,
    comments: (e) => e.comments,
  },
  atom: {
    title: (e) => e.title?.value ?? e.title,
    id: (e) => e.id,
    link: (e) => ((e.links as Raw[] | undefined)?.find((l) => !l.rel || l.rel === 'alternate') ?? first(e.links))?.href,
    content: (e) => e.content?.value ?? e.content,
    summary: (e) => e.summary?.value ?? e.summary,
    author: (e) => nameOf(first(e.authors)),
    published: (e) => e.published,
    updated: (e) => e.updated,
    'media:thumbnail': (e) => first(e.media?.thumbnails)?.url,
    'media:content': (e) => (e.media?.contents as Raw[] | undefined)?.find((c) => !c.medium || c.medium === 'image')?.url,
  },
  json: {
    id: (e) => (e.id === undefined ? undefined : String(e.id)),
    url: (e) => e.url,
    external_url: (e) => e.external_url,
    title: (e) => e.title,
    content_html: (e) => e.content_html,
    content_text: (e) => e.content_text,
    summary: (e) => e.summary,
    image: (e) => e.image,
    banner_image: (e) => e.banner_image,
    date_published: (e) => e.date_published,
    date_modified: (e) => e.date_modified,
    authors: (e) => nameOf(first(e.authors)) ?? nameOf(e.author),
  },
};

/** The entries of a feed document; FeedProblem when it is no feed, is malformed or declares XML entities. */
export function parseEntries(text: string, map: FieldMap): { format: FeedFormat; entries: FeedEntry[] } {
  // feedsmith never expands entities (its parser runs with processEntities off), but a document that declares
  // them is built to expand (billion laughs) or to read files and addresses (external entities): it is refused.
  if (/<!ENTITY/i.test(text)) throw new FeedProblem('the feed declares XML entities (<!ENTITY>), which are refused');
  let parsed: { format: string; feed: Raw };
  try {
    parsed = parseFeed(text) as { format: string; feed: Raw };
  } catch (error) {
    const detail = (error as Error).name === 'DetectError' ? 'it is not an RSS 2.0, Atom or JSON Feed document' : 'it is malformed';
    throw new FeedProblem(`the feed could not be read: ${detail}`);
  }
  if (parsed.format !== 'rss' && parsed.format !== 'atom' && parsed.format !== 'json') {
    throw new FeedProblem(`the feed is ${parsed.format.toUpperCase()}, not RSS 2.0, Atom or JSON Feed`);
  }
  const format = parsed.format;
  const raw = ((format === 'atom' ? parsed.feed.entries : parsed.feed.items) ?? []) as Raw[];
  return { format, entries: raw.map((entry) => entryOf(format, entry, map)) };
}

function entryOf(format: FeedFormat, entry: Raw, map: FieldMap): FeedEntry {
  const value = (field: MappedField): string | null => {
    const chosen = map[field];
    for (const element of chosen ? [chosen] : defaults[format][field]) {
      const found = readers[format][element]?.(entry);
      if (typeof found === 'string' && found.trim() !== '') return found.trim();
    }
    return null;
  };
  return Object.fromEntries(mappedFields.map((field) => [field, value(field)])) as FeedEntry;
}

/** Fetches the feed through the guarded fetcher; `unchanged` when the server answers 304 to the validators. */
export async function readFeed(
  url: string,
  settings: { requestHeaders: Record<string, string>; fieldMap: FieldMap },
  validators: Validators | null,
  limits: FeedFetchLimits,
): Promise<FeedRead> {
  const headers: Record<string, string> = {
    accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1',
    'user-agent': 'NarrationService-FeedImporter/1.0',
    ...settings.requestHeaders,
  };
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  let text: string;
  let response;
  try {
    response = await guardedFetch(url, { headers, ...limits });
    if (response.status === 304 && validators) {
      response.body.destroy();
      return { kind: 'unchanged' };
    }
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new FeedProblem(`the feed's server answered HTTP ${response.status}`);
    }
    text = decode(Buffer.concat(await response.body.toArray()), String(response.headers['content-type'] ?? ''));
  } catch (error) {
    if (error instanceof FetchError) throw new FeedProblem(`the feed could not be fetched: ${error.message}`);
    throw error;
  }
  const etag = one(response.headers.etag);
  const lastModified = one(response.headers['last-modified']);
  const { format, entries } = parseEntries(text, settings.fieldMap);
  return { kind: 'feed', format, entries, validators: etag || lastModified ? { etag, lastModified } : null };
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** The body as text: the charset of the Content-Type, else of the XML declaration, else UTF-8 (a BOM wins). */
function decode(bytes: Buffer, contentType: string): string {
  const declared = /charset="?([\w-]+)/i.exec(contentType)?.[1] ?? /^\s*<\?xml[^>]*encoding=["']([\w-]+)/i.exec(bytes.subarray(0, 200).toString('latin1'))?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}
