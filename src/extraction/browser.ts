// Renders pages in headless Chromium (Debian's, driven by playwright-core) for projects with `javascript_enabled`.
// Every request the page makes goes through the guarded fetcher, so the address rule (after DNS and redirects),
// size and time limits hold for scripts, images and XHR as for the page itself; WebSockets are closed.
import type { Browser, Route } from 'playwright-core';
import { guardedFetch } from '../infrastructure/fetch/fetcher.ts';
import { createLimit } from '../media/limit.ts';
import { pageFailure, PageError, type FetchedPage, type PageLimits } from './page.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
/** After the load event, how long the page's scripts may keep the network busy before the DOM is read. */
const SETTLE_MS = 1_500;
/** Requests a page may make; a page that asks for more gets the rest refused. */
const MAX_REQUESTS = 200;
const BLOCKED_TYPES = new Set(['media', 'font', 'websocket', 'eventsource', 'manifest']);

export interface PageRenderer {
  /** The page's DOM once its scripts ran, as HTML; `page` is the document already fetched by the guarded fetcher. */
  render(page: FetchedPage, headers: Record<string, string>, limits: PageLimits): Promise<string>;
  close(): Promise<void>;
}

export function createPageRenderer(options: { concurrency: number }): PageRenderer {
  const limit = createLimit(options.concurrency);
  let browser: Promise<Browser> | null = null;
  const launch = async () => {
    const { chromium } = await import('playwright-core');
    const started = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    started.on('disconnected', () => {
      browser = null;
    });
    return started;
  };

  const renderOnce = async (fetched: FetchedPage, headers: Record<string, string>, limits: PageLimits) => {
    browser ??= launch().catch((error: unknown) => {
      browser = null;
      throw new PageError(`the page could not be rendered: the browser did not start (${String(error)})`, false);
    });
    const context = await (await browser).newContext({ acceptDownloads: false, serviceWorkers: 'block', javaScriptEnabled: true, extraHTTPHeaders: {} });
    const deadline = Date.now() + limits.timeoutMs;
    let requests = 0;
    try {
      const page = await context.newPage();
      await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'not allowed' }));
      await context.route('**/*', async (route: Route) => {
        const request = route.request();
        if (request.isNavigationRequest() && request.frame() === page.mainFrame() && request.url() === fetched.url) {
          // The document itself: the bytes already fetched, checked and limited.
          return route.fulfill({ status: 200, headers: { 'content-type': fetched.contentType || 'text/html' }, body: fetched.bytes });
        }
        if (BLOCKED_TYPES.has(request.resourceType()) || ++requests > MAX_REQUESTS || request.method() !== 'GET') return route.abort('blockedbyclient');
        const remaining = deadline - Date.now();
        if (remaining <= 0) return route.abort('timedout');
        try {
          const response = await guardedFetch(request.url(), { headers: { ...headers, 'user-agent': 'Mozilla/5.0 (compatible; NarrationService/1.0)' }, maxBytes: limits.maxBytes, timeoutMs: remaining, allowPrivate: limits.allowPrivate });
          const chunks: Buffer[] = [];
          for await (const chunk of response.body) chunks.push(chunk as Buffer);
          const type = response.headers['content-type'];
          await route.fulfill({ status: response.status, headers: type ? { 'content-type': String(type) } : {}, body: Buffer.concat(chunks) });
        } catch {
          await route.abort('blockedbyclient').catch(() => undefined);
        }
      });
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
      await page.goto(fetched.url, { waitUntil: 'load', timeout: limits.timeoutMs }).catch((error: unknown) => {
        throw /timeout/i.test(String(error)) ? new PageError(`the page did not finish within ${limits.timeoutMs / 1000} s`, false) : new PageError(`the page could not be rendered: ${String(error).split('\n')[0]}`, false);
      });
      await page.waitForLoadState('networkidle', { timeout: Math.max(1, Math.min(SETTLE_MS, deadline - Date.now())) }).catch(() => undefined);
      const html = await page.content();
      if (Buffer.byteLength(html) > limits.maxBytes) throw new PageError(`the rendered page is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB`, true);
      return html;
    } catch (error) {
      throw pageFailure(error, limits);
    } finally {
      await context.close().catch(() => undefined);
    }
  };

  return {
    render: (page, headers, limits) => limit(() => renderOnce(page, headers, limits)),
    async close() {
      const running = browser;
      browser = null;
      await (await running?.catch(() => null))?.close();
    },
  };
}
