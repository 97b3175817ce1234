import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let otherProject: number;
let items: any[];
beforeAll(async () => {
  server = await startServer();
  otherProject = (await server.request('POST', '/v1/projects', { body: { name: 'Sports desk' } })).body.id;
  items = [];
  for (const [title, source_id] of [['One', 'post-1'], ['Two', 'post-2'], ['Three', 'post-3']]) {
    items.push((await server.request('POST', '/v1/projects/1/content', { body: { title, body: `<p>${title}.</p>`, source_id } })).body);
  }
});
afterAll(() => server.stop());

const create = async (body: Record<string, unknown>, project: number = 1) => {
  const reply = await server.request('POST', `/v1/projects/${project}/playlists`, { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

describe('playlist resources', () => {
  it('creates a manual playlist with defaults, resolving every kind of content id to UUIDs', async () => {
    const created = await create({ title: 'Morning', content_ids: ['post-2', items[0].id.toUpperCase(), items[2].legacy_id] });
    expect(created).toMatchObject({
      title: 'Morning',
      type: 'manual',
      content_ids: [items[1].id, items[0].id, items[2].id],
      tags: [],
      source_url_prefix: null,
      authors: [],
      image_url: null,
      content_limit: 10,
    });
    expect(Number.isInteger(created.id) && created.id > 0).toBe(true);
    expect(new Date(created.created).toISOString()).toBe(created.created);
    expect(created.updated).toBe(created.created);
    expect((await server.request('GET', `/v1/projects/1/playlists/${created.id}`)).body).toEqual(created);
    expect((await server.request('GET', '/v1/projects/1/playlists')).body).toContainEqual(created);
  });

  it('creates an auto playlist by tags and filters', async () => {
    const created = await create({
      title: 'Sport',
      type: 'auto',
      tags: ['sport', 'football'],
      source_url_prefix: 'https://news.example.com/sport/',
      authors: ['A. Writer'],
      image_url: 'https://news.example.com/sport.jpg',
      content_limit: 100,
    });
    expect(created).toMatchObject({ type: 'auto', tags: ['sport', 'football'], content_ids: [], content_limit: 100, image_url: 'https://news.example.com/sport.jpg' });
  });

  it('updates only the fields sent, and deletes', async () => {
    const created = await create({ title: 'Evening', content_ids: ['post-1'] });
    const updated = await server.request('PUT', `/v1/projects/1/playlists/${created.id}`, { body: { title: 'Late evening', content_ids: ['post-3', 'post-1'], unknown: 1 } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, title: 'Late evening', type: 'manual', content_ids: [items[2].id, items[0].id], created: created.created });
    expect((await server.request('GET', `/v1/projects/1/playlists/${created.id}`)).body).toEqual(updated.body);

    const deleted = await server.request('DELETE', `/v1/projects/1/playlists/${created.id}`);
    expect(deleted.status).toBe(204);
    expect((await server.request('GET', `/v1/projects/1/playlists/${created.id}`)).status).toBe(404);
    expect((await server.request('PUT', `/v1/projects/1/playlists/${created.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await server.request('DELETE', `/v1/projects/1/playlists/${created.id}`)).status).toBe(404);
  });

  it('pages the list in id order', async () => {
    const page = await server.request('GET', '/v1/projects/1/playlists?pagination[limit]=1&pagination[offset]=1');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    const all = (await server.request('GET', '/v1/projects/1/playlists')).body.map((playlist: any) => playlist.id);
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    expect(page.body[0].id).toBe(all[1]);
  });
});

describe('validation', () => {
  it.each([
    [{}, 'title', 'is required'],
    [{ title: '' }, 'title', 'must have at least 1 characters'],
    [{ title: 'x', type: 'smart' }, 'type', 'must be one of: manual, auto'],
    [{ title: 'x', content_limit: 0 }, 'content_limit', 'must be greater than or equal to 1'],
    [{ title: 'x', content_limit: 101 }, 'content_limit', 'must be less than or equal to 100'],
    [{ title: 'x', content_limit: 2.5 }, 'content_limit', 'must be an integer'],
    [{ title: 'x', image_url: 'ftp://example.com/a.jpg' }, 'image_url', expect.any(String)],
    [{ title: 'x', type: 'auto' }, 'tags', 'must name at least one tag for an auto playlist'],
    [{ title: 'x', content_ids: ['post-1', 'nope'] }, 'content_ids.1', 'names no content item of this project'],
  ])('refuses %j at %s', async (body, location, message) => {
    const reply = await server.request('POST', '/v1/projects/1/playlists', { body });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 422, message: 'Invalid request body', errors: [{ location, message }] });
  });

  it('reports every unknown content id, and checks the merged playlist on update', async () => {
    const reply = await server.request('POST', '/v1/projects/1/playlists', { body: { title: 'x', content_ids: ['a', 'post-1', 'b'] } });
    expect(reply.body.errors.map((error: any) => error.location)).toEqual(['content_ids.0', 'content_ids.2']);
    const manual = await create({ title: 'Manual' });
    const toAuto = await server.request('PUT', `/v1/projects/1/playlists/${manual.id}`, { body: { type: 'auto' } });
    expect(toAuto.status).toBe(422);
    expect(toAuto.body.errors).toEqual([{ location: 'tags', message: 'must name at least one tag for an auto playlist' }]);
    expect((await server.request('PUT', `/v1/projects/1/playlists/${manual.id}`, { body: { type: 'auto', tags: ['news'] } })).body.type).toBe('auto');
  });
});

describe('isolation', () => {
  it("keeps each project's playlists and content to itself", async () => {
    const mine = await create({ title: 'Mine', content_ids: ['post-1'] });
    expect((await server.request('GET', `/v1/projects/${otherProject}/playlists/${mine.id}`)).status).toBe(404);
    expect((await server.request('PUT', `/v1/projects/${otherProject}/playlists/${mine.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await server.request('DELETE', `/v1/projects/${otherProject}/playlists/${mine.id}`)).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/${otherProject}/playlists`)).body).toEqual([]);
    // Another project's items cannot be listed.
    const foreign = await server.request('POST', `/v1/projects/${otherProject}/playlists`, { body: { title: 'x', content_ids: [items[0].id] } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ location: 'content_ids.0', message: 'names no content item of this project' }]);
    expect((await server.request('GET', '/v1/projects/1/playlists/abc')).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/999/playlists')).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/1/playlists', { key: null })).status).toBe(401);
  });
});
