import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, idIn, keyIn } from '../support/cli.ts';
import { startServer, uniqueId, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const create = async (body: Record<string, unknown>, project = 1, key?: string) => {
  const reply = await server.request('POST', `/v1/projects/${project}/access_tiers`, { body, key });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const taken = { code: 422, message: 'Invalid request body', errors: [{ location: 'name', message: 'has already been taken' }] };

describe('access tier resources', () => {
  it('creates, gets, lists and updates', async () => {
    const created = await create({ name: ' Premium ', description: 'Paying subscribers' });
    expect(created).toEqual({ id: expect.any(Number), name: 'Premium', description: 'Paying subscribers', created: expect.any(String), updated: created.created });
    expect((await server.request('GET', `/v1/projects/1/access_tiers/${created.id}`)).body).toEqual(created);
    expect((await server.request('GET', '/v1/projects/1/access_tiers')).body).toContainEqual(created);
    expect(await create({ name: `Basic ${uniqueId()}` })).toMatchObject({ description: null });

    const updated = await server.request('PUT', `/v1/projects/1/access_tiers/${created.id}`, { body: { description: null } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, name: 'Premium', description: null, created: created.created });
    expect((await server.request('GET', `/v1/projects/1/access_tiers/${created.id}`)).body).toEqual(updated.body);
  });

  it('keeps names unique per project, and frees a name when a tier is renamed', async () => {
    const name = `Gold ${uniqueId()}`;
    const gold = await create({ name });
    const again = await server.request('POST', '/v1/projects/1/access_tiers', { body: { name } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(taken);

    const other = await create({ name: `Silver ${uniqueId()}` });
    const clash = await server.request('PUT', `/v1/projects/1/access_tiers/${other.id}`, { body: { name } });
    expect(clash.body).toEqual(taken);
    // Keeping its own name is no clash.
    expect((await server.request('PUT', `/v1/projects/1/access_tiers/${gold.id}`, { body: { name } })).status).toBe(200);

    const renamed = await server.request('PUT', `/v1/projects/1/access_tiers/${gold.id}`, { body: { name: `${name} (old)` } });
    expect(renamed.status).toBe(200);
    expect(await create({ name })).toMatchObject({ name });
  });

  it('answers 422 at the field', async () => {
    for (const [body, location] of [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'Ok', description: 5 }, 'description'],
    ] as const) {
      const reply = await server.request('POST', '/v1/projects/1/access_tiers', { body });
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.errors.map((error: any) => error.location)).toContain(location);
    }
  });

  it('has no delete route', async () => {
    const tier = await create({ name: `Kept ${uniqueId()}` });
    expect((await server.request('DELETE', `/v1/projects/1/access_tiers/${tier.id}`)).status).toBe(405);
  });
});

describe('content naming access tiers', () => {
  it('accepts tiers of the project and answers 422 at access_tiers.N for others', async () => {
    const tier = await create({ name: `Members ${uniqueId()}` });
    const item = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Members only', body: '<p>Hi.</p>', access_tiers: [tier.id] } });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(item.body.access_tiers).toEqual([tier.id]);

    const bad = await server.request('POST', '/v1/projects/1/content', { body: { title: 'x', body: '<p>x</p>', access_tiers: [tier.id, 999_999] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ location: 'access_tiers.1', message: 'is not an access tier of this project' }]);
    const badUpdate = await server.request('PUT', `/v1/projects/1/content/${item.body.id}`, { body: { access_tiers: [0] } });
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.body.errors[0].location).toBe('access_tiers.0');

    const cleared = await server.request('PUT', `/v1/projects/1/content/${item.body.id}`, { body: { access_tiers: [] } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.access_tiers).toEqual([]);
  });
});

describe('projects and keys', () => {
  it('keeps tiers inside their project', async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', 'Tiers elsewhere');
    expect(made.code, made.stderr).toBe(0);
    const projectId = idIn(made.stdout, 'project');
    const projectKey = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${projectId}/access_tiers`, { key: projectKey })).status, { timeout: 10_000 }).toBe(200);

    // Names are unique per project only.
    const theirs = await create({ name: 'Premium' }, projectId, projectKey);
    const ours = (await server.request('GET', '/v1/projects/1/access_tiers')).body[0];
    for (const method of ['GET', 'PUT']) {
      const options = method === 'PUT' ? { body: { description: 'x' } } : {};
      expect((await server.request(method, `/v1/projects/1/access_tiers/${theirs.id}`, options)).status, method).toBe(404);
      expect((await server.request(method, `/v1/projects/${projectId}/access_tiers/${ours.id}`, { ...options, key: projectKey })).status, method).toBe(404);
    }
    expect((await server.request('GET', '/v1/projects/1/access_tiers', { key: projectKey })).status).toBe(404);
    const own = await server.request('GET', `/v1/projects/${projectId}/access_tiers`, { key: projectKey });
    expect(own.body.map((tier: any) => tier.id)).toEqual([theirs.id]);

    const crossed = await server.request('POST', `/v1/projects/${projectId}/content`, { key: projectKey, body: { title: 'x', body: '<p>x</p>', access_tiers: [ours.id] } });
    expect(crossed.status).toBe(422);
    expect(crossed.body.errors[0].location).toBe('access_tiers.0');
  });
});
