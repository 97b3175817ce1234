// The publishing-platform integration: settings, and the posts webhook fed Ghost's and WordPress's own payloads.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { cli } from '../support/cli.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/cms/${name}.json`, import.meta.url), 'utf8'));

let server: TestServer;
let ghost: number;
let wordpress: number;

const newProject = async (name: string) => (await server.request('POST', '/v1/projects', { body: { name } })).body.id as number;
const configure = (project: number, body: unknown) => server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body });
const deliver = (project: number, body: unknown, key: string | null = TEST_KEY, headers: Record<string, string> = {}) =>
  server.request('POST', `/v1/projects/${project}/integrations/cms/posts${key === null ? '' : `?api_key=${encodeURIComponent(key)}`}`, { body, key: null, headers });
const item = (project: number, ref: string) => server.request('GET', `/v1/projects/${project}/content/${encodeURIComponent(ref)}`);
/** The item once the read model shows what a delivery did (the webhook answers from the item's own events). */
async function shown(project: number, ref: string, check: (body: any) => boolean) {
  let last: any;
  await expect.poll(async () => check((last = (await item(project, ref)).body)), { timeout: 10_000, interval: 50 }).toBe(true);
  return last;
}
const gone = (project: number, ref: string) => expect.poll(async () => (await item(project, ref)).status, { timeout: 10_000, interval: 50 }).toBe(404);
/** The types of the events on an item's stream, as the operator CLI prints them. */
const eventTypes = async (id: string) => (await cli(server.env, 'events', `content-${id}`)).stdout.trim().split('\n').map((line) => JSON.parse(line).type);
const items = async (project: number) => (await server.request('GET', `/v1/projects/${project}/content?pagination[limit]=100`)).body as any[];

beforeAll(async () => {
  server = await startServer();
  ghost = await newProject('Ghost site');
  wordpress = await newProject('WordPress site');
});

afterAll(async () => {
  await server?.stop();
});

describe('settings', () => {
  it('answers every field, defaults first, then what was put', async () => {
    const before = await server.request('GET', `/v1/projects/${ghost}/integrations/cms`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ enabled: false, platform: 'wordpress', publish: true, allowed_domains: [], created: null, updated: null });
    const put = await configure(ghost, { enabled: true, platform: 'ghost', allowed_domains: ['Example.com.'] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ enabled: true, platform: 'ghost', publish: true, allowed_domains: ['example.com'] });
    expect(put.body.created).toBe(put.body.updated);
    const again = await configure(ghost, { publish: true });
    expect(again.body.updated).toBe(put.body.updated);
    expect((await server.request('GET', `/v1/projects/${ghost}/integrations/cms`)).body).toEqual(put.body);
  });

  it('refuses what it cannot use with a 422 per field, changing nothing', async () => {
    const reply = await configure(ghost, { enabled: 'yes', platform: 'drupal', allowed_domains: ['https://example.com/news'], extra: 1 });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: any) => error.location).sort()).toEqual(['allowed_domains.0', 'body', 'enabled', 'platform'].sort());
    expect((await server.request('GET', `/v1/projects/${ghost}/integrations/cms`)).body.platform).toBe('ghost');
    expect((await server.request('GET', '/v1/projects/999999/integrations/cms')).status).toBe(404);
  });
});

describe('the posts webhook, authenticated by api_key alone', () => {
  it('answers 401 without the key, with a wrong one, or with the key only in X-Api-Key, and creates nothing', async () => {
    const post = fixture('ghost-post.published');
    for (const reply of [
      await deliver(ghost, post, null),
      await deliver(ghost, post, 'not_a_key_0123456789'),
      await deliver(ghost, post, null, { 'x-api-key': TEST_KEY }),
      await deliver(ghost, post, ''),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ code: 401, message: 'Unauthorized' });
    }
    expect(await items(ghost)).toEqual([]);
  });

  it('answers 403 while the integration is not enabled', async () => {
    const reply = await deliver(wordpress, fixture('wordpress-rest-publish'));
    expect(reply.status).toBe(403);
    expect(reply.body.message).toMatch(/not enabled/);
    expect(await items(wordpress)).toEqual([]);
  });
});

