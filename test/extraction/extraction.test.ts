// Items created from a `source_url` and no body: the page is fetched from loopback, its article extracted, segmented
// and narrated; hostile pages end in `error` with a reason a person can act on, and the service keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/generation.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { ARTICLE, CLUTTER, LATIN1_SENTENCE, startPageHost, type PageHost } from './pages.ts';

let server: TestServer;
let host: PageHost;

beforeAll(async () => {
  host = await startPageHost();
  // Loopback allowed for the test's own pages; cloud metadata addresses stay refused whatever this says.
  server = await startServer({ env: { GENERATION_ENABLED: 'true', FETCH_ALLOW_PRIVATE: 'true', EXTRACTION_TIMEOUT_MS: '2000' } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await host?.close();
});

const create = async (path: string, extra: Record<string, unknown> = {}) => {
  const created = await server.request('POST', '/v1/projects/1/content', { body: { source_url: `${host.base}${path}`, published: false, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
};
const spoken = (item: any) => (item.segments as any[]).filter((segment) => segment.content_type === 'text').map((segment) => segment.text as string).join(' ');
const settings = (body: unknown) => server.request('PUT', '/v1/projects/1/content_extraction_settings', { body });
const stillAnswers = async () => expect((await server.request('GET', '/v1/projects/1')).status).toBe(200);

describe('extraction of a static page', () => {
  it('narrates the article and none of the navigation, cookie banner, ads, related links or footer', async () => {
    const item = await settled(server, (await create('/article')).id);
    expect(item.status, item.error).toBe('processed');
    const text = spoken(item);
    for (const sentence of ARTICLE) expect(text).toContain(sentence);
    for (const clutter of CLUTTER) expect(text).not.toContain(clutter);
    // The page's own metadata fills what the client left out: the original maker's tags first.
    expect(item).toMatchObject({ title: 'Council approves flood barrier', author: 'Ada Lovelace', publish_date: '2026-03-04T08:30:00.000Z' });
    expect(item.body).toContain(ARTICLE[0]);
    // An image flagged with the original maker's attribute becomes an image segment, its address absolute.
    expect((item.segments as any[]).find((segment) => segment.content_type === 'image')).toMatchObject({ image_url: `${host.base}/barrier.jpg` });
  }, 120_000);

  it('never replaces what the client gave', async () => {
    const item = await settled(server, (await create('/article', { title: 'Our own title', author: 'Desk' })).id);
    expect(item.status, item.error).toBe('processed');
    expect(item).toMatchObject({ title: 'Our own title', author: 'Desk' });
    expect(spoken(item)).toContain(ARTICLE[1]);
  }, 120_000);

  it('decodes a windows-1252 page declared by its meta tag', async () => {
    const item = await settled(server, (await create('/latin1')).id);
    expect(item.status, item.error).toBe('processed');
    expect(item.body).toContain(LATIN1_SENTENCE);
  }, 120_000);

  it('sends the project\'s request headers', async () => {
    expect((await settings({ request_headers: { 'X-Publisher-Token': 'gazette-42', 'Accept-Language': 'en-GB' } })).status).toBe(200);
    try {
      const item = await settled(server, (await create('/with-headers')).id);
      expect(item.status, item.error).toBe('processed');
      const request = host.seen.find((seen) => seen.url === '/with-headers');
      expect(request?.headers).toMatchObject({ 'x-publisher-token': 'gazette-42', 'accept-language': 'en-GB' });
    } finally {
      await settings({ request_headers: {} });
    }
  }, 120_000);
});

describe('a page built by its scripts', () => {
  it('is an error naming javascript_enabled without it, and the article with it', async () => {
    const without = await settled(server, (await create('/spa')).id);
    expect(without.status).toBe('error');
    expect(without.error).toMatch(/no article found on the page.*javascript_enabled/);
    expect((await settings({ javascript_enabled: true })).status).toBe(200);
    try {
      const item = await settled(server, (await create('/spa')).id);
      expect(item.status, item.error).toBe('processed');
      for (const sentence of ARTICLE) expect(spoken(item)).toContain(sentence);
    } finally {
      await settings({ javascript_enabled: false });
    }
  }, 120_000);
});

describe('hostile pages end in error with a readable reason while the service keeps answering', () => {
  it('a page that answers 404', async () => {
    const item = await settled(server, (await create('/missing')).id);
    expect(item).toMatchObject({ status: 'error', error: 'the page answered 404' });
  }, 60_000);

  it('a 50 MB page', async () => {
    const item = await settled(server, (await create('/huge')).id);
    expect(item).toMatchObject({ status: 'error', error: 'the page is larger than 10 MB' });
    await stillAnswers();
  }, 60_000);

  it('a page that never finishes', async () => {
    const item = await settled(server, (await create('/never')).id);
    expect(item).toMatchObject({ status: 'error', error: 'the page did not finish within 2 s' });
    await stillAnswers();
  }, 60_000);

  it('an endless redirect chain', async () => {
    const item = await settled(server, (await create('/loop/0')).id);
    expect(item.status).toBe('error');
    expect(item.error).toMatch(/^the page could not be reached: more than 5 redirects/);
    await stillAnswers();
  }, 60_000);

  it('a redirect to a private (cloud metadata) address', async () => {
    const item = await settled(server, (await create('/to-metadata')).id);
    expect(item.status).toBe('error');
    expect(item.error).toMatch(/^the page's address is not allowed \(redirected to http:\/\/169\.254\.169\.254\/latest\/meta-data\/; refused to connect: 169\.254\.169\.254 is a cloud metadata address\)/);
  }, 60_000);
});

describe('content extraction settings', () => {
  it('answers every field with its default, and changes the fields sent', async () => {
    const before = await server.request('GET', '/v1/projects/1/content_extraction_settings');
    expect(before.body).toEqual({ mode: 'automatic', javascript_enabled: false, static_ip_enabled: false, request_headers: {} });
    const put = await settings({ mode: 'legacy', static_ip_enabled: true, request_headers: { 'X-One': '1' } });
    expect(put.body).toEqual({ mode: 'legacy', javascript_enabled: false, static_ip_enabled: true, request_headers: { 'X-One': '1' } });
    // A set of headers sent replaces the whole set.
    expect((await settings({ request_headers: { 'X-Two': '2' } })).body.request_headers).toEqual({ 'X-Two': '2' });
    await settings({ mode: 'automatic', static_ip_enabled: false, request_headers: {} });
  });

  it('refuses bad input with 422 at the field, changing nothing', async () => {
    const before = (await server.request('GET', '/v1/projects/1/content_extraction_settings')).body;
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`X-H${index}`, 'v']));
    const cases: [unknown, string][] = [
      [{ mode: 'clever' }, 'mode'],
      [{ javascript_enabled: 'yes' }, 'javascript_enabled'],
      [{ request_headers: { Host: 'internal.example' } }, 'request_headers.Host'],
      [{ request_headers: { Connection: 'close' } }, 'request_headers.Connection'],
      [{ request_headers: { 'X-Injected': 'a\r\nHost: evil' } }, 'request_headers.X-Injected'],
      [{ request_headers: { 'Bad Name': 'v' } }, 'request_headers.Bad Name'],
      [{ request_headers: tooMany }, 'request_headers'],
      [{ request_headers: { 'X-Long': 'x'.repeat(3000) } }, 'request_headers.X-Long'],
      [{ mode: 'manual', request_headers: ['X-A'] }, 'request_headers'],
    ];
    for (const [body, location] of cases) {
      const reply = await settings(body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.errors.map((error: { location: string }) => error.location), JSON.stringify(reply.body)).toContain(location);
    }
    expect((await server.request('GET', '/v1/projects/1/content_extraction_settings')).body).toEqual(before);
  });

  it('an item needs a body or a source_url', async () => {
    const reply = await server.request('POST', '/v1/projects/1/content', { body: { title: 'Nothing to read' } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].location).toBe('body');
  });
});
