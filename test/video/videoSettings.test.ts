import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let projectId: number;
beforeAll(async () => {
  server = await startServer();
  projectId = (await server.request('POST', '/v1/projects', { body: { name: 'Video desk' } })).body.id;
});
afterAll(() => server.stop());

const settingsPath = () => `/v1/projects/${projectId}/video_settings`;

describe('project video settings', () => {
  it('carries three frame sizes and no template by default', async () => {
    const reply = await server.request('GET', settingsPath());
    expect(reply.status).toBe(200);
    expect(reply.body.sizes).toEqual([
      { name: 'landscape', width: 1280, height: 720, enabled: true },
      { name: 'square', width: 1080, height: 1080, enabled: true },
      { name: 'portrait', width: 720, height: 1280, enabled: true },
    ]);
    expect(reply.body.variants).toEqual(['article']);
    expect(reply.body.template).toBeNull();
  });

  it('stores sizes sent with other fields and keeps the rest', async () => {
    const sizes = [
      { name: 'landscape', width: 1920, height: 1080, enabled: true },
      { name: 'portrait', width: 1080, height: 1920, enabled: false },
    ];
    const reply = await server.request('PUT', settingsPath(), { body: { enabled: true, variants: ['article', 'summary'], sizes } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ enabled: true, variants: ['article', 'summary'], sizes, text_font_size: 48, template: null });
    expect((await server.request('GET', settingsPath())).body).toEqual(reply.body);
    const later = await server.request('PUT', settingsPath(), { body: { text_font_size: 60 } });
    expect(later.body.sizes).toEqual(sizes);
  });

  it.each([
    [{ sizes: [{ name: 'wide', width: 0, height: 720, enabled: true }] }, 'sizes.0.width'],
    [{ sizes: [{ name: 'wide', width: 1280, height: 720 }] }, 'sizes.0.enabled'],
    [{ sizes: [{ name: '', width: 1280, height: 720, enabled: true }] }, 'sizes.0.name'],
    [{ sizes: [{ name: 'a', width: 640, height: 360, enabled: true }, { name: 'a', width: 360, height: 640, enabled: true }] }, 'sizes'],
    [{ template: { id: 0 } }, 'template.id'],
    [{ sizes: [{ name: 'huge', width: 7680, height: 7680, enabled: true }] }, 'sizes.0.width'],
    [{ sizes: [{ name: 'tall', width: 1080, height: 3841, enabled: true }] }, 'sizes.0.height'],
    [{ sizes: [{ name: 'dot', width: 15, height: 16, enabled: true }] }, 'sizes.0.width'],
    [{ sizes: [{ name: 'odd', width: 1279, height: 720, enabled: true }] }, 'sizes.0.width'],
  ])('refuses %j at %s with a 422 and changes nothing', async (body, location) => {
    const before = (await server.request('GET', settingsPath())).body;
    const reply = await server.request('PUT', settingsPath(), { body });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBeDefined();
    expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    expect((await server.request('GET', settingsPath())).body).toEqual(before);
  });
});

