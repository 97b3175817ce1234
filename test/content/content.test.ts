import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let voiceId = 0;
beforeAll(async () => {
  server = await startServer();
  voiceId = (await server.request('GET', '/v1/organization/voices?filter[language.code]=en_GB')).body[0].id;
  article.body_voice_id = voiceId;
});
afterAll(() => server.stop());

const post = (body: unknown, query = '') => server.request('POST', `/v1/projects/1/content${query}`, { body });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const article = {
  type: 'auto_segment',
  title: 'Rivers of the north',
  body: '<p>The river rose <b>overnight</b>.</p><p>By morning the bridge was closed.</p>',
  source_url: 'https://example.com/rivers',
  author: 'Ada Reporter',
  tags: ['weather', 'local'],
  publish_date: '2026-03-01T08:00:00+02:00',
  published: true,
  body_voice_id: 0,
  language: 'en_GB',
  metadata: { section: 'news' },
  summarization_settings: { enabled: true, template: { id: 2 } },
  video_settings: { enabled: false, variants: ['16:9'], sizes: [{ name: 'landscape', width: 1920, height: 1080, enabled: true }] },
};

describe('create content', () => {
  it('answers 201 with a queued item that GET sees at once', async () => {
    const created = await post({ ...article, source_id: 'post-1' });
    expect(created.status).toBe(201);
    const item = created.body;
    expect(item.id).toMatch(UUID);
    expect(item).toMatchObject({
      status: 'queued',
      type: 'auto_segment',
      title: 'Rivers of the north',
      source_id: 'post-1',
      source_url: 'https://example.com/rivers',
      author: 'Ada Reporter',
      tags: ['weather', 'local'],
      publish_date: '2026-03-01T06:00:00.000Z',
      published: true,
      body_voice_id: voiceId,
      language: 'en_GB',
      metadata: { section: 'news' },
      title_enabled: true,
      body_enabled: true,
      summary_enabled: false,
      audio: [],
      video: [],
      segments: [],
    });
    expect(item.preview_token).toMatch(/^[\w-]{20,}$/);
    expect(Number.isInteger(item.legacy_id) && item.legacy_id > 0).toBe(true);
    expect(new Date(item.created).toISOString()).toBe(item.created);

    const fetched = await server.request('GET', `/v1/projects/1/content/${item.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(item);
  });

  it('defaults the type to auto_segment and rejects an unknown type', async () => {
    const created = await post({ body: '<p>Short note.</p>' });
    expect(created.status).toBe(201);
    expect(created.body.type).toBe('auto_segment');
    const unknown = await post({ type: 'podcast', body: 'x' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      code: 422,
      message: 'Invalid request body',
      errors: [{ location: 'type', message: 'must be one of: auto_segment, manual_segment, audio_upload' }],
    });
  });

  it('accepts manual segments and names the segment that is wrong', async () => {
    const segments = [
      { content_type: 'text', section: 'title', text: 'Hello there', voice: { id: voiceId } },
      { content_type: 'audio', audio_url: 'https://cdn.example.com/jingle.mp3' },
    ];
    const created = await post({ type: 'manual_segment', title: 'Manual', segments });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'manual_segment', status: 'queued', segments: [] });

    const bad = await post({ type: 'manual_segment', segments: [segments[0], { content_type: 'image' }, { content_type: 'text', text: '' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { location: 'segments.1.image_url', message: 'is required when content_type is image' },
      { location: 'segments.2.text', message: 'is required when content_type is text' },
    ]);
    expect((await post({ type: 'manual_segment' })).body.errors).toEqual([{ location: 'segments', message: 'is required' }]);
  });

  it('accepts an audio upload by URL', async () => {
    const created = await post({ type: 'audio_upload', title: 'Interview', audio_url: 'https://cdn.example.com/interview.mp3' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'audio_upload', audio_url: 'https://cdn.example.com/interview.mp3' });
    const missing = await post({ type: 'audio_upload', title: 'No file' });
    expect(missing.body.errors).toEqual([{ location: 'audio_url', message: 'is required' }]);
  });

  it.each([
    [{ title: 'x'.repeat(501) }, 'title', 'must have at most 500 characters'],
    [{ summary: 's'.repeat(2001) }, 'summary', 'must have at most 2000 characters'],
    [{ body: 'b'.repeat(100_001) }, 'body', 'must have at most 100000 characters'],
    [{ body: '' }, 'body', 'must have at least 1 characters'],
    [{ body: undefined, source_url: undefined }, 'body', 'is required, unless source_url names the page to extract it from'],
    [{ language: 'english' }, 'language', 'must match /^[a-z]{2}(_[A-Z]{2})?$/'],
    [{ language: 'en_us' }, 'language', 'must match /^[a-z]{2}(_[A-Z]{2})?$/'],
    [{ body_voice_id: 0 }, 'body_voice_id', 'must be greater than or equal to 1'],
    [{ title_voice_id: 1.5 }, 'title_voice_id', 'must be an integer'],
    [{ source_url: 'not a url' }, 'source_url', 'must be a valid http(s) URL'],
    [{ source_url: `https://example.com/${'a'.repeat(2040)}` }, 'source_url', 'must have at most 2048 characters'],
    [{ image_url: 'ftp://example.com/a.png' }, 'image_url', 'must be a valid http(s) URL'],
    [{ ai_summary_prompt: 'p'.repeat(1001) }, 'ai_summary_prompt', 'must have at most 1000 characters'],
    [{ summarization_settings: { temperature: 2.5 } }, 'summarization_settings.temperature', 'must be less than or equal to 2'],
    [{ summarization_settings: { limit_token_usage: 3001 } }, 'summarization_settings.limit_token_usage', 'must be less than or equal to 3000'],
    [{ feature_image: { url: 'https://example.com/i.png', video_settings: { crop_coordinates: { '16:9': [1, 2, 3, 4, 5] } } } }, 'feature_image.video_settings.crop_coordinates.16:9', 'must have at most 4 items'],
    [{ published: 'yes' }, 'published', 'must be a boolean'],
    [{ publish_date: 'tomorrow' }, 'publish_date', 'must be an ISO 8601 date-time'],
    [{ tags: 'news' }, 'tags', 'must be an array'],
  ])('rejects %j with 422 at %s', async (change, location, message) => {
    const reply = await post({ ...article, ...change });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toContainEqual({ location, message });
  });

  it('rejects voices that are not in the catalogue', async () => {
    const reply = await post({ type: 'manual_segment', title_voice_id: 999, segments: [{ content_type: 'text', text: 'Hi', voice: { id: 12345 } }] });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([
      { location: 'title_voice_id', message: 'is not a known voice (see GET /organization/voices)' },
      { location: 'segments.0.voice.id', message: 'is not a known voice (see GET /organization/voices)' },
    ]);
  });

  it('rejects a body that is not an object', async () => {
    const reply = await server.request('POST', '/v1/projects/1/content', { rawBody: '[1,2]' });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'body', message: 'must be a JSON object' }]);
  });
});

