// Finds the article of a page, by the project's mode and content filters, and the metadata it carries. Pure: HTML in,
// article or a reason out.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { applyExcludeFilters, hasIncludeFilters, includedElements, type ContentFilter, type FilterRoot } from '../contentFilters/apply.ts';
import type { ExtractionMode } from './settings.ts';

export interface ExtractedArticle {
  title: string | null;
  /** The article as HTML, images flagged `data-service-image` kept, their addresses absolute. */
  body: string;
  author: string | null;
  /** ISO 8601, UTC. */
  publishDate: string | null;
}

export type Extraction = { kind: 'article'; article: ExtractedArticle } | { kind: 'none'; reason: string };

const TITLE_MAX = 500;
const AUTHOR_MAX = 500;
export const BODY_MAX = 100_000;
/** Fewer characters of text than this is no article (a consent wall, an empty shell waiting for its scripts). */
const MIN_TEXT = 40;
const NO_ARTICLE = 'no article found on the page: set content filters or mode manual';

/** What legacy mode drops before looking for the article: never part of one. */
const CHROME = 'script, style, noscript, template, iframe, object, embed, nav, aside, footer, header, form, button, select, input, textarea, dialog, [role=navigation], [role=banner], [role=contentinfo], [role=dialog], [aria-hidden=true], [hidden]';

type Doc = ReturnType<typeof parseHTML>['document'];
type El = ReturnType<Doc['createElement']>;

export function extractArticle(html: string, pageUrl: string, mode: ExtractionMode, filters: readonly ContentFilter[]): Extraction {
  const { document } = parseHTML(html);
  const meta = metadataOf(document);
  const root = document as unknown as FilterRoot;
  let content: string | null = null;
  let readable: ReturnType<Readability['parse']> = null;
  if (mode === 'manual') {
    if (!hasIncludeFilters(filters)) return { kind: 'none', reason: 'mode manual needs include content filters: the project has none enabled' };
    applyExcludeFilters(root, filters);
    content = joined(includedElements(root, filters) as unknown as El[]);
    if (content === null) return { kind: 'none', reason: 'no element of the page matches the include content filters' };
  } else if (mode === 'legacy') {
    applyExcludeFilters(root, filters);
    for (const element of [...document.querySelectorAll(CHROME)]) element.remove();
    const picked = hasIncludeFilters(filters) ? (includedElements(root, filters) as unknown as El[]) : [mainOf(document)].filter((element) => element !== null);
    content = joined(picked);
  } else {
    // Before Readability, which drops classes and ids that filters name; again after, on what it kept.
    applyExcludeFilters(root, filters);
    readable = new Readability(document as unknown as Document, { charThreshold: 100, keepClasses: true }).parse();
    if (readable?.content) {
      const { document: extracted } = parseHTML(`<!doctype html><html><body>${readable.content}</body></html>`);
      applyExcludeFilters(extracted as unknown as FilterRoot, filters);
      content = extracted.body.innerHTML;
    }
  }
  if (content === null) return { kind: 'none', reason: NO_ARTICLE };
  const body = absolutized(content, pageUrl);
  if (textLength(body) < MIN_TEXT) return { kind: 'none', reason: NO_ARTICLE };
  if (body.length > BODY_MAX) return { kind: 'none', reason: `the article is longer than ${BODY_MAX} characters of HTML (${body.length}): narrow it with exclude content filters` };
  return {
    kind: 'article',
    article: {
      title: clip(meta.title ?? readable?.title ?? meta.documentTitle, TITLE_MAX),
      body,
      author: clip(meta.author ?? readable?.byline, AUTHOR_MAX),
      publishDate: isoDate(meta.publishDate) ?? isoDate(readable?.publishedTime),
    },
  };
}

/** The page's own metadata: the original maker's `beyondwords-*` tags first, then Open Graph and article tags. */
function metadataOf(document: Doc) {
  const content = (selector: string) => {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute('content')?.trim();
      if (value) return value;
    }
    return null;
  };
  const first = (...selectors: string[]) => selectors.map(content).find((value) => value !== null) ?? null;
  return {
    title: first('meta[name="beyondwords-title"]', 'meta[property="og:title"]', 'meta[name="twitter:title"]'),
    author: first('meta[name="beyondwords-author"]', 'meta[property="article:author"]', 'meta[name="author"]'),
    publishDate: first('meta[name="beyondwords-publish-date"]', 'meta[property="article:published_time"]', 'meta[name="date"]'),
    documentTitle: document.querySelector('title')?.textContent?.trim() || null,
  };
}

/** The element holding the article in legacy mode: `<article>`, `<main>`, else the block with the most paragraph text. */
function mainOf(document: Doc): El | null {
  const landmark = document.querySelector('article') ?? document.querySelector('main, [role=main]');
  if (landmark && textLength(landmark.textContent ?? '') >= MIN_TEXT) return landmark;
  const scores = new Map<El, number>();
  for (const paragraph of document.querySelectorAll('p')) {
    const parent = paragraph.parentElement;
    if (parent) scores.set(parent, (scores.get(parent) ?? 0) + (paragraph.textContent ?? '').trim().length);
  }
  let best: El | null = null;
  for (const [element, score] of scores) if (!best || score > scores.get(best)!) best = element;
  return best ?? document.body ?? null;
}

const joined = (elements: El[]) => (elements.length === 0 ? null : elements.map((element) => element.outerHTML).join('\n'));

/** Image (and link) addresses made absolute against the page, so segments point at something a player can load. */
function absolutized(html: string, pageUrl: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  for (const element of document.querySelectorAll('img[src], a[href]')) {
    const name = element.tagName.toLowerCase() === 'img' ? 'src' : 'href';
    const value = element.getAttribute(name)!;
    if (URL.canParse(value, pageUrl)) element.setAttribute(name, new URL(value, pageUrl).href);
  }
  return document.body.innerHTML.trim();
}

const textLength = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().length;

const clip = (value: string | null | undefined, max: number) => {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? [...text].slice(0, max).join('') : null;
};

function isoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
