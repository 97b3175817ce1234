// Extraction of an item's page: fetch (or render), find the article, and say why not when it cannot.
import type { ContentFilter } from '../contentFilters/apply.ts';
import type { PageRenderer } from './browser.ts';
import { extractArticle, type ExtractedArticle } from './extract.ts';
import { fetchPage, PageError, type PageLimits } from './page.ts';
import type { ExtractionSettings } from './settings.ts';

export interface ExtractionDeps {
  limits: PageLimits;
  /** Absent where no browser may run: `javascript_enabled` then fails with a reason. */
  renderer?: PageRenderer;
}

export const DEFAULT_PAGE_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000 } as const;

/** The article of the page at `url`, or a PageError whose message a person can act on. */
export async function extractPage(url: string, settings: ExtractionSettings, filters: readonly ContentFilter[], deps: ExtractionDeps): Promise<ExtractedArticle & { url: string }> {
  const started = Date.now();
  const page = await fetchPage(url, settings.requestHeaders, deps.limits);
  let html = page.html;
  if (settings.javascriptEnabled) {
    if (!deps.renderer) throw new PageError('the page needs JavaScript, and no browser is available to this service', true);
    const remaining = deps.limits.timeoutMs - (Date.now() - started);
    if (remaining <= 0) throw new PageError(`the page did not finish within ${deps.limits.timeoutMs / 1000} s`, false);
    html = await deps.renderer.render(page, settings.requestHeaders, { ...deps.limits, timeoutMs: remaining });
  }
  const found = extractArticle(html, page.url, settings.mode, filters);
  if (found.kind === 'none') {
    const hint = !settings.javascriptEnabled && /<script\b/i.test(html) && found.reason.startsWith('no article') ? ' (if the page builds its article with scripts, set javascript_enabled)' : '';
    throw new PageError(`${found.reason}${hint}`, true);
  }
  return { ...found.article, url: page.url };
}