describe('source_id', () => {
  it('is unique per project and free again after delete', async () => {
    const first = await post({ ...article, source_id: 'wp-42' });
    expect(first.status).toBe(201);
    const second = await post({ ...article, source_id: 'wp-42' });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ code: 422, message: 'Invalid request body', errors: [{ location: 'source_id', message: 'has already been taken' }] });

    expect((await server.request('DELETE', `/v1/projects/1/content/${first.body.id}`)).status).toBe(204);
    const again = await post({ ...article, source_id: 'wp-42' });
    expect(again.status).toBe(201);
  });

  it('cannot be taken over by an update, and is released when changed', async () => {
    const a = await post({ ...article, source_id: 'wp-a' });
    const b = await post({ ...article, source_id: 'wp-b' });
    const clash = await server.request('PUT', `/v1/projects/1/content/${b.body.id}`, { body: { source_id: 'wp-a' } });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([{ location: 'source_id', message: 'has already been taken' }]);
    expect((await server.request('GET', `/v1/projects/1/content/${b.body.id}`)).body.source_id).toBe('wp-b');

    const renamed = await server.request('PUT', `/v1/projects/1/content/${a.body.id}`, { body: { source_id: 'wp-a2' } });
    expect(renamed.status).toBe(200);
    expect((await server.request('PUT', `/v1/projects/1/content/${b.body.id}`, { body: { source_id: 'wp-a' } })).status).toBe(200);
  });

  it('keeps one item when the same source_id is created concurrently', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => post({ ...article, source_id: 'race-1' })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    const listed = await server.request('GET', '/v1/projects/1/content?filter[source_id]=race-1');
    expect(listed.body).toHaveLength(1);
  });
});