describe('video settings templates', () => {
  it('creates, lists, reads, changes and deletes a template', async () => {
    const settings = { background_color: '#102030', text_font_size: 64, sizes: [{ name: 'square', width: 1080, height: 1080, enabled: true }] };
    const created = await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Brand Story 1', settings } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), slug: 'brand-story-1', name: 'Brand Story 1', settings, created: expect.any(String), updated: created.body.created });
    const id = created.body.id;
    expect((await server.request('GET', `/v1/video_settings_templates/${id}`)).body).toEqual(created.body);

    const list = await server.request('GET', '/v1/video_settings_templates');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual({ id, slug: 'brand-story-1', name: 'Brand Story 1' });
    expect(list.body.every((entry: object) => Object.keys(entry).sort().join() === 'id,name,slug')).toBe(true);

    const changed = await server.request('PUT', `/v1/video_settings_templates/${id}`, { body: { name: 'Brand story', slug: 'brand', settings: { text_color: '#fafafa' } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, slug: 'brand', name: 'Brand story', settings: { text_color: '#fafafa' } });
    expect((await server.request('GET', `/v1/video_settings_templates/${id}`)).body).toEqual(changed.body);

    expect((await server.request('DELETE', `/v1/video_settings_templates/${id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/video_settings_templates/${id}`)).status).toBe(404);
    expect((await server.request('PUT', `/v1/video_settings_templates/${id}`, { body: { name: 'Again' } })).status).toBe(404);
    expect((await server.request('DELETE', `/v1/video_settings_templates/${id}`)).status).toBe(404);
    expect((await server.request('GET', '/v1/video_settings_templates/abc')).status).toBe(404);
  });

  it.each([
    [{}, 'name'],
    [{ name: 'Bad slug', slug: 'Not A Slug' }, 'slug'],
    [{ name: 'Bad size', settings: { text_font_size: 200 } }, 'settings.text_font_size'],
    [{ name: 'Nested', settings: { template: { id: 1 } } }, 'settings'],
  ])('refuses %j with a 422 at %s', async (body, location) => {
    const reply = await server.request('POST', '/v1/video_settings_templates', { body });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
  });

  it('may be named by a project; an unknown template is a 422', async () => {
    const template = (await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Evening news', settings: { text_color: '#ffee00' } } })).body;
    const named = await server.request('PUT', settingsPath(), { body: { template: { id: template.id } } });
    expect(named.status).toBe(200);
    expect(named.body.template).toEqual({ id: template.id });
    expect((await server.request('GET', settingsPath())).body.template).toEqual({ id: template.id });

    const unknown = await server.request('PUT', settingsPath(), { body: { template: { id: template.id + 1000 } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ location: 'template.id', message: 'names no video settings template of this organization' }]);
    expect((await server.request('GET', settingsPath())).body.template).toEqual({ id: template.id });

    const cleared = await server.request('PUT', settingsPath(), { body: { template: null } });
    expect(cleared.body.template).toBeNull();
  });

  it("refuses an item's own video size outside 16 to 3840 pixels a side with a 422 at the field", async () => {
    const article = { title: 'Tiny', body: '<p>A tiny video.</p>' };
    for (const [size, location] of [
      [{ name: 'dot', width: 1, height: 1 }, 'video_settings.sizes.0.width'],
      [{ name: 'huge', width: 1080, height: 7680 }, 'video_settings.sizes.0.height'],
    ] as const) {
      const reply = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { ...article, video_settings: { enabled: true, variants: ['article'], sizes: [size] } } });
      expect(reply.status).toBe(422);
      expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    }
    const listed = await server.request('GET', `/v1/projects/${projectId}/content?pagination[limit]=100`);
    expect(listed.body.filter((item: { title: string }) => item.title === 'Tiny')).toHaveLength(0);
  });

  it('may be named by an item; an unknown template is a 422 and nothing is stored', async () => {
    const template = (await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Item look' } })).body;
    const article = { title: 'Templated', body: '<p>A templated item.</p>' };
    const unknown = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { ...article, video_settings: { template: { id: template.id + 1000 } } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ location: 'video_settings.template.id', message: 'names no video settings template of this organization' }]);
    const created = await server.request('POST', `/v1/projects/${projectId}/content`, { body: { ...article, video_settings: { template: { id: template.id } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const changed = await server.request('PUT', `/v1/projects/${projectId}/content/${created.body.id}`, { body: { video_settings: { template: { id: template.id + 1000 } } } });
    expect(changed.status).toBe(422);
    const listed = await server.request('GET', `/v1/projects/${projectId}/content?pagination[limit]=100`);
    expect(listed.body.filter((item: { title: string }) => item.title === 'Templated')).toHaveLength(1);
  });

  it('is read with any key of the organization, written with organization keys, invisible to others', async () => {
    const template = (await server.request('POST', '/v1/video_settings_templates', { body: { name: 'Sports' } })).body;
    expect(template.settings).toEqual({});
    const projectKey = keyIn((await cli(server.env, 'keys', 'create', '--organization', '1', '--project', String(projectId))).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/video_settings_templates', { key: projectKey })).status, { timeout: 10_000 }).toBe(200);
    expect((await server.request('GET', `/v1/video_settings_templates/${template.id}`, { key: projectKey })).body).toEqual(template);
    expect((await server.request('POST', '/v1/video_settings_templates', { key: projectKey, body: { name: 'Nope' } })).status).toBe(403);
    expect((await server.request('DELETE', `/v1/video_settings_templates/${template.id}`, { key: projectKey })).status).toBe(403);

    const rivalKey = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Rival Media')).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/video_settings_templates', { key: rivalKey })).status, { timeout: 10_000 }).toBe(200);
    // A new organization's own templates are the built-in ones.
    expect((await server.request('GET', '/v1/video_settings_templates', { key: rivalKey })).body).toEqual([
      { id: expect.any(Number), slug: 'default', name: 'Default' },
      { id: expect.any(Number), slug: 'social', name: 'Social' },
    ]);
    expect((await server.request('GET', `/v1/video_settings_templates/${template.id}`, { key: rivalKey })).status).toBe(404);
  });
});

describe('built-in video templates', () => {
  it('are Default and Social in the first organization, with the settings docs/video.md lists', async () => {
    const list = (await server.request('GET', '/v1/video_settings_templates?pagination[limit]=100')).body;
    const [defaults, social] = ['default', 'social'].map((slug) => list.find((entry: { slug: string }) => entry.slug === slug));
    expect(defaults).toMatchObject({ name: 'Default' });
    expect(social).toMatchObject({ name: 'Social' });
    const read = (await server.request('GET', `/v1/video_settings_templates/${social.id}`)).body;
    expect(read.settings).toMatchObject({ text_animation: 'karaoke', background_color: 'linear-gradient(135deg, #1e3a8a, #7c3aed)' });
    expect(read.settings.sizes.filter((size: { enabled: boolean }) => size.enabled).map((size: { name: string }) => size.name)).toEqual(['portrait', 'square']);
    expect((await server.request('GET', `/v1/video_settings_templates/${defaults.id}`)).body.settings.sizes).toHaveLength(3);
  });

  it('are changed and deleted like any other, in a new organization too', async () => {
    const key = keyIn((await cli(server.env, 'organizations', 'create', '--name', 'Fresh Media')).stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/video_settings_templates', { key })).body?.length, { timeout: 10_000 }).toBe(2);
    const [defaults, social] = (await server.request('GET', '/v1/video_settings_templates', { key })).body;
    const changed = await server.request('PUT', `/v1/video_settings_templates/${social.id}`, { key, body: { name: 'Social feeds', settings: { text_color: '#fafafa' } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: social.id, slug: 'social', name: 'Social feeds', settings: { text_color: '#fafafa' } });
    expect((await server.request('DELETE', `/v1/video_settings_templates/${defaults.id}`, { key })).status).toBe(204);
    expect((await server.request('GET', '/v1/video_settings_templates', { key })).body).toEqual([{ id: social.id, slug: 'social', name: 'Social feeds' }]);
    // A project of the organization may name them like any template.
    const project = await server.request('POST', '/v1/projects', { key, body: { name: 'Fresh desk' } });
    expect(project.status).toBe(201);
    expect((await server.request('PUT', `/v1/projects/${project.body.id}/video_settings`, { key, body: { template: { id: social.id } } })).status).toBe(200);
  });
});
