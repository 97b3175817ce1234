// Client-side import: the WordPress plugin's Magic Embed asks the player by post id with X-Import and the permalink.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

/** The request the plugin's front end makes, headers as it sends them (placeholders filled per test). */
const request = JSON.parse(readFileSync(new URL('../fixtures/cms/magic-embed-request.json', import.meta.url), 'utf8')) as {
  path: string;
  headers: Record<string, string>;
};

let server: TestServer;
let project: number;

const lookUp = (postId: string, host: string, headers: Record<string, string> = {}) =>
  server.request('GET', request.path.replace('{project_id}', String(project)).replace('{post id}', postId), {
    key: null,
    headers: { ...request.headers, 'X-Referer': request.headers['X-Referer']!.replace('{host}', host), ...headers },
  });
const items = async () => (await server.request('GET', `/v1/projects/${project}/content?pagination[limit]=100`)).body as any[];

beforeAll(async () => {
  server = await startServer();
  project = (await server.request('POST', '/v1/projects', { body: { name: 'Magic Embed' } })).body.id;
});

afterAll(async () => {
  await server?.stop();
});

describe('a lookup that matches nothing', () => {
  it('creates nothing while the integration is not enabled, and answers the usual 404', async () => {
    await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: false, allowed_domains: ['news.example.com'] } });
    const reply = await lookUp('501', 'news.example.com');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    expect(await items()).toEqual([]);
  });

  it("creates nothing for a page outside the integration's allowed domains, or without X-Import, or with a referrer that is no page address", async () => {
    await server.request('PUT', `/v1/projects/${project}/integrations/cms`, { body: { enabled: true, allowed_domains: ['news.example.com'] } });
    expect((await lookUp('502', 'elsewhere.example.org')).status).toBe(404);
    expect((await lookUp('503', 'news.example.com.evil.test')).status).toBe(404);
    expect((await lookUp('504', 'news.example.com', { 'X-Import': 'false' })).status).toBe(404);
    for (const referrer of ['javascript:alert(1)', 'file:///etc/passwd', 'news.example.com/a', `http://news.example.com/${'a'.repeat(3000)}`]) {
      expect((await lookUp('505', 'x', { 'X-Referer': referrer })).status, referrer).toBe(404);
    }
    expect(await items()).toEqual([]);
  });
});
