// Script templates, summarization settings and `summarize` with the embedded extractive summarizer, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { estimateTokens } from '../../src/infrastructure/summarizer/port.ts';
import { sentencesOfText } from '../../src/infrastructure/summarizer/extractive.ts';

const ARTICLE_SENTENCES = [
  'The city council approved a new flood barrier for the river district on Tuesday.',
  'The barrier will protect four hundred homes that flooded twice in the last decade.',
  'Work on the flood barrier starts in spring and should end before the autumn storms.',
  'The mayor said the council would pay for the barrier from its reserve fund.',
];
const BODY = `<p>${ARTICLE_SENTENCES.slice(0, 2).join(' ')}</p><p>${ARTICLE_SENTENCES.slice(2).join(' ')}</p>`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const itemEvents = async (id: string) => (await server.request('GET', `/v1/projects/1/content/${id}?segments=full`)).body;

describe('script templates', () => {
  it('are created, listed as a bare array of {id, slug, name}, read, changed and deleted', async () => {
    const created = await server.request('POST', '/v1/summarization_settings_templates', {
      body: { name: 'Two-sentence teaser', prompt: 'Write a two-sentence teaser.', model: 'extractive', temperature: 0.2, limit_token_usage: 60 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['created', 'id', 'limit_token_usage', 'model', 'name', 'prompt', 'slug', 'temperature', 'updated']);
    expect(created.body).toMatchObject({ slug: 'two-sentence-teaser', name: 'Two-sentence teaser', prompt: 'Write a two-sentence teaser.', model: 'extractive', temperature: 0.2, limit_token_usage: 60 });

    const bare = await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Plain', slug: 'plain-one' } });
    expect(bare.body).toMatchObject({ slug: 'plain-one', prompt: null, model: null, temperature: null, limit_token_usage: null });

    const list = await server.request('GET', '/v1/summarization_settings_templates');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toEqual(expect.arrayContaining([{ id: created.body.id, slug: 'two-sentence-teaser', name: 'Two-sentence teaser' }, { id: bare.body.id, slug: 'plain-one', name: 'Plain' }]));

    expect((await server.request('GET', `/v1/summarization_settings_templates/${created.body.id}`)).body).toEqual(created.body);
    const changed = await server.request('PUT', `/v1/summarization_settings_templates/${bare.body.id}`, { body: { prompt: 'Summarize briefly.', limit_token_usage: 100 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Plain', prompt: 'Summarize briefly.', limit_token_usage: 100 });

    expect((await server.request('DELETE', `/v1/summarization_settings_templates/${bare.body.id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/summarization_settings_templates/${bare.body.id}`)).status).toBe(404);
  });

  it('are read with a project key and written only with an organization key', async () => {
    const template = (await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Readable' } })).body;
    const projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', '1')).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/summarization_settings_templates', { key: projectKey })).status, { timeout: 10_000 }).toBe(200);
    expect((await server.request('GET', `/v1/summarization_settings_templates/${template.id}`, { key: projectKey })).body).toEqual(template);
    expect((await server.request('POST', '/v1/summarization_settings_templates', { key: projectKey, body: { name: 'Nope' } })).status).toBe(403);
    expect((await server.request('GET', '/v1/summarization_settings_templates', { key: null })).status).toBe(401);
  });

  it('refuse bad fields with a 422 at each, creating nothing', async () => {
    const before = (await server.request('GET', '/v1/summarization_settings_templates')).body;
    const reply = await server.request('POST', '/v1/summarization_settings_templates', {
      body: { name: '', slug: 'Not A Slug', model: 'gpt-imaginary', temperature: 2.5, limit_token_usage: 3001, prompt: 'x'.repeat(1001) },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: any) => error.location).sort()).toEqual(['limit_token_usage', 'name', 'prompt', 'slug', 'temperature']);
    const unknownModel = await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Imaginary', model: 'gpt-imaginary' } });
    expect(unknownModel.status).toBe(422);
    expect(unknownModel.body.errors).toEqual([{ location: 'model', message: expect.stringContaining('extractive') }]);
    expect((await server.request('GET', '/v1/summarization_settings_templates')).body).toEqual(before);
  });
});

describe('summarization settings', () => {
  it('answer every field, change the fields sent, and name their template', async () => {
    const project = (await server.request('POST', '/v1/projects', { body: { name: 'Settings desk' } })).body;
    const path = `/v1/projects/${project.id}/summarization_settings`;
    expect((await server.request('GET', path)).body).toEqual({ enabled: false, model: null, prompt: null, temperature: null, limit_token_usage: null, template: null, models: ['extractive'] });
    const template = (await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Desk style' } })).body;
    const changed = await server.request('PUT', path, { body: { enabled: true, limit_token_usage: 80, template: { id: template.id } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ enabled: true, model: null, prompt: null, temperature: null, limit_token_usage: 80, template: [{ id: template.id, slug: 'desk-style', name: 'Desk style' }], models: ['extractive'] });
    expect((await server.request('GET', path)).body).toEqual(changed.body);
    const cleared = await server.request('PUT', path, { body: { template: null } });
    expect(cleared.body).toMatchObject({ enabled: true, limit_token_usage: 80, template: null });
  });

  it('refuse bad fields and unknown templates with a 422, changing nothing', async () => {
    const path = '/v1/projects/1/summarization_settings';
    const before = (await server.request('GET', path)).body;
    const bad = await server.request('PUT', path, { body: { enabled: 'yes', temperature: -1, limit_token_usage: 0, template: { id: 'one' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((error: any) => error.location).sort()).toEqual(['enabled', 'limit_token_usage', 'temperature', 'template.id']);
    const unknown = await server.request('PUT', path, { body: { enabled: true, template: { id: 999_999 } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ location: 'template.id', message: 'names no script template of this organization' }]);
    expect((await server.request('PUT', path, { body: { model: 'gpt-imaginary' } })).status).toBe(422);
    expect((await server.request('GET', path)).body).toEqual(before);
    expect((await server.request('GET', '/v1/projects/999/summarization_settings')).status).toBe(404);
  });
});

describe('summarize', () => {
  it('answers summary segments made of sentences of the article within the token limit, and records them on the item', async () => {
    const item = (await server.request('POST', '/v1/projects/1/content', { body: { title: 'Barrier approved', body: BODY, source_id: 'barrier-1' } })).body;
    const reply = await server.request('POST', '/v1/projects/1/content/barrier-1/summarize', { body: { limit_token_usage: 40 } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.length).toBeGreaterThan(0);
    const text = reply.body.map((segment: any) => segment.text).join(' ');
    for (const segment of reply.body) expect(segment).toMatchObject({ section: 'summary', content_type: 'text', audio_url: null, image_url: null, video_url: null });
    expect(estimateTokens(text)).toBeLessThanOrEqual(40);
    for (const sentence of sentencesOfText(text)) expect(ARTICLE_SENTENCES).toContain(sentence);
    expect(reply.body[0].voice).toEqual({ id: expect.any(Number), name: expect.any(String) });

    const after = await itemEvents(item.id);
    expect(after).toMatchObject({ summary: text, summary_enabled: true, status: 'queued' });
    expect(after.ai_summary_prompt).toContain('Summarize');
  });

  it('takes its parameters from the item settings, then templates and project settings, and records the prompt', async () => {
    const template = (await server.request('POST', '/v1/summarization_settings_templates', { body: { name: 'Short', prompt: 'One short sentence.', limit_token_usage: 25 } })).body;
    const item = (await server.request('POST', '/v1/projects/1/content', { body: { body: BODY, summarization_settings: { enabled: true, template: { id: template.id } } } })).body;
    const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(estimateTokens(reply.body.map((segment: any) => segment.text).join(' '))).toBeLessThanOrEqual(25);
    expect((await itemEvents(item.id)).ai_summary_prompt).toBe('One short sentence.');
    const asked = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { prompt: 'Two sentences, please.', limit_token_usage: 200 } });
    expect(asked.status).toBe(200);
    expect((await itemEvents(item.id)).ai_summary_prompt).toBe('Two sentences, please.');
  });

  it('replaces the summary segments of a manual_segment item', async () => {
    const item = (
      await server.request('POST', '/v1/projects/1/content', {
        body: {
          type: 'manual_segment',
          segments: [
            { section: 'title', text: 'Barrier approved' },
            { section: 'summary', text: 'An old summary.' },
            ...ARTICLE_SENTENCES.map((text) => ({ section: 'body', text })),
          ],
        },
      })
    ).body;
    const reply = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { limit_token_usage: 40 } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.every((segment: any) => segment.section === 'summary' && ARTICLE_SENTENCES.some((sentence) => segment.text.includes(sentence)))).toBe(true);
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const item = (await server.request('POST', '/v1/projects/1/content', { body: { body: BODY } })).body;
    const before = await itemEvents(item.id);
    const bad = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { temperature: 9, limit_token_usage: 0, prompt: '' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((error: any) => error.location).sort()).toEqual(['limit_token_usage', 'prompt', 'temperature']);
    const model = await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { body: { model: 'gpt-imaginary' } });
    expect(model.status).toBe(422);
    expect(model.body.errors[0].location).toBe('model');
    expect((await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { rawBody: '{"model":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await server.request('POST', '/v1/projects/1/content/no-such-item/summarize')).status).toBe(404);
    expect((await server.request('POST', `/v1/projects/1/content/${item.id}/summarize`, { key: null })).status).toBe(401);
    const upload = (await server.request('POST', '/v1/projects/1/content', { body: { type: 'audio_upload', audio_url: 'https://example.com/a.mp3' } })).body;
    const noText = await server.request('POST', `/v1/projects/1/content/${upload.id}/summarize`);
    expect(noText.status).toBe(422);
    expect(await itemEvents(item.id)).toEqual(before);
  });
});
