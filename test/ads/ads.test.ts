import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, idIn, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const create = async (body: Record<string, unknown>, project = 1, key?: string) => {
  const reply = await server.request('POST', `/v1/projects/${project}/ads`, { body, key });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const AUDIO = 'https://ads.example.com/spring-sale.mp3';

describe('ad resources', () => {
  it('creates a custom ad with defaults, and gets and lists it', async () => {
    const created = await create({ type: 'custom', media_url: AUDIO, title: 'Spring sale' });
    expect(created).toEqual({
      id: expect.any(Number),
      type: 'custom',
      placement: 'pre-roll',
      vast_url: null,
      title: 'Spring sale',
      click_through_url: null,
      media_url: AUDIO,
      media: [{ id: created.id, content_type: 'audio/mpeg', url: AUDIO, duration: null }],
      image_url: null,
      theme: null,
      dark_theme: null,
      light_theme: null,
      enabled: true,
      starts_at: null,
      ends_at: null,
      created: expect.any(String),
      updated: created.created,
    });
    expect(created.id).toBeGreaterThan(0);
    expect(new Date(created.created).toISOString()).toBe(created.created);
    expect((await server.request('GET', `/v1/projects/1/ads/${created.id}`)).body).toEqual(created);
    expect((await server.request('GET', '/v1/projects/1/ads')).body).toContainEqual(created);
  });

  it('creates a VAST ad and keeps every field it is given', async () => {
    const body = {
      type: 'vast',
      placement: 'mid-roll',
      vast_url: 'https://adserver.example.com/vast.xml?slot=1',
      click_through_url: 'https://shop.example.com/',
      image_url: 'https://shop.example.com/banner.png',
      theme: { text_color: '#ffffff', background_color: '#000000', icon_color: 'red' },
      dark_theme: null,
      light_theme: { text_color: '#111' },
      enabled: false,
      starts_at: '2026-06-01T10:00:00+02:00',
      ends_at: '2026-07-01T00:00:00Z',
    };
    const created = await create(body);
    expect(created).toMatchObject({ ...body, starts_at: '2026-06-01T08:00:00.000Z', ends_at: '2026-07-01T00:00:00.000Z', media_url: null, media: [] });
  });

  it('updates the fields it is given, and deletes', async () => {
    const created = await create({ type: 'custom', media_url: AUDIO });
    const changes = { placement: 'post-roll', media_url: 'https://ads.example.com/clip.mp4', enabled: false };
    const updated = await server.request('PUT', `/v1/projects/1/ads/${created.id}`, { body: changes });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ ...changes, media: [{ content_type: 'video/mp4', url: changes.media_url }], created: created.created });
    expect((await server.request('GET', `/v1/projects/1/ads/${created.id}`)).body).toEqual(updated.body);

    expect((await server.request('DELETE', `/v1/projects/1/ads/${created.id}`)).status).toBe(204);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await server.request(method, `/v1/projects/1/ads/${created.id}`, method === 'PUT' ? { body: { enabled: true } } : {});
      expect(reply.status, method).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
    expect((await server.request('GET', '/v1/projects/1/ads?pagination[limit]=100')).body.map((ad: any) => ad.id)).not.toContain(created.id);
  });

  it('pages the list in creation order', async () => {
    const all = (await server.request('GET', '/v1/projects/1/ads?pagination[limit]=100')).body.map((ad: any) => ad.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    const second = await server.request('GET', '/v1/projects/1/ads?pagination[limit]=1&pagination[offset]=1');
    expect(second.body.map((ad: any) => ad.id)).toEqual([all[1]]);
    expect((await server.request('GET', '/v1/projects/1/ads?pagination[limit]=0')).status).toBe(422);
  });
});

