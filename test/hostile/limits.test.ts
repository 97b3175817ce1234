// The configurable limits, over HTTP: spec field bounds, body size, nesting and free-form sizes, public rate limits per address, slow clients.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, uniqueId, type TestServer } from '../support/server.ts';
import { expectClientError, rawRequest } from './raw.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: { MAX_BODY_BYTES: '200000', RATE_LIMIT_PUBLIC: '5', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' },
  });
});
afterAll(() => server.stop());

const content = '/v1/projects/1/content';
const longUrl = `https://example.com/${'a'.repeat(2040)}`;
const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('field bounds of the spec', () => {
  const cases: [string, string, unknown, string][] = [
    ['POST', content, { body: '<p>x</p>', title: 't'.repeat(501) }, 'title'],
    ['POST', content, { body: '<p>x</p>', summary: 's'.repeat(2001) }, 'summary'],
    ['POST', content, { body: 'b'.repeat(100_001) }, 'body'],
    ['POST', content, { body: '<p>x</p>', ai_summary_prompt: 'p'.repeat(1001) }, 'ai_summary_prompt'],
    ['POST', content, { body: '<p>x</p>', source_url: longUrl }, 'source_url'],
    ['POST', content, { body: '<p>x</p>', image_url: longUrl }, 'image_url'],
    ['POST', content, { body: '<p>x</p>', language: 'en_USA' }, 'language'],
    ['POST', content, { body: '<p>x</p>', language: 'english' }, 'language'],
    ['POST', content, { body: '<p>x</p>', body_voice_id: 0 }, 'body_voice_id'],
    ['POST', content, { body: '<p>x</p>', summarization_settings: { temperature: 2.5 } }, 'summarization_settings.temperature'],
    ['POST', content, { body: '<p>x</p>', summarization_settings: { limit_token_usage: 3001 } }, 'summarization_settings.limit_token_usage'],
    ['POST', content, { body: '<p>x</p>', summarization_settings: { limit_token_usage: 0 } }, 'summarization_settings.limit_token_usage'],
    ['POST', content, { body: '<p>x</p>', feature_image: { url: 'https://example.com/i.jpg', video_settings: { crop_coordinates: { '16:9': [1, 2, 3, 4, 5] } } } }, 'feature_image.video_settings.crop_coordinates.16:9'],
    ['PUT', '/v1/projects/1', { avatar_url: longUrl }, 'avatar_url'],
    ['PUT', '/v1/projects/1', { pause_after_segments_seconds: 3.5 }, 'pause_after_segments_seconds'],
    ['PUT', '/v1/projects/1', { pause_after_title_segments_seconds: -1 }, 'pause_after_title_segments_seconds'],
    ['PUT', '/v1/projects/1/video_settings', { text_font_size: 29 }, 'text_font_size'],
    ['PUT', '/v1/projects/1/video_settings', { text_font_size: 91 }, 'text_font_size'],
    ['PUT', '/v1/projects/1/video_settings', { text_lines: 6 }, 'text_lines'],
    ['PUT', '/v1/projects/1/video_settings', { text_words: 0 }, 'text_words'],
    ['PUT', '/v1/projects/1/video_settings', { cycle_time: 999 }, 'cycle_time'],
    ['PUT', '/v1/projects/1/video_settings', { cycle_time: 60_001 }, 'cycle_time'],
    ['PUT', '/v1/projects/1/video_settings', { text_highlight_secondary_color: 'c'.repeat(101) }, 'text_highlight_secondary_color'],
    ['PUT', '/v1/projects/1/video_settings', { text_highlight_background_color: 'c'.repeat(101) }, 'text_highlight_background_color'],
    ['PUT', '/v1/projects/1/video_settings', { text_shadow: 's'.repeat(201) }, 'text_shadow'],
    ['PUT', '/v1/projects/1/video_settings', { text_stroke: 's'.repeat(201) }, 'text_stroke'],
    ['PUT', '/v1/projects/1/video_settings', { logo_image_url: longUrl }, 'logo_image_url'],
  ];
  for (const [method, path, body, location] of cases) {
    it(`answers 422 at ${location} for ${JSON.stringify(body).slice(0, 70)}`, async () => {
      const reply = await server.request(method, path, { body });
      expectClientError(reply, 422);
      expect(reply.body.errors.map((error: { location: string }) => error.location)).toContain(location);
    });
  }
});

