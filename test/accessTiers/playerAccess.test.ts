import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GENERATION_ENABLED: 'true' } });
});
afterAll(() => server.stop());

const player = (path: string) => server.request('GET', `/v1/projects/1/player/${path}`, { key: null });
const titles = async (path: string) => {
  const reply = await player(path);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.content.map((item: any) => item.title);
};

const createTier = async (name: string) => {
  const reply = await server.request('POST', '/v1/projects/1/access_tiers', { body: { name } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const processed = async (body: Record<string, unknown>) => {
  const reply = await server.request('POST', '/v1/projects/1/content', { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const item = await settled(server, reply.body.id);
  expect(item.status, item.error).toBe('processed');
  return item;
};

let premium: any;
let basic: any;
let open: any;
let restricted: any;
let all: string;
beforeAll(async () => {
  [premium, basic] = await Promise.all([createTier('Premium'), createTier('Basic')]);
  [open, restricted] = await Promise.all([
    processed({ title: 'Open', body: '<p>For everyone.</p>' }),
    processed({ title: 'Premium only', body: '<p>For subscribers.</p>', access_tiers: [premium.id] }),
  ]);
  all = `by_identifiers/${encodeURIComponent(JSON.stringify([{ content_id: restricted.id }, { content_id: open.id }]))}`;
}, 120_000);

describe('access tiers in player data', () => {
  it('leaves restricted items out without access_tier', async () => {
    expect(await titles(all)).toEqual(['Open']);
    expect((await player(`by_content_id/${restricted.id}`)).status).toBe(404);
    expect((await player(all)).body.settings.access_tier).toBeNull();
  });

  it('shows items of the tier named by name or by id, and echoes it in the settings', async () => {
    expect(await titles(`${all}?access_tier=Premium`)).toEqual(['Premium only', 'Open']);
    expect(await titles(`${all}?access_tier=${premium.id}`)).toEqual(['Premium only', 'Open']);
    expect((await player(`${all}?access_tier=Premium`)).body.settings.access_tier).toBe('Premium');
    expect(await titles(`${all}?access_tier=Basic`)).toEqual(['Open']);
    expect((await player(`by_content_id/${restricted.id}?access_tier=Basic`)).status).toBe(404);
  });

  it('answers 422 for a tier the project does not have', async () => {
    for (const value of ['Gold', '999999']) {
      const reply = await player(`${all}?access_tier=${value}`);
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual({ code: 422, message: 'Invalid query parameters', errors: [{ location: 'access_tier', message: 'is not an access tier of this project' }] });
    }
  });

  it('follows renamed tiers and changed items at once', async () => {
    expect(await titles(`${all}?access_tier=Premium`)).toHaveLength(2);
    expect((await server.request('PUT', `/v1/projects/1/access_tiers/${premium.id}`, { body: { name: 'Gold' } })).status).toBe(200);
    expect((await player(`${all}?access_tier=Premium`)).status).toBe(422);
    expect(await titles(`${all}?access_tier=Gold`)).toEqual(['Premium only', 'Open']);

    expect(await titles(`${all}?access_tier=Basic`)).toEqual(['Open']);
    const widened = await server.request('PUT', `/v1/projects/1/content/${restricted.id}`, { body: { access_tiers: [premium.id, basic.id] } });
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    expect(await titles(`${all}?access_tier=Basic`)).toEqual(['Premium only', 'Open']);
  });
});
