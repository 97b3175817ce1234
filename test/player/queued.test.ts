import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

// Generation off: items stay queued, so "not processed" is certain.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const player = (path: string, method = 'GET') => server.request(method, `/v1/projects/1/player/${path}`, { key: null });

describe('player data of items not yet processed', () => {
  it('hides a published item until it is processed; its preview token shows it with empty media', async () => {
    const item = (await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>Queued.</p>', published: true, source_id: 'q-1' } })).body;
    expect(item.status).toBe('queued');
    expect((await player(`by_content_id/${item.id}`)).status).toBe(404);
    expect((await player('by_source_id/q-1')).status).toBe(404);
    const preview = await player(`by_content_id/${item.id}?preview_token=${item.preview_token}`);
    expect(preview.status).toBe(200);
    expect(preview.body.content).toEqual([
      expect.objectContaining({ id: item.id, audio: [], video: [], segments: [], summarization: { audio: [], video: [] } }),
    ]);
  });

  it('answers HEAD like GET without a body', async () => {
    const item = (await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>Queued.</p>' } })).body;
    const reply = await player(`by_content_id/${item.id}?preview_token=${item.preview_token}`, 'HEAD');
    expect(reply.status).toBe(200);
    expect(reply.body).toBeNull();
    expect(reply.headers.get('etag')).toMatch(/^"/);
    expect((await player(`by_content_id/${item.id}`, 'HEAD')).status).toBe(404);
  });

  it('answers 404 for projects that do not exist, without a key, under the per-address limit of public routes', async () => {
    const reply = await server.request('GET', '/v1/projects/999/player/by_source_id/x', { key: null });
    expect(reply.status).toBe(404);
    expect(reply.headers.get('x-ratelimit-limit')).toBe(server.env.RATE_LIMIT_PUBLIC);
  });
});
