import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

/** Player requests as a web page sends them: no API key. */
const player = (path: string, headers: Record<string, string> = {}) => server.request('GET', `/v1/projects/1/player/${path}`, { key: null, headers });
const identifiers = (list: unknown[]) => `by_identifiers/${encodeURIComponent(JSON.stringify(list))}`;

const processed = async (body: Record<string, unknown>) => {
  const created = await server.request('POST', '/v1/projects/1/content', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await settled(server, created.body.id);
  expect(item.status, item.error).toBe('processed');
  return item;
};

const playlist = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/playlists', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

let oldSport: any;
let newSport: any;
let football: any;
let politics: any;
let hidden: any;
beforeAll(async () => {
  // Before any playlist exists, the playlist route has nothing to show.
  expect((await player('playlist')).status).toBe(404);
  [oldSport, newSport, football, politics, hidden] = await Promise.all([
    processed({ title: 'Old match', body: '<p>An old match.</p>', tags: ['sport'], publish_date: '2026-01-01T08:00:00Z', source_id: 'old' }),
    processed({ title: 'New match', body: '<p>A new match.</p>', tags: ['sport'], publish_date: '2026-03-01T08:00:00Z', source_id: 'new' }),
    processed({ title: 'Cup final', body: '<p>The final.</p>', tags: ['football'], publish_date: '2026-02-01T08:00:00Z', source_id: 'cup' }),
    processed({ title: 'Elections', body: '<p>Votes.</p>', tags: ['politics'], publish_date: '2026-04-01T08:00:00Z', source_id: 'vote' }),
    processed({ title: 'Unpublished', body: '<p>Hidden.</p>', tags: ['sport'], publish_date: '2026-05-01T08:00:00Z', published: false, source_id: 'hidden' }),
  ]);
}, 120_000);

const ids = (reply: { body: any }) => reply.body.content.map((item: any) => item.id);

describe('playlists in player data', () => {
  let manual: any;
  let auto: any;
  beforeAll(async () => {
    manual = await playlist({ title: 'Editors pick', content_ids: ['cup', hidden.id, oldSport.id, 'vote'], image_url: 'https://news.example.com/pick.jpg' });
    auto = await playlist({ title: 'Sport', type: 'auto', tags: ['sport', 'football'], content_limit: 2 });
  });

  it('plays a manual playlist in its order, published processed items only', async () => {
    const reply = await player(`by_playlist_id/${manual.id}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(ids(reply)).toEqual([football.id, oldSport.id, politics.id]);
    expect(reply.body.playlist).toEqual({ id: manual.id, title: 'Editors pick', type: 'manual', image_url: 'https://news.example.com/pick.jpg', content_limit: 10 });
    for (const item of reply.body.content) expect(item.audio.length).toBeGreaterThan(0);
  });

  it('plays an auto playlist newest first by publish date, up to its content limit', async () => {
    const reply = await player(`by_playlist_id/${auto.id}`);
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([newSport.id, football.id]);
    expect(reply.body.playlist).toMatchObject({ id: auto.id, type: 'auto', content_limit: 2 });
  });

  it('answers the first playlist on the playlist route without an id', async () => {
    const reply = await player('playlist');
    expect(reply.status).toBe(200);
    expect(reply.body.playlist.id).toBe(manual.id);
    expect(ids(reply)).toEqual([football.id, oldSport.id, politics.id]);
  });

  it('expands a playlist id among identifiers, each item once', async () => {
    const reply = await player(identifiers([{ source_id: 'new' }, { playlist_id: manual.id }, { content_id: oldSport.id }]));
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([newSport.id, football.id, oldSport.id, politics.id]);
    expect(reply.body.playlist.id).toBe(manual.id);
    expect((await player(identifiers([{ content_id: newSport.id }]))).body.playlist).toBeNull();
  });

  it('shows changes to the playlist at once, and 404s for missing and foreign playlists', async () => {
    const path = `by_playlist_id/${manual.id}`;
    const first = await player(path);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect((await player(path, { 'If-None-Match': etag })).status).toBe(304);

    await server.request('PUT', `/v1/projects/1/playlists/${manual.id}`, { body: { content_ids: ['vote', 'cup'], title: 'Pick' } });
    const changed = await player(path);
    expect(ids(changed)).toEqual([politics.id, football.id]);
    expect(changed.body.playlist.title).toBe('Pick');
    expect(changed.headers.get('etag')).not.toBe(etag);

    const other = (await server.request('POST', '/v1/projects', { body: { name: 'Other desk' } })).body.id;
    expect((await server.request('GET', `/v1/projects/${other}/player/by_playlist_id/${manual.id}`, { key: null })).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/${other}/player/playlist`, { key: null })).status).toBe(404);
    for (const missing of ['by_playlist_id/9999', 'by_playlist_id/abc']) expect((await player(missing)).status).toBe(404);

    const gone = await playlist({ title: 'Short-lived', content_ids: ['new'] });
    expect(ids(await player(`by_playlist_id/${gone.id}`))).toEqual([newSport.id]);
    await server.request('DELETE', `/v1/projects/1/playlists/${gone.id}`);
    expect((await player(`by_playlist_id/${gone.id}`)).status).toBe(404);
  });

  it('answers a playlist whose items are all hidden with 404, and CORS on every answer', async () => {
    const empty = await playlist({ title: 'Hidden only', content_ids: [hidden.id] });
    const reply = await player(`by_playlist_id/${empty.id}`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    const preview = await player(`by_playlist_id/${empty.id}?preview_token=${hidden.preview_token}`);
    expect(ids(preview)).toEqual([hidden.id]);
  });
});
