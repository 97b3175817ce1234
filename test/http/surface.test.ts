import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('authentication', () => {
  it('answers 401 in the error shape without a valid key', async () => {
    for (const key of [null, '', 'sk_not_a_real_key']) {
      const reply = await server.request('GET', '/v1/projects/1', { key });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ code: 401, message: 'Unauthorized' });
    }
  });
});

describe('client mistakes', () => {
  it('answers 400 for malformed JSON and stores nothing', async () => {
    const before = (await server.request('GET', '/v1/projects/1/content')).body.length;
    const reply = await server.request('POST', '/v1/projects/1/content', { rawBody: '{"body": "<p>x</p>",' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 400, message: 'Malformed JSON' });
    expect((await server.request('GET', '/v1/projects/1/content')).body).toHaveLength(before);
  });

  it('answers 413 for a body over the limit', async () => {
    const reply = await server.request('POST', '/v1/projects/1/content', { rawBody: JSON.stringify({ body: 'x'.repeat(3 * 1024 * 1024) }) });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ code: 413, message: 'Request body too large' });
  });

  it('answers 404 for unknown routes and 405 with Allow for a wrong method', async () => {
    for (const path of ['/v1/nothing', '/nothing', '/v1/projects/1/content/x/y/z']) {
      const reply = await server.request('GET', path);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
    const wrong = await server.request('PATCH', '/v1/projects/1/content');
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ code: 405, message: 'Method Not Allowed' });
    expect(wrong.headers.get('allow')).toContain('POST');
  });

  it('answers 404 for project ids that are not positive integers', async () => {
    for (const id of ['abc', '-1', '1.5', '99999999999999999999']) {
      expect((await server.request('GET', `/v1/projects/${id}/content`)).status).toBe(404);
    }
  });

  it('survives hostile input without a 500', async () => {
    const bodies = [
      'null',
      '"text"',
      '{"__proto__": {"polluted": true}, "body": "<p>x</p>"}',
      '{"body": {"$gt": ""}}',
      '{"title": "\\ud800", "body": "<p>lone surrogate</p>"}',
      `{"body": "<p>${'<div>'.repeat(5000)}</p>"}`,
      '{"segments": [' + '{"content_type":"text","text":"a"},'.repeat(2100) + '{}], "type": "manual_segment"}',
    ];
    for (const rawBody of bodies) {
      const reply = await server.request('POST', '/v1/projects/1/content', { rawBody });
      expect(reply.status, rawBody.slice(0, 60)).toBeLessThan(500);
    }
    const injected = await server.request('GET', '/v1/projects/1/content?filter[title][$ne]=x&filter[id]=%7B%22%24gt%22%3A%22%22%7D');
    expect(injected.status).toBe(200);
    expect(injected.body).toEqual([]);
    expect((await server.request('GET', '/v1/projects/1')).status).toBe(200);
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ env: { RATE_LIMIT_GET: '3', RATE_LIMIT_OTHER: '2' } });
  });
  afterAll(() => limited.stop());

  it('answers 429 with Retry-After past the read budget, counting other requests apart', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await limited.request('GET', '/v1/projects/1');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body).toEqual({ code: 429, message: 'Too Many Requests' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);

    const writes = [];
    for (let i = 0; i < 3; i++) writes.push((await limited.request('POST', '/v1/projects/1/content', { body: { body: '<p>x</p>' } })).status);
    expect(writes).toEqual([201, 201, 429]);
  });
});