describe('body limits', () => {
  it('takes a body up to MAX_BODY_BYTES and answers 413 above it, in the error shape', async () => {
    const fits = await server.request('POST', content, { body: { title: 'Long read', body: `<p>${'w '.repeat(49_000)}</p>` } });
    expect(fits.status).toBe(201);
    const over = await server.request('POST', content, { rawBody: JSON.stringify({ body: 'x'.repeat(210_000) }) });
    expectClientError(over, 413);
    expect(over.body.message).toBe('Request body too large');
  });

  it('takes JSON however its media type is spelled, and a body-less POST as an empty object', async () => {
    for (const type of ['application/json', 'Application/JSON; Charset=UTF-8', 'application/json;charset=utf8', 'application/merge-patch+json']) {
      const reply = await rawRequest(server.baseUrl, 'POST', content, { body: JSON.stringify({ body: '<p>x</p>', title: type }), headers: { 'content-type': type } });
      expect(reply.status, type).toBe(201);
      expect(reply.body.title).toBe(type);
    }
    const empty = await rawRequest(server.baseUrl, 'POST', content);
    expectClientError(empty, 422);
  });

  it('takes 32 levels of nesting and refuses 33, naming where', async () => {
    const fits = await server.request('POST', content, { rawBody: `{"body":"<p>x</p>","metadata":${nested(31)}}` });
    expect(fits.status).toBe(201);
    const deeper = await server.request('POST', content, { rawBody: `{"body":"<p>x</p>","metadata":${nested(32)}}` });
    expectClientError(deeper, 422);
    expect(deeper.body.errors).toEqual([{ location: `metadata${'.a'.repeat(31)}`, message: 'must not nest more than 32 levels deep' }]);
  });

  it('counts the keys and items of a free-form object in all', async () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    const fits = await server.request('POST', content, { body: { body: '<p>x</p>', metadata: { first: keys(500), second: Array.from({ length: 498 }, (_, i) => i) } } });
    expect(fits.status).toBe(201);
    expect(Object.keys(fits.body.metadata.first)).toHaveLength(500);
    const over = await server.request('POST', content, { body: { body: '<p>x</p>', metadata: { first: keys(500), second: Array.from({ length: 499 }, (_, i) => i) } } });
    expectClientError(over, 422);
    expect(over.body.errors).toEqual([{ location: 'metadata', message: 'must have at most 1000 keys and items in all' }]);
  });

  it('stores what it accepts exactly: large finite numbers, paired surrogates, nested free-form values', async () => {
    const metadata = {
      big: 1.7976931348623157e308,
      emoji: 'Voix 🎙️ façade',
      deep: JSON.parse(nested(20)),
      list: [[1, [2, [3]]]],
      // Brackets and escaped quotes inside strings are text, not nesting.
      brackets: '[[[{{{"\\'.repeat(50),
      '{[key]}': '"}]',
    };
    const created = await server.request('POST', content, { body: { body: '<p>x</p>', source_id: `exact-${uniqueId()}`, metadata } });
    expect(created.status).toBe(201);
    const read = await server.request('GET', `${content}/${created.body.id}`);
    expect(read.body.metadata).toEqual(metadata);
  });
});

describe('rate limits on public routes', () => {
  const player = '/v1/projects/1/player/by_content_id/nothing-here';
  const fromAddress = (localAddress: string, path = player, headers: Record<string, string> = {}) =>
    rawRequest(server.baseUrl, 'GET', path, { key: null, localAddress, headers });

  it('allows RATE_LIMIT_PUBLIC requests per minute per client address, then answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (const path of [player, '/media/none.mp3', '/v1/projects/1/podcast/feed.xml', '/v1/projects/1/player/preview/none', player]) {
      statuses.push((await fromAddress('127.0.0.2', path)).status);
    }
    expect(statuses.every((status) => status !== 429)).toBe(true);
    const refused = await fromAddress('127.0.0.2');
    expectClientError(refused, 429);
    expect(refused.body.message).toBe('Too Many Requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expectClientError(await fromAddress('127.0.0.2', '/media/none.mp3'), 429);

    // Another address has its own budget; the key-authenticated API is not counted here.
    expect((await fromAddress('127.0.0.3')).status).toBe(404);
    const api = await rawRequest(server.baseUrl, 'GET', '/v1/projects/1', { localAddress: '127.0.0.2' });
    expect(api.status).toBe(200);
  });

  it('counts the address the nearest proxy saw, whatever the client wrote before it', async () => {
    for (let i = 0; i < 5; i++) expect((await fromAddress('127.0.0.4', player, { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` })).status).toBe(404);
    expectClientError(await fromAddress('127.0.0.4', player, { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' }), 429);
    expect((await fromAddress('127.0.0.4', player, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(404);
  });
});

describe('slow and idle clients', () => {
  /** Opens a connection that sends the start of a request and then a little more every 200 ms, never finishing. */
  function trickle(start: string, more: (i: number) => string): Promise<{ closedAfterMs: number; answer: string }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
      let answer = '';
      let i = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(more(i++));
      }, 200);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: Date.now() - started, answer });
      });
      socket.write(start);
    });
  }

  it('closes connections that send headers or bodies too slowly, with 408, while serving everyone else', async () => {
    const slowHeaders = Array.from({ length: 20 }, () => trickle('GET /v1/projects/1 HTTP/1.1\r\nHost: x\r\n', (i) => `X-Drip-${i}: 1\r\n`));
    const slowBody = trickle(
      `POST ${content} HTTP/1.1\r\nHost: x\r\nX-Api-Key: test_bootstrap_key_0123456789\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"body":"`,
      () => 'aaaa',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const served = await server.request('POST', content, { body: { title: 'Meanwhile', body: '<p>Served.</p>' } });
    expect(served.status).toBe(201);

    const headers = await Promise.all(slowHeaders);
    for (const closed of headers) {
      expect(closed.closedAfterMs).toBeLessThan(1000 + 1000 + 1500);
      expect(closed.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(closed.answer.slice(closed.answer.indexOf('\r\n\r\n') + 4))).toEqual({ code: 408, message: 'Request Timeout' });
    }
    const body = await slowBody;
    expect(body.closedAfterMs).toBeLessThan(2000 + 1000 + 1500);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect((await server.request('GET', `${content}/${served.body.id}`)).status).toBe(200);
  });
});
