// What a publishing platform's post delivery asks for, read from Ghost's or WordPress's own payload: pure.
import { z } from 'zod';
import { invalid } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import type { CmsPlatform } from './settings.ts';

/** The item fields a post gives, in the content API's wire format; a field the post lacks is left out. */
export interface PostFields {
  title?: string;
  body?: string;
  source_url?: string;
  author?: string;
  image_url?: string;
  publish_date?: string;
  tags?: string[];
}

/**
 * `publish`: the post is live (published, or edited while published); `schedule`: it goes live at `publish_date`;
 * `unpublish`: it went back to a draft (or the trash); `delete`: it is gone; `ignore`: a draft, nothing to narrate.
 */
export type PostChange =
  | { kind: 'publish' | 'schedule'; sourceId: string; fields: PostFields }
  | { kind: 'unpublish' | 'delete' | 'ignore'; sourceId: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A decoration the post may carry in a form we cannot use (a relative image path): left out, never a refusal. */
const lenient = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);
const absoluteUrl = z.url({ protocol: /^https?$/ }).max(2048);
const text = (max: number) => z.string().max(max);
const sourceId = z.union([z.string().trim().min(1).max(255), z.number().int().min(1).transform(String)]);

const ghostPost = z.object({
  id: sourceId,
  status: text(50),
  title: text(500).nullish(),
  html: text(1_000_000).nullish(),
  url: lenient(absoluteUrl),
  feature_image: lenient(absoluteUrl),
  published_at: lenient(z.iso.datetime({ offset: true })),
  primary_author: lenient(z.object({ name: text(500).nullish() })),
  tags: lenient(z.array(z.object({ name: text(100) })).max(100)),
});
type GhostPost = z.infer<typeof ghostPost>;

const ghostDelivery = z.object({
  post: z.object({ current: z.record(z.string(), z.unknown()), previous: z.record(z.string(), z.unknown()).optional() }),
});

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';
/** Left out when empty, so the content API's own defaults (or the page's extraction) decide. */
function compact(fields: Record<string, string | string[] | null | undefined>): PostFields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => (Array.isArray(value) ? true : present(value)))) as PostFields;
}

const iso = (value: string | null | undefined) => (present(value) ? new Date(value).toISOString() : undefined);

function ghostFields(post: GhostPost): PostFields {
  return compact({
    title: post.title,
    body: post.html,
    source_url: post.url,
    author: post.primary_author?.name,
    image_url: post.feature_image,
    publish_date: iso(post.published_at),
    tags: post.tags ? post.tags.map((tag) => tag.name).filter(present) : undefined,
  });
}

/**
 * Ghost names no event in its body: `current` is the post now and `previous` holds only the attributes that
 * changed. A deleted post is only in `previous`; a status that moved away from published or scheduled unpublishes.
 */
export function readGhostPost(body: unknown): PostChange {
  const { post } = parseOrThrow(ghostDelivery, body);
  const previous = post.previous ?? {};
  if (Object.keys(post.current).length === 0) {
    const gone = parseOrThrow(ghostPost.pick({ id: true }), previous);
    return { kind: 'delete', sourceId: gone.id };
  }
  const current = parseOrThrow(ghostPost, post.current);
  const was = typeof previous.status === 'string' ? previous.status : current.status;
  switch (current.status) {
    case 'published':
      return { kind: 'publish', sourceId: current.id, fields: ghostFields(current) };
    case 'scheduled':
      return { kind: 'schedule', sourceId: current.id, fields: ghostFields(current) };
    default:
      return { kind: was === 'published' || was === 'scheduled' ? 'unpublish' : 'ignore', sourceId: current.id };
  }
}

const rendered = z.object({ rendered: z.string().max(1_000_000) });
/** WordPress writes GMT times without a zone (`2024-03-01T09:30:00`, `2024-03-01 09:30:00`); a draft's is empty or zero. */
const gmtDate = z
  .string()
  .max(40)
  .nullish()
  .transform((value, ctx) => {
    if (!value || value.startsWith('0000-00-00')) return undefined;
    const date = new Date(`${value.replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be a date and time' });
      return z.NEVER;
    }
    return date.toISOString();
  });

/** The REST API's post object (`/wp-json/wp/v2/posts/{id}`), as webhook plugins send it; `_embed` adds names. */
const wordpressRestPost = z.object({
  id: sourceId,
  status: text(50),
  link: lenient(absoluteUrl),
  date_gmt: gmtDate,
  title: rendered.nullish(),
  content: rendered.nullish(),
  _embedded: lenient(
    z.object({
      author: lenient(z.array(z.object({ name: text(500).nullish() }))),
      'wp:featuredmedia': lenient(z.array(z.object({ source_url: lenient(absoluteUrl) }))),
    }),
  ),
});

/** The `WP_Post` row as WP Webhooks' post triggers send it, with the permalink and thumbnail beside it. */
const wordpressHookPost = z.object({
  post: z.object({
    ID: sourceId,
    post_status: text(50),
    post_title: text(1_000_000).nullish(),
    post_content: text(1_000_000).nullish(),
    post_date_gmt: gmtDate,
  }),
  post_permalink: lenient(absoluteUrl),
  post_thumbnail: lenient(absoluteUrl),
});

/** The REST API's answer to a permanent delete: the post as it was. */
const wordpressDeleted = z.object({ deleted: z.literal(true), previous: z.object({ id: sourceId }) });

/** Titles arrive rendered: `Harbour&#8217;s line` is `Harbour’s line`. */
function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', hellip: '…', ndash: '–', mdash: '—' };
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return named[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .trim();
}

function wordpressChange(id: string, status: string, fields: PostFields): PostChange {
  switch (status) {
    case 'publish':
      return { kind: 'publish', sourceId: id, fields };
    case 'future':
      return { kind: 'schedule', sourceId: id, fields };
    case 'draft':
    case 'pending':
    case 'private':
    case 'trash':
      return { kind: 'unpublish', sourceId: id };
    default:
      return { kind: 'ignore', sourceId: id };
  }
}

/**
 * WordPress sends no webhooks itself; its webhook plugins send either the REST post object or WP Webhooks' `post`
 * row. The post's `status` says what happened: `publish`, `future` (scheduled), or back to draft, pending, private
 * or the trash; a permanent delete is the REST API's `{deleted: true, previous}`.
 */
export function readWordpressPost(body: unknown): PostChange {
  if (!isObject(body)) throw invalid([{ location: 'body', message: 'must be a JSON object' }]);
  if ('deleted' in body) return { kind: 'delete', sourceId: parseOrThrow(wordpressDeleted, body).previous.id };
  if (isObject(body.post)) {
    const { post, post_permalink: link, post_thumbnail: thumbnail } = parseOrThrow(wordpressHookPost, body);
    const fields = compact({
      title: post.post_title ? decodeEntities(post.post_title) : null,
      body: post.post_content,
      source_url: link,
      image_url: thumbnail,
      publish_date: post.post_date_gmt,
    });
    return wordpressChange(post.ID, post.post_status, fields);
  }
  const post = parseOrThrow(wordpressRestPost, body);
  const fields = compact({
    title: post.title ? decodeEntities(post.title.rendered) : null,
    body: post.content?.rendered,
    source_url: post.link,
    author: post._embedded?.author?.[0]?.name,
    image_url: post._embedded?.['wp:featuredmedia']?.[0]?.source_url,
    publish_date: post.date_gmt,
  });
  return wordpressChange(post.id, post.status, fields);
}

export const readPost = (platform: CmsPlatform, body: unknown): PostChange => (platform === 'ghost' ? readGhostPost(body) : readWordpressPost(body));