describe('lookups', () => {
  it('finds an item by UUID, source_id and legacy numeric id', async () => {
    const { body: item } = await post({ ...article, source_id: 'lookup-7' });
    for (const ref of [item.id, item.id.toUpperCase(), 'lookup-7', String(item.legacy_id)]) {
      const reply = await server.request('GET', `/v1/projects/1/content/${encodeURIComponent(ref)}`);
      expect(reply.status, ref).toBe(200);
      expect(reply.body.id).toBe(item.id);
    }
  });

  it('prefers a numeric source_id over a legacy id of the same digits', async () => {
    const { body: older } = await post({ ...article });
    const { body: numeric } = await post({ ...article, source_id: String(older.legacy_id) });
    const reply = await server.request('GET', `/v1/projects/1/content/${older.legacy_id}`);
    expect(reply.body.id).toBe(numeric.id);
  });

  it('answers 404 in the error shape for unknown ids', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', 'no-such-source', '999999999']) {
      const reply = await server.request('GET', `/v1/projects/1/content/${ref}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
  });

  it('shows segments at the detail asked for', async () => {
    const { body: item } = await post({ ...article });
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}?segments=none`)).body.segments).toBeNull();
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}?segments=full`)).body.segments).toEqual([]);
    const bad = await server.request('GET', `/v1/projects/1/content/${item.id}?segments=most`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ code: 422, message: 'Invalid query parameters', errors: [{ location: 'segments', message: 'must be one of: none, partial, full' }] });
  });
});

describe('update and delete', () => {
  it('PUT answers 200 with the full item and GET sees the change', async () => {
    const { body: item } = await post({ ...article, source_id: 'upd-1' });
    const updated = await server.request('PUT', '/v1/projects/1/content/upd-1', { body: { title: 'Rivers, revised', published: false, tags: ['x'] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: item.id, title: 'Rivers, revised', published: false, tags: ['x'], author: 'Ada Reporter', body: article.body });
    expect(updated.body.updated >= item.updated).toBe(true);
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).body).toEqual(updated.body);
  });

  it('PUT validates like create and leaves the item intact', async () => {
    const { body: item } = await post({ ...article });
    const bad = await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { title: 'y'.repeat(501), type: 'auto_segment' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ location: 'title', message: 'must have at most 500 characters' }]);
    const retype = await server.request('PUT', `/v1/projects/1/content/${item.id}`, { body: { type: 'manual_segment' } });
    expect(retype.status).toBe(422);
    expect(retype.body.errors[0].location).toBe('type');
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).body).toEqual(item);
    expect((await server.request('PUT', '/v1/projects/1/content/not-there', { body: { title: 'z' } })).status).toBe(404);
  });

  it('DELETE answers 204 with an empty body, then 404', async () => {
    const { body: item } = await post({ ...article, source_id: 'del-1' });
    const deleted = await server.request('DELETE', `/v1/projects/1/content/${item.legacy_id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).status).toBe(404);
    expect((await server.request('DELETE', `/v1/projects/1/content/${item.id}`)).status).toBe(404);
  });

  it('batch_delete removes every id given, by any kind of id', async () => {
    const a = (await post({ ...article, source_id: 'batch-a' })).body;
    const b = (await post({ ...article })).body;
    const c = (await post({ ...article })).body;
    const reply = await server.request('POST', '/v1/projects/1/content/batch_delete', { body: { ids: ['batch-a', b.id, c.legacy_id, 'unknown-id'] } });
    expect(reply.status).toBe(204);
    for (const item of [a, b, c]) expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).status).toBe(404);
    const bad = await server.request('POST', '/v1/projects/1/content/batch_delete', { body: { ids: [] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ location: 'ids', message: 'must have at least 1 items' }]);
  });
});
