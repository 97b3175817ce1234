// An empty string in an optional text or URL field means "no value", as publishing plugins send it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const BLANK = {
  title: '',
  summary: '',
  author: '',
  source_id: '',
  source_url: '',
  image_url: '',
  publish_date: '',
  language: '',
  ai_summary_prompt: '',
};
const NONE = Object.fromEntries(Object.keys(BLANK).map((key) => [key, null]));

const BODIES = {
  auto_segment: { type: 'auto_segment', body: '<p>Text.</p>' },
  manual_segment: { type: 'manual_segment', segments: [{ content_type: 'text', text: 'Spoken.', marker: '', audio_url: '', image_url: '', video_url: '' }] },
  audio_upload: { type: 'audio_upload', audio_url: 'https://cdn.example.com/episode.mp3' },
};

const FILLED = {
  title: 'A title',
  summary: 'A summary.',
  author: 'A. Writer',
  source_id: 'post-7',
  source_url: 'https://news.example.com/post-7',
  image_url: 'https://news.example.com/post-7.jpg',
  publish_date: '2026-03-01T06:00:00.000Z',
  language: 'en_GB',
  ai_summary_prompt: 'Shorter, please.',
};

describe.each(Object.entries(BODIES))('%s', (type, body) => {
  it('stores every blank field as null on create, in the answer and on read-back', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', { body: { ...body, ...BLANK, summarization_settings: { enabled: true, model: '', prompt: '' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await server.request('GET', `/v1/projects/1/content/${created.body.id}`);
    for (const item of [created.body, read.body]) {
      for (const key of Object.keys(BLANK)) expect(item[key] ?? null, key).toBe(null);
      expect(item.summarization_settings).toMatchObject({ enabled: true, model: null, prompt: null });
    }
  });

  it('clears a field with a blank on update', async () => {
    const created = await server.request('POST', '/v1/projects/1/content', { body: { ...body, ...FILLED, source_id: `${type}-${FILLED.source_id}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ ...FILLED, source_id: `${type}-${FILLED.source_id}` });
    const updated = await server.request('PUT', `/v1/projects/1/content/${created.body.id}`, { body: BLANK });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const read = await server.request('GET', `/v1/projects/1/content/${created.body.id}`);
    for (const item of [updated.body, read.body]) expect(Object.fromEntries(Object.keys(BLANK).map((key) => [key, item[key] ?? null]))).toEqual(NONE);
  });
});

describe('what a blank does not excuse', () => {
  it.each([
    [{ body: '' }, 'body'],
    [{ body: '<p>x</p>', image_url: ' ' }, 'image_url'],
    [{ body: '<p>x</p>', source_id: '   ' }, 'source_id'],
    [{ type: 'manual_segment', segments: [{ content_type: 'text', text: '' }] }, 'segments.0.text'],
    [{ type: 'manual_segment', segments: [{ content_type: 'audio', audio_url: '' }] }, 'segments.0.audio_url'],
    [{ type: 'audio_upload', audio_url: '' }, 'audio_url'],
  ])('%o is refused at %s', async (body, location) => {
    const reply = await server.request('POST', '/v1/projects/1/content', { body });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: any) => error.location)).toContain(location);
  });

  it('a blank source_id frees the item\'s source id for another item', async () => {
    const first = await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>x</p>', source_id: 'reused' } });
    expect(first.status).toBe(201);
    expect((await server.request('PUT', `/v1/projects/1/content/${first.body.id}`, { body: { source_id: '' } })).status).toBe(200);
    const second = await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>y</p>', source_id: 'reused' } });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
  });
});
