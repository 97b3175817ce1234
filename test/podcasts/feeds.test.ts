import { parseFeed } from 'podcast-partytime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

/** Public requests, as podcast apps send them: no API key. */
const get = (path: string, headers: Record<string, string> = {}) => server.request('GET', `/v1/projects/1${path}`, { key: null, headers });

const processed = async (body: Record<string, unknown>) => {
  const created = await server.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id);
  expect(item.status, item.error).toBe('processed');
  return item;
};

let rivers: any;
let markets: any;
let draft: any;
let pick: any;
beforeAll(async () => {
  [rivers, markets, draft] = await Promise.all([
    processed({ title: 'Rivers & "floods" <rise>', summary: 'Water levels rose overnight.', body: '<p>The rivers rose overnight.</p><p>Roads are closed.</p>', publish_date: '2026-03-01T08:00:00Z' }),
    processed({ title: 'Markets', body: '<p>Markets were calm.</p>', image_url: 'https://news.example.com/markets.jpg' }),
    processed({ title: 'Draft', body: '<p>Not yet public.</p>', published: false }),
  ]);
  const settings = await server.request('PUT', '/v1/projects/1/podcast_settings', {
    body: { image_url: 'https://news.example.com/podcast.jpg', categories: ['News > Daily News', 'Technology'], owner: { name: 'Desk', email: 'desk@news.example.com' } },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  pick = (await server.request('POST', '/v1/projects/1/playlists', { body: { title: 'Editors pick', content_ids: [markets.id, draft.id], image_url: 'https://news.example.com/pick.jpg' } })).body;
}, 120_000);

async function feedOf(path: string) {
  const reply = await get(path);
  expect(reply.status, String(reply.body)).toBe(200);
  expect(reply.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  const feed = parseFeed(reply.body as string);
  expect(feed).not.toBeNull();
  return { feed: feed!, xml: reply.body as string, reply };
}

/** Every episode's enclosure can be played: 200, audio/mpeg, and as many bytes as the feed says. */
async function expectPlayable(feed: NonNullable<ReturnType<typeof parseFeed>>) {
  for (const episode of feed.items) {
    const response = await fetch(episode.enclosure.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(Number(response.headers.get('content-length'))).toBe(episode.enclosure.length);
    expect((await response.arrayBuffer()).byteLength).toBe(episode.enclosure.length);
  }
}

describe('the audio feed', () => {
  it('carries every published processed item with a playable enclosure and the tags Apple requires', async () => {
    const { feed, xml } = await feedOf('/podcast/feed.xml');
    expect(xml).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    expect(xml).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
    expect(feed).toMatchObject({ title: 'Default project', language: 'en-us', author: 'Default project', itunesType: 'episodic', explicit: false, locked: false });
    expect(feed.description).toBe('Default project');
    expect(feed.link).toBe(server.baseUrl);
    expect(feed.owner).toEqual({ name: 'Desk', email: 'desk@news.example.com' });
    expect(feed.itunesImage).toBe('https://news.example.com/podcast.jpg');
    // Partytime lower-cases categories and shortens some names (`Daily News` → `daily`).
    expect(feed.categories).toEqual(expect.arrayContaining(['news', 'technology']));
    expect(xml).toContain('<itunes:category text="News"><itunes:category text="Daily News"/></itunes:category>');
    expect(feed.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    expect(feed.items.map((episode) => episode.guid).sort()).toEqual([rivers.id, markets.id].sort());
    const episode = feed.items.find((item) => item.guid === rivers.id)!;
    expect(episode).toMatchObject({ title: 'Rivers & "floods" <rise>', description: 'Water levels rose overnight.', explicit: false, image: 'https://news.example.com/podcast.jpg' });
    expect(episode.pubDate?.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(episode.enclosure.type).toBe('audio/mpeg');
    expect(episode.duration).toBe(Math.round(rivers.audio[0].duration / 1000));
    expect(episode.podcastTranscripts).toEqual([expect.objectContaining({ url: `${server.baseUrl}/v1/projects/1/podcast/transcripts/${rivers.id}.vtt`, type: 'text/vtt' })]);
    expect(xml).toContain(`<guid isPermaLink="false">${rivers.id}</guid>`);
    expect(feed.items.find((item) => item.guid === markets.id)!.image).toBe('https://news.example.com/markets.jpg');
    await expectPlayable(feed);
  });

  it('answers 304 to its ETag, and HEAD and OPTIONS like player data', async () => {
    const { reply } = await feedOf('/podcast/feed.xml');
    const etag = reply.headers.get('etag')!;
    expect(reply.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    const again = await get('/podcast/feed.xml', { 'If-None-Match': etag, 'Cache-Control': 'no-cache' });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    const options = await server.request('OPTIONS', '/v1/projects/1/podcast/feed.xml', { key: null });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect((await server.request('POST', '/v1/projects/1/podcast/feed.xml', { key: null })).status).toBe(405);
  });
});

describe('the other feeds', () => {
  it("gives a playlist's published items under the playlist's title and image", async () => {
    const { feed } = await feedOf(`/playlists/${pick.id}/podcast/feed.xml`);
    expect(feed.title).toBe('Editors pick');
    expect(feed.itunesImage).toBe('https://news.example.com/pick.jpg');
    expect(feed.items.map((episode) => episode.guid)).toEqual([markets.id]);
    await expectPlayable(feed);
    expect((await get('/playlists/9999/podcast/feed.xml')).status).toBe(404);
  });

  it('has an empty video channel until video exists', async () => {
    const { feed } = await feedOf('/podcast/video.xml');
    expect(feed.title).toBe('Default project');
    expect(feed.items).toEqual([]);
  });

  it('gives different feeds different podcast guids', async () => {
    const guids = await Promise.all(['/podcast/feed.xml', '/podcast/video.xml', `/playlists/${pick.id}/podcast/feed.xml`].map(async (path) => (await feedOf(path)).feed.guid));
    expect(new Set(guids).size).toBe(3);
  });
});

describe('transcripts', () => {
  it('serves the segments as WebVTT, for published processed items only', async () => {
    const reply = await get(`/podcast/transcripts/${rivers.id}.vtt`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const text = reply.body as string;
    expect(text.startsWith('WEBVTT\n\n1\n')).toBe(true);
    expect(text).toContain('The rivers rose overnight.');
    expect(text).toContain('Rivers &amp; "floods" &lt;rise&gt;');
    const times = [...text.matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) --> (\d\d):(\d\d):(\d\d)\.(\d{3})$/gm)];
    const spoken = rivers.segments.filter((segment: any) => segment.text);
    expect(times).toHaveLength(spoken.length);
    const ms = (parts: string[]) => ((Number(parts[0]) * 60 + Number(parts[1])) * 60 + Number(parts[2])) * 1000 + Number(parts[3]);
    expect(ms(times[0]!.slice(1, 5))).toBe(spoken[0].start_time);
    expect(ms(times[0]!.slice(5, 9))).toBe(spoken[0].start_time + spoken[0].duration);
    const etag = reply.headers.get('etag')!;
    expect((await get(`/podcast/transcripts/${rivers.id}.vtt`, { 'If-None-Match': etag })).status).toBe(304);
    expect((await get(`/podcast/transcripts/${draft.id}.vtt`)).status).toBe(404);
    expect((await get('/podcast/transcripts/00000000-0000-4000-8000-000000000000.vtt')).status).toBe(404);
  });
});

describe('turning the podcast off', () => {
  it('makes every feed and transcript answer 404', async () => {
    const other = (await server.request('POST', '/v1/projects', { body: { name: 'Other desk' } })).body.id;
    expect((await server.request('GET', `/v1/projects/${other}/playlists/${pick.id}/podcast/feed.xml`, { key: null })).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/${other}/podcast/transcripts/${rivers.id}.vtt`, { key: null })).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/999/podcast/feed.xml', { key: null })).status).toBe(404);

    await server.request('PUT', '/v1/projects/1/podcast_settings', { body: { enabled: false } });
    for (const path of ['/podcast/feed.xml', '/podcast/video.xml', `/playlists/${pick.id}/podcast/feed.xml`, `/podcast/transcripts/${rivers.id}.vtt`]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
    await server.request('PUT', '/v1/projects/1/podcast_settings', { body: { enabled: true } });
    expect((await get('/podcast/feed.xml')).status).toBe(200);
  });
});