describe('Ghost', () => {
  let id: string;

  it('creates the item of a published post, with its title, text, page, author, image, date and tags', async () => {
    const reply = await deliver(ghost, fixture('ghost-post.published'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ id: expect.any(String), status: 'queued' });
    id = reply.body.id;
    const body = await shown(ghost, '65f1a0c2e4b0a1b2c3d4e5f6', (each) => each.id === id);
    expect(body).toMatchObject({
      id,
      source_id: '65f1a0c2e4b0a1b2c3d4e5f6',
      title: 'Harbour line to reopen after council vote',
      source_url: 'http://127.0.0.1:2369/harbour-line-to-reopen/',
      author: 'Joe Bloggs',
      image_url: 'https://images.example.com/harbour.jpg',
      publish_date: '2026-03-10T09:00:00.000Z',
      tags: ['Transport'],
      published: true,
    });
    expect(body.body).toContain('Trains will run every twenty minutes.');
  });

  it('changes nothing for a retried delivery, also when several arrive at once', async () => {
    const before = (await item(ghost, id)).body;
    const replies = await Promise.all([1, 2, 3, 4].map(() => deliver(ghost, fixture('ghost-post.published'))));
    for (const reply of replies) expect(reply.body).toEqual({ id, status: 'queued' });
    const after = (await item(ghost, id)).body;
    expect(after.updated).toBe(before.updated);
    expect((await items(ghost)).map((each) => each.id)).toEqual([id]);
  });

  it('updates the item of an edited post, once', async () => {
    const reply = await deliver(ghost, fixture('ghost-post.published.edited'));
    expect(reply.body).toEqual({ id, status: 'queued' });
    const edited = await shown(ghost, id, (each) => each.body.includes('every fifteen minutes'));
    expect((await deliver(ghost, fixture('ghost-post.published.edited'))).body.id).toBe(id);
    expect((await item(ghost, id)).body.updated).toBe(edited.updated);
    // Five deliveries of the post and two of its edit: one item, one change, one new narration.
    expect(await eventTypes(id)).toEqual(['ContentCreated', 'ContentUpdated', 'ContentRegenerationRequested']);
  });

  it('unpublishes the item of an unpublished post', async () => {
    const reply = await deliver(ghost, fixture('ghost-post.unpublished'));
    expect(reply.body.id).toBe(id);
    await shown(ghost, id, (each) => each.published === false);
  });

  it('creates a scheduled post unpublished, with its publish date', async () => {
    const reply = await deliver(ghost, fixture('ghost-post.scheduled'));
    expect(reply.status).toBe(200);
    const body = await shown(ghost, reply.body.id, (each) => each.id === reply.body.id);
    expect(body).toMatchObject({ source_id: '65f1a0c2e4b0a1b2c3d4e5f7', published: false, publish_date: '2026-04-01T06:00:00.000Z' });
  });

  it('leaves drafts alone', async () => {
    expect((await deliver(ghost, fixture('ghost-post.added'))).body).toEqual({ id: null, status: null });
    expect((await item(ghost, '65f1a0c2e4b0a1b2c3d4e5f8')).status).toBe(404);
  });

  it('deletes the item of a deleted post (only in previous), and a retry finds nothing to do', async () => {
    const reply = await deliver(ghost, fixture('ghost-post.deleted'));
    expect(reply.body).toEqual({ id, status: 'deleted' });
    await gone(ghost, id);
    expect((await deliver(ghost, fixture('ghost-post.deleted'))).body).toEqual({ id: null, status: null });
  });
});

