// Client-side import: the WordPress plugin's Magic Embed asks the player by post id with X-Import and the permalink.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

/** The request the plugin's front end makes, headers as it sends them (placeholders filled per test). */
const request = JSON.parse(readFileSync(new URL('../fixtures/cms/magic-embed-request.json', import.meta.url), 'utf8')) as {
  path: string;
  headers: Record<string, string>;
};

let server: TestServer;
/** Project 1: the pipeline narrates what an import creates. */
const project = 1;
let pages: Server;
let pageBase: string;
const fetched: string[] = [];

/** The permalink's page as WordPress serves it with the plugin active: the original maker's meta tags in its head. */
const PERMALINK = '/2026/03/12/market-square-reopens/';
const PAGE = `<!doctype html><html><head><title>Market square reopens | Harbour News</title>
<meta name="beyondwords-title" content="Market square reopens">
<meta name="beyondwords-author" content="Ada Reporter">
<meta name="beyondwords-publish-date" content="2026-03-12T07:00:00Z">
</head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<main><article><h1>Market square reopens</h1><p>The market square reopened this morning after a year of repairs.</p>
<p>Stalls will trade every Saturday.</p></article></main><footer>Copyright Harbour News</footer></body></html>`;

const lookUp = (postId: string, host: string, headers: Record<string, string> = {}) =>
  server.request('GET', request.path.replace('{project_id}', String(project)).replace('{post id}', postId), {
    key: null,
    headers: { ...request.headers, 'X-Referer': request.headers['X-Referer']!.replace('{host}', host), ...headers },
  });
const items = async () => (await server.request('GET', `/v1/projects/${project}/content?pagination[limit]=100`)).body as any[];

beforeAll(async () => {
  pages = createServer((request, response) => {
    fetched.push(request.url ?? '');
    response.writeHead(request.url === PERMALINK ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === PERMALINK ? PAGE : '');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageBase = `127.0.0.1:${(pages.address() as AddressInfo).port}`;
  // Loopback allowed for the test's own page; cloud metadata addresses stay refused whatever this says.
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => pages?.close(resolve));
});

describe('a lookup that matches nothing', () => {
  it('creates nothing while the integration is not enabled, and answers the usual 404', async () => {
    await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: false, allowed_domains: ['news.example.com'] } });
    const reply = await lookUp('501', 'news.example.com');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    expect(await items()).toEqual([]);
  });

  it("creates nothing for a page outside the integration's allowed domains, or without X-Import, or with a referrer that is no page address", async () => {
    await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: true, allowed_domains: ['news.example.com'] } });
    expect((await lookUp('502', 'elsewhere.example.org')).status).toBe(404);
    expect((await lookUp('503', 'news.example.com.evil.test')).status).toBe(404);
    expect((await lookUp('504', 'news.example.com', { 'X-Import': 'false' })).status).toBe(404);
    for (const referrer of ['javascript:alert(1)', 'file:///etc/passwd', 'news.example.com/a', `http://news.example.com/${'a'.repeat(3000)}`]) {
      expect((await lookUp('505', 'x', { 'X-Referer': referrer })).status, referrer).toBe(404);
    }
    expect(await items()).toEqual([]);
  });
});

describe('a lookup of a page on an allowed domain', () => {
  it('creates the item from the referring page, once, also under concurrent requests; a later lookup plays it', async () => {
    await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: true, allowed_domains: ['127.0.0.1'] } });
    const first = await Promise.all([1, 2, 3, 4].map(() => lookUp('701', pageBase)));
    // While it is made, the player gets what it gets for any item not yet processed: nothing to play.
    for (const reply of first) expect(reply.status).toBe(404);
    const created = await server.request('GET', `/v1/projects/${project}/content/701`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ source_id: '701', source_url: `http://${pageBase}${PERMALINK}` });
    const item = await settled(server, created.body.id);
    expect(item.status, item.error).toBe('processed');
    expect(item).toMatchObject({ title: 'Market square reopens', author: 'Ada Reporter', publish_date: '2026-03-12T07:00:00.000Z' });
    const spoken = item.segments.map((segment: any) => segment.text).join(' ');
    expect(spoken).toContain('The market square reopened this morning after a year of repairs.');
    expect(spoken).not.toContain('Copyright');

    const again = await lookUp('701', pageBase);
    expect(again.status).toBe(200);
    expect(again.body.content.map((each: any) => each.id)).toEqual([created.body.id]);
    expect((await items()).map((each) => each.id)).toEqual([created.body.id]);
    expect(fetched.filter((url) => url === PERMALINK)).toHaveLength(1);
  }, 150_000);
});
