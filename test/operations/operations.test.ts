// Liveness, readiness, request ids in answers and logs, and graceful shutdown, through HTTP and signals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const logLines = (target: TestServer) =>
  target
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('/health and /ready', () => {
  it('answer without a key: live, and ready with every projection at the head and nothing quarantined', async () => {
    const health = await server.request('GET', '/health', { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'live' });

    const ready = await server.request('GET', '/ready', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(ready.body).toMatchObject({ status: 'ready', reasons: [], event_store: { reachable: true }, quarantine: { count: 0, events: [] } });
    const names = ready.body.projections.map((projection: { name: string }) => projection.name);
    expect(names).toEqual(expect.arrayContaining(['organizations', 'projects', 'contentItems', 'webhooks']));
    for (const projection of ready.body.projections) expect(projection).toEqual({ name: projection.name, position: expect.any(Number), lag_seconds: 0, waiting_since: null });
  });
});

describe('request ids', () => {
  it('echo a sane X-Request-Id, and stand in error bodies and on the request log line', async () => {
    // Fetched directly: the test helper checks and then removes `request_id` from every error body it sees.
    const reply = await fetch(`${server.baseUrl}/v1/projects/1/content/does-not-exist`, { headers: { 'x-api-key': TEST_KEY, 'x-request-id': 'trace-4f1c.77:a' } });
    expect(reply.status).toBe(404);
    expect(reply.headers.get('x-request-id')).toBe('trace-4f1c.77:a');
    expect(await reply.json()).toEqual({ code: 404, message: 'Not Found', request_id: 'trace-4f1c.77:a' });
    await expect
      .poll(() => logLines(server).find((line) => line.request_id === 'trace-4f1c.77:a'))
      .toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/v1/projects/1/content/does-not-exist', status: 404, duration_ms: expect.any(Number) });
  });

  it('are made up when missing or not a plain token, and stay out of success bodies', async () => {
    for (const given of [undefined, 'two words', 'x'.repeat(129), '<script>', 'caf\u00e9']) {
      const reply = await server.request('GET', '/v1/projects/1', given === undefined ? {} : { headers: { 'x-request-id': given } });
      expect(reply.status).toBe(200);
      const id = reply.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(reply.body.request_id).toBeUndefined();
    }
    const unauthorized = await fetch(`${server.baseUrl}/v1/projects`);
    expect(await unauthorized.json()).toEqual({ code: 401, message: 'Unauthorized', request_id: unauthorized.headers.get('x-request-id') });
  });

  it('leave every log line as one JSON object', () => {
    const lines = server.output().split('\n').filter((line) => line.trim() !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(logLines(server).find((line) => String(line.msg).startsWith('listening on'))).toMatchObject({ level: 'info', time: expect.any(String) });
  });
});

describe('SIGTERM', () => {
  it('stops accepting, lets a request in flight finish, then exits; what it wrote is there after a restart', async () => {
    const own = await startServer({ env: { LOG_LEVEL: 'debug' } });
    // A create whose body is sent in two parts: the service has begun it, and is waiting for the rest, at the signal.
    const body = JSON.stringify({ title: 'In flight', body: '<p>Sent in two parts.</p>' });
    const slow = http.request(`${own.baseUrl}/v1/projects/1/content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': TEST_KEY },
    });
    const answered = new Promise<{ status: number; connection: string | undefined; json: any }>((resolve, reject) => {
      slow.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, json: JSON.parse(text) }));
      });
      slow.on('error', reject);
    });
    slow.write(body.slice(0, 20));
    await expect.poll(() => logLines(own).some((line) => line.msg === 'request started' && line.method === 'POST'), { timeout: 10_000 }).toBe(true);

    const stopped = own.stop('SIGTERM');
    await expect.poll(() => logLines(own).some((line) => String(line.msg).startsWith('SIGTERM: shutting down')), { timeout: 10_000 }).toBe(true);
    await expect(fetch(`${own.baseUrl}/health`)).rejects.toThrow();
    // Longer than the moment idle connections start being closed: this one has a request in progress.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    slow.end(body.slice(20));
    const reply = await answered;
    expect(reply.status).toBe(201);
    expect(reply.connection).toBe('close');
    await stopped;
    // The last lines may reach the pipe just after the process has exited.
    await expect.poll(() => logLines(own).map((line) => line.msg).at(-1)).toBe('shut down');

    const restarted = await startServer({ dataDir: own.dataDir });
    expect((await restarted.request('GET', `/v1/projects/1/content/${reply.json.id}`)).body.title).toBe('In flight');
    await restarted.stop();
  });
});