describe('WordPress', () => {
  beforeAll(async () => {
    expect((await configure(wordpress, { enabled: true, platform: 'wordpress', publish: false })).status).toBe(200);
  });

  it('creates the item of a REST post object, its rendered title decoded, unpublished as the settings ask', async () => {
    const reply = await deliver(wordpress, fixture('wordpress-rest-publish'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = await shown(wordpress, '101', (each) => each.id === reply.body.id);
    expect(body).toMatchObject({
      id: reply.body.id,
      title: 'Harbour line to reopen after council’s vote',
      source_url: 'http://localhost:8888/2026/03/10/harbour-line-to-reopen-after-council-vote/',
      author: 'Ada Reporter',
      image_url: 'http://localhost:8888/wp-content/uploads/2026/03/harbour.jpg',
      publish_date: '2026-03-10T09:00:00.000Z',
      published: false,
    });
  });

  it('updates on edit, leaves a retry alone, unpublishes a draft and removes a permanently deleted post', async () => {
    const id = (await item(wordpress, '101')).body.id;
    expect((await deliver(wordpress, fixture('wordpress-rest-edit'))).body.id).toBe(id);
    await shown(wordpress, id, (each) => each.body.includes('fifteen minutes'));
    await deliver(wordpress, fixture('wordpress-rest-edit'));
    expect(await eventTypes(id)).toEqual(['ContentCreated', 'ContentUpdated', 'ContentRegenerationRequested']);
    expect((await deliver(wordpress, fixture('wordpress-rest-draft'))).body.id).toBe(id);
    await shown(wordpress, id, (each) => each.published === false);
    expect((await deliver(wordpress, fixture('wordpress-rest-deleted'))).body).toEqual({ id, status: 'deleted' });
    await gone(wordpress, id);
  });

  it('creates a scheduled (future) post unpublished with its date', async () => {
    const reply = await deliver(wordpress, fixture('wordpress-rest-future'));
    expect(await shown(wordpress, reply.body.id, (each) => each.id === reply.body.id)).toMatchObject({ source_id: '102', published: false, publish_date: '2026-04-01T06:00:00.000Z' });
  });

  it("reads WP Webhooks' post row", async () => {
    const reply = await deliver(wordpress, fixture('wp-webhooks-post-create'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await shown(wordpress, '103', (each) => each.id === reply.body.id)).toMatchObject({
      title: 'Library hours & events',
      source_url: 'http://localhost:8888/2026/03/11/library-hours/',
      publish_date: '2026-03-11T08:00:00.000Z',
      image_url: null,
    });
  });
});

describe('hostile deliveries get a 4xx and create nothing', () => {
  it('refuses malformed JSON, other media types, oversized bodies, wrong shapes and wrong types', async () => {
    const before = (await items(ghost)).length;
    const url = `/v1/projects/${ghost}/integrations/cms/posts?api_key=${TEST_KEY}`;
    const raw = (rawBody: string, headers: Record<string, string> = {}) => server.request('POST', url, { rawBody, key: null, headers });
    expect((await raw('{"post": {"current": ')).status).toBe(400);
    expect((await raw('post=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    const huge = JSON.stringify({ post: { current: { ...fixture('ghost-post.published').post.current, html: `<p>${'word '.repeat(300_000)}</p>` } } });
    expect((await raw(huge)).status).toBe(413);
    expect((await raw('{"post":{}}', { 'content-encoding': 'gzip' })).status).toBe(415);
    expect((await raw(`{"post":{"current":${'['.repeat(100)}${']'.repeat(100)}}}`)).status).toBe(422);
    const published = fixture('ghost-post.published');
    const wrongTypes = [
      [],
      { post: 'yes' },
      { post: { current: { ...published.post.current, title: 42 } } },
      { post: { current: { ...published.post.current, id: { $ne: null } } } },
      { post: { current: { ...published.post.current, status: ['published'] } } },
      { post: { current: {}, previous: {} } },
      { post: { current: { ...published.post.current, html: `<p>${'word '.repeat(25_000)}</p>` } } },
    ];
    for (const body of wrongTypes) {
      const reply = await deliver(ghost, body);
      expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(reply.body.errors.length).toBeGreaterThan(0);
    }
    expect((await items(ghost)).length).toBe(before);
    expect((await deliver(wordpress, { id: 'x', status: 'publish', title: { rendered: 5 } })).status).toBe(422);
    expect((await deliver(wordpress, { deleted: true, previous: {} })).status).toBe(422);
  });
});

describe('test', () => {
  it('names what stops deliveries, and reads a sample as a delivery would, changing nothing', async () => {
    const disabled = await server.request('POST', `/v1/projects/${await newProject('Unset')}/integrations/cms/test`, { body: {} });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ ok: false, post: null });
    expect(disabled.body.problems.join(' ')).toMatch(/not enabled/);
    const count = (await items(ghost)).length;
    const sample = await server.request('POST', `/v1/projects/${ghost}/integrations/cms/test`, { body: fixture('ghost-post.published') });
    expect(sample.status, JSON.stringify(sample.body)).toBe(200);
    expect(sample.body).toEqual({
      ok: true,
      problems: [],
      post: { action: 'publish', source_id: '65f1a0c2e4b0a1b2c3d4e5f6', title: 'Harbour line to reopen after council vote', source_url: 'http://127.0.0.1:2369/harbour-line-to-reopen/', publish_date: '2026-03-10T09:00:00.000Z', item: null },
    });
    expect((await items(ghost)).length).toBe(count);
    expect((await server.request('POST', `/v1/projects/${ghost}/integrations/cms/test`, { body: { post: { current: { id: 5 } } } })).status).toBe(422);
  });
});
