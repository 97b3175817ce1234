// The original maker's WordPress plugin (v7.0.0) against this service: its own request bodies, through HTTP, narrated.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/wordpress/${name}`, import.meta.url), 'utf8');
const SITE_ROOT = 'localhost:8888/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;

/** As the plugin's `Client::call_api` sends: its key, and `Content-Type: application/json` on POST, PUT and DELETE. */
const plugin = (method: string, path: string, rawBody?: string) =>
  server.request(method, `/v1/projects/1${path}`, {
    rawBody,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
  });

/**
 * What the plugin reads from an item: `id` and `preview_token` (`Sync::process_response`), `source_url` (compared
 * with the site's root before adopting an item), `status` (the editor polls it), `language` and `body_voice_id`
 * (copied into post meta with `|| ''`).
 */
function expectReadableByPlugin(item: any, post: { source_id: string; source_url: string }) {
  expect(item.id).toMatch(UUID);
  expect(item.preview_token).toEqual(expect.any(String));
  expect(item.preview_token).not.toBe('');
  expect(item.source_id).toBe(post.source_id);
  expect(item.source_url).toBe(post.source_url);
  expect(item.source_url.replace(/^https?:\/\//, '').startsWith(SITE_ROOT)).toBe(true);
  expect(['draft', 'queued', 'processing', 'processed', 'error', 'skipped']).toContain(item.status);
  for (const field of ['language', 'body_voice_id']) {
    if (field in item) expect(item[field] === null || ['string', 'number'].includes(typeof item[field])).toBe(true);
  }
}

const CREATES = {
  featured: 'create-featured-image.json',
  plain: 'create-without-featured-image.json',
  excerpt: 'create-prepend-excerpt.json',
  pending: 'create-pending.json',
} as const;
type Post = keyof typeof CREATES;

const created = {} as Record<Post, any>;
const narrated = {} as Record<Post, any>;

beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
  for (const [post, file] of Object.entries(CREATES) as [Post, string][]) {
    const reply = await plugin('POST', '/content', fixture(file));
    expect(reply.status, `${file}: ${JSON.stringify(reply.body)}`).toBe(201);
    created[post] = reply.body;
  }
  const settledItems = await Promise.all(Object.values(created).map((item) => settled(server, item.id)));
  for (const [index, post] of (Object.keys(CREATES) as Post[]).entries()) narrated[post] = settledItems[index];
}, 180_000);
afterAll(() => server.stop());

describe('creates', () => {
  it('are accepted with the fields the plugin reads, featured image or not', () => {
    for (const [post, file] of Object.entries(CREATES) as [Post, string][]) {
      expectReadableByPlugin(created[post], JSON.parse(fixture(file)));
    }
    expect(created.featured.image_url).toBe('http://localhost:8888/wp-content/uploads/2026/03/harbour-line.jpg');
    for (const post of ['plain', 'excerpt', 'pending'] as const) expect(created[post].image_url ?? null).toBe(null);
    expect(created.featured).toMatchObject({ title: 'Harbour Line to reopen after council vote', author: 'Jane Smith', tags: ['News', 'Transport', 'Harbour Line'], publish_date: '2026-03-10T09:30:00.000Z', published: true });
    expect(created.pending.published).toBe(false);
  });

  it('are narrated, each to processed with its audio', () => {
    for (const [post, item] of Object.entries(narrated)) {
      expect(item.status, `${post}: ${item.error}`).toBe('processed');
      expect(item.audio.map((file: any) => file.content_type), post).toEqual(['audio/mpeg', 'application/x-mpegURL']);
      expect(item.segments.length, post).toBeGreaterThan(1);
    }
  });

  it('read the excerpt wrapper as the summary, spoken after the title and kept out of the body', () => {
    const excerpt = 'The library\'s reading room opens again on Saturday.';
    const spoken = narrated.excerpt.segments.map((segment: any) => [segment.section, segment.text]);
    expect(spoken).toEqual([
      ['title', 'Library reading room reopens'],
      ['summary', excerpt],
      ['body', 'The reading room on the second floor has been closed since the flood of 2024.'],
      ['body', 'Opening hours are unchanged.'],
    ]);
  });

  it('keep the markers older plugin versions wrote, and mark every other segment', () => {
    const segments = narrated.featured.segments;
    expect(segments.find((segment: any) => segment.text?.startsWith('After nine years')).marker).toBe('4b1c8f0e-2f6a-4c53-9d0e-5a7b3c2d1e0f');
    expect(segments.find((segment: any) => segment.text?.startsWith('Trains will run')).marker).toBe('9a7e6d5c-4b3a-4291-8f7e-6d5c4b3a2910');
    for (const segment of segments) expect(segment.marker).toEqual(expect.any(String));
    expect(segments.at(-1).text).toBe('“This is the best news the east side has had in a decade,” said resident Tomás Berg.');
  });
});