describe('validation', () => {
  const rejects = async (body: unknown, location: string, method = 'POST', path = '/v1/projects/1/ads') => {
    const reply = await server.request(method, path, { body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(422);
    expect(reply.body).toMatchObject({ code: 422, message: expect.any(String) });
    expect(reply.body.errors.map((error: any) => error.location)).toContain(location);
  };

  it('answers 422 at the field', async () => {
    await rejects({ media_url: AUDIO }, 'type');
    await rejects({ type: 'banner', media_url: AUDIO }, 'type');
    await rejects({ type: 'custom', media_url: AUDIO, placement: 'mid' }, 'placement');
    await rejects({ type: 'custom' }, 'media_url');
    await rejects({ type: 'custom', media_url: 'ftp://ads.example.com/a.mp3' }, 'media_url');
    await rejects({ type: 'custom', media_url: 'https://ads.example.com/page.html' }, 'media_url');
    await rejects({ type: 'vast' }, 'vast_url');
    await rejects({ type: 'vast', vast_url: 'not a url' }, 'vast_url');
    await rejects({ type: 'custom', media_url: AUDIO, enabled: 'yes' }, 'enabled');
    await rejects({ type: 'custom', media_url: AUDIO, starts_at: 'tomorrow' }, 'starts_at');
    await rejects({ type: 'custom', media_url: AUDIO, theme: { text_color: 'not-a-colour' } }, 'theme.text_color');
    await rejects({ type: 'custom', media_url: AUDIO, starts_at: '2026-05-02T00:00:00Z', ends_at: '2026-05-01T00:00:00Z' }, 'ends_at');
    await rejects({ type: 'custom', media_url: AUDIO, starts_at: '2026-05-01T00:00:00Z', ends_at: '2026-05-01T00:00:00Z' }, 'ends_at');
  });

  it('checks an update against the ad it changes', async () => {
    const created = await create({ type: 'custom', media_url: AUDIO, starts_at: '2026-05-01T00:00:00Z' });
    const path = `/v1/projects/1/ads/${created.id}`;
    await rejects({ ends_at: '2026-04-01T00:00:00Z' }, 'ends_at', 'PUT', path);
    await rejects({ type: 'vast' }, 'vast_url', 'PUT', path);
    await rejects({ media_url: null }, 'media_url', 'PUT', path);
    expect((await server.request('GET', path)).body).toEqual(created);
    const switched = await server.request('PUT', path, { body: { type: 'vast', vast_url: 'https://adserver.example.com/v.xml' } });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ type: 'vast', vast_url: 'https://adserver.example.com/v.xml' });
  });
});

describe('projects and keys', () => {
  it('keeps ads inside their project', async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', 'Ads elsewhere');
    expect(made.code, made.stderr).toBe(0);
    const projectId = idIn(made.stdout, 'project');
    const projectKey = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${projectId}/ads`, { key: projectKey })).status, { timeout: 10_000 }).toBe(200);

    const theirs = await create({ type: 'custom', media_url: AUDIO }, projectId, projectKey);
    const ours = await create({ type: 'custom', media_url: AUDIO });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const options = method === 'PUT' ? { body: { enabled: false } } : {};
      expect((await server.request(method, `/v1/projects/1/ads/${theirs.id}`, options)).status, method).toBe(404);
      expect((await server.request(method, `/v1/projects/${projectId}/ads/${ours.id}`, { ...options, key: projectKey })).status, method).toBe(404);
    }
    expect((await server.request('GET', '/v1/projects/1/ads', { key: projectKey })).status).toBe(404);
    expect((await server.request('POST', '/v1/projects/1/ads', { key: projectKey, body: { type: 'vast', vast_url: 'https://a.example.com/v' } })).status).toBe(404);
    const own = await server.request('GET', `/v1/projects/${projectId}/ads`, { key: projectKey });
    expect(own.body.map((ad: any) => ad.id)).toEqual([theirs.id]);
    expect((await server.request('GET', `/v1/projects/${projectId}/ads/${theirs.id}`)).body.enabled).toBe(true);
  });

  it('answers 404 for ad ids that are not positive integers, and needs a key', async () => {
    for (const id of ['abc', '-1', '1.5', '99999999999999999999']) {
      expect((await server.request('GET', `/v1/projects/1/ads/${id}`)).status).toBe(404);
    }
    expect((await server.request('GET', '/v1/projects/1/ads', { key: null })).status).toBe(401);
  });
});
