// The schedule of feed imports, with FEED_IMPORT_INTERVAL_S=1 so that the test drives time: due runs fire on their
// own, and a restarted service goes on from the stored state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir, startServer, type TestServer } from '../support/server.ts';
import { fixture, startFeedServer, type FeedServer } from './feedServer.ts';

// On Temporal the schedule's activity runs in the worker, which the test servers start only with generation on.
const env = { FETCH_ALLOW_PRIVATE: 'true', FEED_IMPORT_INTERVAL_S: '1', ...(process.env.TEST_TEMPORAL_ADDRESS ? { GENERATION_ENABLED: 'true' } : {}) };
const dataDir = newDataDir();
let server: TestServer;
let feeds: FeedServer;
beforeAll(async () => {
  [server, feeds] = await Promise.all([startServer({ dataDir, env }), startFeedServer()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

const RSS = 'application/rss+xml; charset=UTF-8';

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const importOf = async (id: number) => (await server.request('GET', `/v1/projects/1/rss_feed_imports/${id}`)).body;
const itemBody = async () => (await server.request('GET', `/v1/projects/1/content/${encodeURIComponent('https://gazette.example.com/?p=1042')}`)).body?.body;

describe('the schedule of feed imports', () => {
  it('runs each enabled import when it is due, and goes on after a restart', async () => {
    const wordpress = fixture('wordpress.rss.xml');
    feeds.publish('/feed/', { body: wordpress, type: RSS, etag: '"v1"' });
    const enabled = (await server.request('POST', '/v1/projects/1/rss_feed_imports', { body: { url: `${feeds.base}/feed/` } })).body;
    const disabled = (await server.request('POST', '/v1/projects/1/rss_feed_imports', { body: { url: `${feeds.base}/feed/`, enabled: false } })).body;

    const first = await until(() => importOf(enabled.id), (view) => view.last_run !== null);
    expect(first.last_run).toMatchObject({ imported: 2, errors: [] });
    // The next runs ask conditionally and find nothing new.
    const later = await until(() => importOf(enabled.id), (view) => view.last_run.started !== first.last_run.started);
    expect(later.last_run).toMatchObject({ imported: 0, updated: 0, skipped: 0, errors: [] });
    expect(feeds.requests.at(-1)!.headers['if-none-match']).toBe('"v1"');

    await server.stop();
    feeds.publish('/feed/', { body: wordpress.replace('The old bridge is closed until the water falls.', 'The bridge opened at noon.'), type: RSS, etag: '"v2"' });
    server = await startServer({ dataDir, env });
    const resumed = await until(() => importOf(enabled.id), (view) => view.last_run.updated === 1);
    expect(resumed.last_run).toMatchObject({ imported: 0, updated: 1, skipped: 1, errors: [] });
    expect(await itemBody()).toContain('The bridge opened at noon.');
    expect((await importOf(disabled.id)).last_run).toBeNull();
  }, 90_000);
});