describe('after a create', () => {
  it('updates by content id with the same body shape, answering the full item', async () => {
    const reply = await plugin('PUT', `/content/${created.featured.id}`, fixture('update.json'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectReadableByPlugin(reply.body, JSON.parse(fixture('update.json')));
    expect(reply.body.id).toBe(created.featured.id);
    expect(reply.body.body).toContain('Correction: an earlier version');
  });

  it("narrates the edited post again, though the plugin never sends auto_segment_updates_enabled", async () => {
    // The original's answers to these creates carry `true`: an edited post's audio is made again.
    for (const post of Object.keys(CREATES) as Post[]) expect(created[post].auto_segment_updates_enabled, post).toBe(true);
    const correction = 'Correction: an earlier version of this article gave the wrong year for the closure.';
    expect(narrated.featured.segments.map((segment: any) => segment.text)).not.toContain(correction);
    const reply = await plugin('PUT', `/content/${created.featured.id}`, fixture('update.json'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.auto_segment_updates_enabled).toBe(true);
    expect(reply.body.status).toBe('queued');
    const item = await settled(server, created.featured.id);
    expect(item.status, item.error).toBe('processed');
    expect(item.segments.map((segment: any) => segment.text)).toContain(correction);
    expect(item.audio[0].url).not.toBe(narrated.featured.audio[0].url);
  }, 120_000);

  it('answers a second create of the same post with the 422 the plugin recovers from, and the lookup it then makes', async () => {
    const duplicate = await plugin('POST', '/content', fixture(CREATES.plain));
    expect(duplicate.status).toBe(422);
    expect(duplicate.body).toMatchObject(JSON.parse(fixture('duplicate-source-id-422.json')));
    const lookup = await plugin('GET', '/content/102');
    expect(lookup.status).toBe(200);
    expectReadableByPlugin(lookup.body, JSON.parse(fixture(CREATES.plain)));
    expect(lookup.body.id).toBe(created.plain.id);
  });

  it('serves the player by post id as Magic Embed asks for it', async () => {
    const reply = await server.request('GET', '/v1/projects/1/player/by_source_id/101', {
      key: null,
      headers: { 'X-Import': 'true', 'X-Referer': 'http://localhost:8888/2026/03/10/harbour-line-to-reopen-after-council-vote/' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.content.map((item: any) => item.id)).toEqual([created.featured.id]);
  });
});

describe('deletes', () => {
  it('delete one item with an empty JSON request, and let the post be created again after a 404 on update', async () => {
    const deleted = await plugin('DELETE', `/content/${created.pending.id}`, '');
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe(null);
    expect((await plugin('GET', `/content/${created.pending.id}`)).body).toMatchObject({ code: 404, message: 'Not Found' });
    // `Sync::update_or_recreate_audio`: a 404 on PUT makes the plugin create the post's item again.
    const update = await plugin('PUT', `/content/${created.pending.id}`, fixture(CREATES.pending));
    expect(update.status).toBe(404);
    expect(update.body.code).toBe(404);
    const again = await plugin('POST', '/content', fixture(CREATES.pending));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).not.toBe(created.pending.id);
    const item = await settled(server, again.body.id);
    expect(item.status, item.error).toBe('processed');
  }, 120_000);

  it('batch delete by content ids', async () => {
    const body = fixture('batch-delete.json')
      .replace('<content id of post 102>', created.plain.id)
      .replace('<content id of post 103>', created.excerpt.id);
    const reply = await plugin('POST', '/content/batch_delete', body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    for (const id of [created.plain.id, created.excerpt.id]) expect((await plugin('GET', `/content/${id}`)).status).toBe(404);
    expect((await plugin('GET', '/content/101')).status).toBe(200);
  });
});
