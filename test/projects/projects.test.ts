import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { cli, idIn, keyIn } from '../support/cli.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('projects', () => {
  it('has the bootstrap project with defaults in the spec shape', async () => {
    const reply = await server.request('GET', '/v1/projects/1');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: 1,
      name: 'Default project',
      language: 'en_US',
      language_data: { code: 'en_US', name: 'American English' },
      environment: null,
      auto_publish_enabled: true,
      auto_video_publish_enabled: true,
      time_zone: 'UTC',
      pause_after_title_segments_seconds: 0.6,
      pause_after_segments_seconds: 0.3,
      content_total_count: 0,
      content_updated: null,
    });
  });

  it('creates, lists, updates and deletes with an organization key', async () => {
    const created = await server.request('POST', '/v1/projects', { body: { name: 'Culture desk', language: 'fr_FR', time_zone: 'Europe/Paris' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Culture desk', language: 'fr_FR', time_zone: 'Europe/Paris', content_total_count: 0 });
    const id = created.body.id;
    expect(Number.isInteger(id) && id > 1).toBe(true);

    const listed = await server.request('GET', '/v1/projects');
    expect(listed.body.map((p: { id: number }) => p.id)).toContain(id);
    expect((await server.request('GET', '/v1/projects?pagination[limit]=1&pagination[offset]=1')).body.map((p: { id: number }) => p.id)).toEqual([id]);

    const updated = await server.request('PUT', `/v1/projects/${id}`, {
      body: { name: 'Culture', language: { code: 'de_DE' }, pause_after_segments_seconds: 1.5, environment: 'staging', logo_color: '#ff0000', body: { voice_id: 4 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Culture', language: 'de_DE', pause_after_segments_seconds: 1.5, environment: 'staging', logo_color: '#ff0000', body: { voice_id: 4 }, time_zone: 'Europe/Paris' });
    expect((await server.request('GET', `/v1/projects/${id}`)).body).toEqual(updated.body);

    await server.request('POST', `/v1/projects/${id}/content`, { body: { body: '<p>one</p>' } });
    const counted = await server.request('GET', `/v1/projects/${id}`);
    expect(counted.body.content_total_count).toBe(1);
    expect(counted.body.content_updated).not.toBeNull();

    expect((await server.request('DELETE', `/v1/projects/${id}`)).status).toBe(204);
    expect((await server.request('GET', `/v1/projects/${id}`)).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/${id}/content`)).status).toBe(404);
  });

  it.each([
    [{ pause_after_segments_seconds: 3.5 }, 'pause_after_segments_seconds', 'must be less than or equal to 3'],
    [{ pause_after_title_segments_seconds: -1 }, 'pause_after_title_segments_seconds', 'must be greater than or equal to 0'],
    [{ time_zone: 'Mars/Olympus' }, 'time_zone', 'must be an IANA time zone name such as Europe/London'],
    [{ avatar_url: 'nope' }, 'avatar_url', 'must be a valid http(s) URL'],
    [{ avatar_url: `https://example.com/${'a'.repeat(2040)}` }, 'avatar_url', 'must have at most 2048 characters'],
    [{ environment: 'dev' }, 'environment', 'must be one of: production, staging'],
    [{ name: '' }, 'name', 'must have at least 1 characters'],
    [{ auto_publish_enabled: 'yes' }, 'auto_publish_enabled', 'must be a boolean'],
  ])('rejects %j with 422 and keeps the project', async (change, location, message) => {
    const before = (await server.request('GET', '/v1/projects/1')).body;
    const reply = await server.request('PUT', '/v1/projects/1', { body: change });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toContainEqual({ location, message });
    expect((await server.request('GET', '/v1/projects/1')).body).toEqual(before);
  });

  it('requires a name to create', async () => {
    const reply = await server.request('POST', '/v1/projects', { body: {} });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'name', message: 'is required' }]);
  });
});

describe('keys and isolation', () => {
  it('keeps a project key to its own project and away from organization routes', async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', 'Sports');
    expect(made.code, made.stderr).toBe(0);
    const sportsId = idIn(made.stdout, 'project');
    const sportsKey = keyIn(made.stdout);
    expect(sportsKey).toMatch(/^sk_/);

    // The key reaches the server once its projection has applied the CLI's events.
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${sportsId}`, { key: sportsKey })).status, { timeout: 10_000 }).toBe(200);
    const own = await server.request('POST', `/v1/projects/${sportsId}/content`, { key: sportsKey, body: { body: '<p>Match report</p>', source_id: 'match-1' } });
    expect(own.status).toBe(201);

    expect((await server.request('GET', '/v1/projects/1', { key: sportsKey })).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/1/content', { key: sportsKey })).status).toBe(404);
    expect((await server.request('POST', '/v1/projects/1/content', { key: sportsKey, body: { body: '<p>x</p>' } })).status).toBe(404);
    expect((await server.request('GET', `/v1/projects/1/content/${own.body.id}`)).status).toBe(404);
    expect((await server.request('GET', '/v1/projects', { key: sportsKey })).body.map((p: { id: number }) => p.id)).toEqual([sportsId]);
    const forbidden = await server.request('POST', '/v1/projects', { key: sportsKey, body: { name: 'Nope' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ code: 403, message: 'Forbidden' });
    expect((await server.request('DELETE', `/v1/projects/${sportsId}`, { key: sportsKey })).status).toBe(403);
  });

  it('keeps another organization out of this one', async () => {
    const made = await cli(server.env, 'organizations', 'create', '--name', 'Rival Media');
    expect(made.code, made.stderr).toBe(0);
    const rivalKey = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/projects', { key: rivalKey })).status, { timeout: 10_000 }).toBe(200);
    expect((await server.request('GET', '/v1/projects', { key: rivalKey })).body).toEqual([]);
    expect((await server.request('GET', '/v1/projects/1', { key: rivalKey })).status).toBe(404);
    expect((await server.request('GET', '/v1/projects/1/content', { key: rivalKey })).status).toBe(404);
  });

  it('revokes a key', async () => {
    const made = await cli(server.env, 'keys', 'create', '--organization', '1', '--label', 'temporary');
    const key = keyIn(made.stdout);
    const keyId = /key id ([\w-]+)/.exec(made.stdout)![1]!;
    await expect.poll(async () => (await server.request('GET', '/v1/projects/1', { key })).status, { timeout: 10_000 }).toBe(200);
    const revoked = await cli(server.env, 'keys', 'revoke', '--organization', '1', '--key-id', keyId);
    expect(revoked.code, revoked.stderr).toBe(0);
    await expect.poll(async () => (await server.request('GET', '/v1/projects/1', { key })).status, { timeout: 10_000 }).toBe(401);
  });
});
