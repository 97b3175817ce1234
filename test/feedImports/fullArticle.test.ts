// `fetch_full_article: true`: each entry's item is made from its page, extracted in the generation pipeline, not from
// the feed's excerpt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startFeedServer, type FeedServer } from './feedServer.ts';

let server: TestServer;
let feeds: FeedServer;
beforeAll(async () => {
  [server, feeds] = await Promise.all([startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true' } }), startFeedServer()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

const SENTENCES = [
  'The council voted on Tuesday to build a flood barrier along the eastern bank of the river.',
  'Work starts in the spring and should be finished before the autumn storms arrive next year.',
  'Residents of the lower town have asked for protection since the floods of two winters ago.',
];
const PAGE = `<!doctype html><html><head><title>Flood barrier approved | Gazette</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Flood barrier approved</h1>${SENTENCES.map((sentence) => `<p>${sentence}</p>`).join('\n')}</article>
<footer>Copyright Gazette. All rights reserved.</footer></body></html>`;

describe('importing full articles', () => {
  it("creates the item from the entry's page, never from the feed's excerpt", async () => {
    feeds.publish('/barrier', { body: PAGE, type: 'text/html; charset=utf-8' });
    const feed = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Gazette</title><link>${feeds.base}/</link><description>d</description>
<item><title>Flood barrier approved</title><link>${feeds.base}/barrier</link><guid isPermaLink="false">gazette-2001</guid>
<pubDate>Wed, 05 Nov 2025 07:00:00 +0000</pubDate><description>Only the excerpt of the article.</description></item></channel></rss>`;
    feeds.publish('/feed/', { body: feed, type: 'application/rss+xml' });
    const created = await server.request('POST', '/v1/projects/1/rss_feed_imports', { body: { url: `${feeds.base}/feed/`, fetch_full_article: true } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ran = await server.request('POST', `/v1/projects/1/rss_feed_imports/${created.body.id}/run`);
    expect(ran.body).toEqual({ imported: 1, updated: 0, skipped: 0, errors: [] });

    const item = await settled(server, 'gazette-2001');
    expect(item.status, item.error).toBe('processed');
    expect(item).toMatchObject({ title: 'Flood barrier approved', source_url: `${feeds.base}/barrier`, publish_date: '2025-11-05T07:00:00.000Z' });
    for (const sentence of SENTENCES) expect(item.body).toContain(sentence);
    expect(item.body).not.toContain('Only the excerpt');
    expect(feeds.requests.some((request) => request.path === '/barrier')).toBe(true);

    // Unchanged on the next read: the extracted body is the item's own, never compared with the feed.
    feeds.publish('/feed/', { body: feed.replace('<title>Gazette</title>', '<title>The Gazette</title>'), type: 'application/rss+xml' });
    expect((await server.request('POST', `/v1/projects/1/rss_feed_imports/${created.body.id}/run`)).body).toEqual({ imported: 0, updated: 0, skipped: 1, errors: [] });
  }, 120_000);
});
