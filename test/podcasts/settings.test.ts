import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let otherProject: number;
beforeAll(async () => {
  server = await startServer();
  otherProject = (await server.request('POST', '/v1/projects', { body: { name: 'Sports desk', language: 'de_DE' } })).body.id;
});
afterAll(() => server.stop());

describe('podcast settings', () => {
  it('has defaults from the project', async () => {
    const reply = await server.request('GET', `/v1/projects/${otherProject}/podcast_settings`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      title: 'Sports desk',
      description: 'Sports desk',
      author: 'Sports desk',
      owner: { name: 'Sports desk', email: null },
      image_url: null,
      language: 'de_DE',
      categories: [],
      explicit: false,
      type: 'episodic',
      copyright: null,
      link: null,
      enabled: true,
      updated: null,
    });
  });

  it('changes only the fields sent', async () => {
    const change = {
      title: 'Sports daily',
      owner: { name: 'Sports desk', email: 'podcast@news.example.com' },
      image_url: 'https://news.example.com/podcast.jpg',
      categories: ['Sports', 'News > Sports News'],
      explicit: true,
      type: 'serial',
    };
    const reply = await server.request('PUT', `/v1/projects/${otherProject}/podcast_settings`, { body: { ...change, unknown: 1 } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ ...change, description: 'Sports desk', language: 'de_DE', enabled: true });
    expect(reply.body).not.toHaveProperty('unknown');
    expect(new Date(reply.body.updated).toISOString()).toBe(reply.body.updated);
    expect((await server.request('GET', `/v1/projects/${otherProject}/podcast_settings`)).body).toEqual(reply.body);
    const again = await server.request('PUT', `/v1/projects/${otherProject}/podcast_settings`, { body: { title: 'Sports daily' } });
    expect(again.body.updated).toBe(reply.body.updated);
  });

  it('reports every invalid field', async () => {
    const reply = await server.request('PUT', '/v1/projects/1/podcast_settings', {
      body: { image_url: 'http://news.example.com/a.jpg', categories: ['Gardening'], type: 'daily', explicit: 'no', owner: { email: 'nope' }, language: 'english' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: any) => error.location).sort()).toEqual(['categories.0', 'explicit', 'image_url', 'language', 'owner.email', 'type']);
    expect(reply.body.errors.find((error: any) => error.location === 'categories.0').message).toContain('Apple Podcasts category');
  });

  it('answers 404 for unknown projects and needs a key', async () => {
    expect((await server.request('GET', '/v1/projects/999/podcast_settings')).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/1/podcast_settings', { key: null })).status).toBe(401);
  });
});
