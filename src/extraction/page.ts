// Fetches a page through the guarded fetcher, within the extraction limits, and says why it could not in words a
// person can act on.
import { FetchError, guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { decodePage } from './charset.ts';

export interface PageLimits {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface FetchedPage {
  /** The address that answered, after redirects. */
  url: string;
  html: string;
  bytes: Buffer;
  contentType: string;
}

/** A failure no retry mends (refused, too large, not HTML, a 4xx), or one worth trying again (timeout, 5xx, network). */
export class PageError extends Error {
  override readonly name = 'PageError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)?$/i;
const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The page's words on why a fetch failed. */
export function pageFailure(error: unknown, limits: PageLimits): PageError {
  if (error instanceof PageError) return error;
  if (!(error instanceof FetchError)) return new PageError(`the page could not be fetched: ${String(error)}`, false);
  switch (error.reason) {
    case 'too-large':
      return new PageError(`the page is larger than ${megabytes(limits.maxBytes)}`, true);
    case 'timeout':
      return new PageError(`the page did not finish within ${limits.timeoutMs / 1000} s`, false);
    case 'redirects':
      return new PageError(`the page could not be reached: ${error.message}`, true);
    case 'refused':
      return new PageError(`the page's address is not allowed (${error.message}): pages on private networks are never fetched`, true);
    case 'bad-url':
      return new PageError(`the source_url is not an http(s) address`, true);
    case 'network':
      return new PageError(`the page could not be reached: ${error.message}`, false);
  }
}

export async function fetchPage(url: string, headers: Record<string, string>, limits: PageLimits): Promise<FetchedPage> {
  try {
    const response = await guardedFetch(url, {
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'Mozilla/5.0 (compatible; NarrationService/1.0)', ...headers },
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      allowPrivate: limits.allowPrivate,
    });
    const contentType = String(response.headers['content-type'] ?? '');
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      const permanent = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
      throw new PageError(`the page answered ${response.status}`, permanent);
    }
    if (!HTML_TYPES.test(contentType.split(';')[0]!.trim())) {
      response.body.destroy();
      throw new PageError(`the page is not HTML (it is ${contentType.split(';')[0]}): only web pages are extracted`, true);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    return { url: response.url, html: decodePage(bytes, contentType).text, bytes, contentType };
  } catch (error) {
    throw pageFailure(error, limits);
  }
}
