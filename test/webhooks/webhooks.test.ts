import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, idIn, keyIn } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startReceiver, verifies, type Receiver } from './receiver.ts';

let server: TestServer;
let strict: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  [server, strict, receiver] = await Promise.all([
    startServer({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '500' } }),
    // The default: https only, no private destinations.
    startServer(),
    startReceiver(),
  ]);
});
afterAll(() => Promise.all([server.stop(), strict.stop(), receiver.close()]));

/** Every route of one webhook, below `/v1/projects/{id}/webhooks/{webhook_id}`. */
const ONE_WEBHOOK_ROUTES = [
  ['GET', ''],
  ['PUT', ''],
  ['DELETE', ''],
  ['POST', '/test'],
  ['GET', '/deliveries'],
] as const;

const create = async (body: Record<string, unknown>, project = 1) => {
  const reply = await server.request('POST', `/v1/projects/${project}/webhooks`, { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

describe('webhook resources', () => {
  it('creates with defaults and shows the secret only in the creation answer', async () => {
    const created = await create({ url: 'https://hooks.example.com/audio' });
    expect(created).toMatchObject({ url: 'https://hooks.example.com/audio', enabled: true, use_static_ip: false, headers: {} });
    expect(Number.isInteger(created.id) && created.id > 0).toBe(true);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(new Date(created.created).toISOString()).toBe(created.created);
    expect(created.updated).toBe(created.created);

    const { secret, ...shown } = created;
    const got = await server.request('GET', `/v1/projects/1/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(shown);
    const listed = await server.request('GET', '/v1/projects/1/webhooks');
    expect(listed.body).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const other = await create({ url: 'https://hooks.example.com/other' });
    expect(other.secret).not.toBe(secret);
    expect(other.id).toBeGreaterThan(created.id);
  });

  it('updates the fields it is given, and deletes', async () => {
    const created = await create({ url: 'https://hooks.example.com/a', headers: { Authorization: 'Bearer one' } });
    const changes = { url: 'https://hooks.example.com/b', enabled: false, use_static_ip: true, headers: { 'X-Team': 'audio', 'X-Env': 'prod' } };
    const updated = await server.request('PUT', `/v1/projects/1/webhooks/${created.id}`, { body: changes });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, ...changes, created: created.created });
    expect(updated.body.secret).toBeUndefined();
    expect((await server.request('GET', `/v1/projects/1/webhooks/${created.id}`)).body).toEqual(updated.body);

    const partial = await server.request('PUT', `/v1/projects/1/webhooks/${created.id}`, { body: { enabled: true } });
    expect(partial.body).toMatchObject({ ...changes, enabled: true });

    expect((await server.request('DELETE', `/v1/projects/1/webhooks/${created.id}`)).status).toBe(204);
    for (const [method, path] of ONE_WEBHOOK_ROUTES) {
      const reply = await server.request(method, `/v1/projects/1/webhooks/${created.id}${path}`, method === 'PUT' ? { body: { enabled: true } } : {});
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body).toEqual({ code: 404, message: 'Not Found' });
    }
    expect((await server.request('GET', '/v1/projects/1/webhooks')).body.map((hook: any) => hook.id)).not.toContain(created.id);
  });

  it('pages the list in creation order', async () => {
    const all = (await server.request('GET', '/v1/projects/1/webhooks?pagination[limit]=100')).body.map((hook: any) => hook.id);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const second = await server.request('GET', '/v1/projects/1/webhooks?pagination[limit]=1&pagination[offset]=1');
    expect(second.body.map((hook: any) => hook.id)).toEqual([all[1]]);
    const bad = await server.request('GET', '/v1/projects/1/webhooks?pagination[limit]=0');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ location: 'pagination[limit]', message: 'must be greater than or equal to 1' }]);
  });

  it.each([
    [{}, 'url', 'is required'],
    [{ url: 'not a url' }, 'url', 'must be a valid URL'],
    [{ url: 'ftp://files.example.com/x' }, 'url', 'must be an http(s) URL'],
    [{ url: 'https://user:secret@hooks.example.com/' }, 'url', 'must not carry a user name or password (send credentials as a custom header)'],
    [{ url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'url', 'must have at most 2048 characters'],
    [{ url: 'https://hooks.example.com/', enabled: 'yes' }, 'enabled', 'must be a boolean'],
    [{ url: 'https://hooks.example.com/', use_static_ip: 1 }, 'use_static_ip', 'must be a boolean'],
    [{ url: 'https://hooks.example.com/', headers: ['X-A'] }, 'headers', 'must be a record'],
    [{ url: 'https://hooks.example.com/', headers: { 'X-Count': 5 } }, 'headers.X-Count', 'must be a string'],
    [{ url: 'https://hooks.example.com/', headers: { 'Bad Name': 'x' } }, 'headers.Bad Name', "is not a valid header name (letters, digits and !#$%&'*+.^_`|~- only, at most 100)"],
    [{ url: 'https://hooks.example.com/', headers: { 'Content-Type': 'text/plain' } }, 'headers.Content-Type', 'is reserved: the service sets it'],
    [{ url: 'https://hooks.example.com/', headers: { 'Webhook-Signature': 'v1,x' } }, 'headers.Webhook-Signature', 'is reserved: the service sets it'],
    [{ url: 'https://hooks.example.com/', headers: { Host: 'elsewhere' } }, 'headers.Host', 'is reserved: the service sets it'],
    [{ url: 'https://hooks.example.com/', headers: { 'X-A': 'one\r\nX-Injected: two' } }, 'headers.X-A', 'must be printable text without line breaks, at most 4096 characters'],
    [{ url: 'https://hooks.example.com/', headers: { 'X-A': '1', 'x-a': '2' } }, 'headers.x-a', 'repeats another header (names are case-insensitive)'],
    [{ url: 'https://hooks.example.com/', headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, 'headers', 'must have at most 20 headers'],
  ])('refuses %j with 422 at %s', async (body, location, message) => {
    const before = (await server.request('GET', '/v1/projects/1/webhooks?pagination[limit]=100')).body.length;
    const reply = await server.request('POST', '/v1/projects/1/webhooks', { body });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toContainEqual({ location, message });
    expect((await server.request('GET', '/v1/projects/1/webhooks?pagination[limit]=100')).body).toHaveLength(before);
  });

  it('refuses the same mistakes on update and keeps the webhook', async () => {
    const created = await create({ url: 'https://hooks.example.com/keep', headers: { 'X-A': '1' } });
    const reply = await server.request('PUT', `/v1/projects/1/webhooks/${created.id}`, { body: { url: 'ftp://x', headers: { 'webhook-id': 'mine' } } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([
      { location: 'url', message: 'must be an http(s) URL' },
      { location: 'headers.webhook-id', message: 'is reserved: the service sets it' },
    ]);
    const { secret, ...shown } = created;
    expect((await server.request('GET', `/v1/projects/1/webhooks/${created.id}`)).body).toEqual(shown);
  });
});

describe('destinations without WEBHOOKS_ALLOW_PRIVATE', () => {
  it('accepts an https URL of a public name', async () => {
    const reply = await strict.request('POST', '/v1/projects/1/webhooks', { body: { url: 'https://hooks.example.com/audio' } });
    expect(reply.status).toBe(201);
  });

  it.each(['http://hooks.example.com/audio', 'http://127.0.0.1:8080/hook'])('refuses plain http: %s', async (url) => {
    const reply = await strict.request('POST', '/v1/projects/1/webhooks', { body: { url } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'url', message: 'must be an https URL' }]);
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://127.1.2.3:8443/hook',
    'https://10.0.0.8/hook',
    'https://172.20.1.1/hook',
    'https://192.168.1.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://2130706433/hook',
    'https://[::1]/hook',
    'https://[fd12:3456::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://localhost/hook',
    'https://api.localhost./hook',
  ])('refuses a private, loopback or link-local destination: %s', async (url) => {
    const reply = await strict.request('POST', '/v1/projects/1/webhooks', { body: { url } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ location: 'url', message: 'must not point to a private, loopback or link-local address' }]);
  });

  it('refuses a private destination on update too', async () => {
    const created = (await strict.request('POST', '/v1/projects/1/webhooks', { body: { url: 'https://hooks.example.com/x' } })).body;
    const reply = await strict.request('PUT', `/v1/projects/1/webhooks/${created.id}`, { body: { url: 'https://192.168.0.1/x' } });
    expect(reply.status).toBe(422);
    expect((await strict.request('GET', `/v1/projects/1/webhooks/${created.id}`)).body.url).toBe('https://hooks.example.com/x');
  });
});

describe('projects and keys', () => {
  it('keeps webhooks inside their project', async () => {
    const made = await cli(server.env, 'projects', 'create', '--organization', '1', '--name', 'Podcasts');
    expect(made.code, made.stderr).toBe(0);
    const projectId = idIn(made.stdout, 'project');
    const projectKey = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${projectId}/webhooks`, { key: projectKey })).status, { timeout: 10_000 }).toBe(200);

    const theirs = await create({ url: 'https://hooks.example.com/podcasts' }, projectId);
    const ours = await create({ url: 'https://hooks.example.com/ours' });
    for (const [method, path] of ONE_WEBHOOK_ROUTES) {
      const options = method === 'PUT' ? { body: { enabled: false } } : {};
      expect((await server.request(method, `/v1/projects/1/webhooks/${theirs.id}${path}`, options)).status, `${method} ${path}`).toBe(404);
      expect((await server.request(method, `/v1/projects/${projectId}/webhooks/${ours.id}${path}`, { ...options, key: projectKey })).status).toBe(404);
    }
    expect((await server.request('GET', '/v1/projects/1/webhooks', { key: projectKey })).status).toBe(404);
    expect((await server.request('POST', '/v1/projects/1/webhooks', { key: projectKey, body: { url: 'https://hooks.example.com/x' } })).status).toBe(404);
    const own = await server.request('GET', `/v1/projects/${projectId}/webhooks`, { key: projectKey });
    expect(own.body.map((hook: any) => hook.id)).toEqual([theirs.id]);
    expect((await server.request('GET', `/v1/projects/${projectId}/webhooks/${theirs.id}`)).body.enabled).toBe(true);
  });

  it('answers 404 for webhook ids that are not positive integers', async () => {
    for (const id of ['abc', '-1', '1.5', '0x1', '99999999999999999999']) {
      expect((await server.request('GET', `/v1/projects/1/webhooks/${id}`)).status).toBe(404);
    }
  });

  it('needs an API key', async () => {
    expect((await server.request('GET', '/v1/projects/1/webhooks', { key: null })).status).toBe(401);
  });
});

describe('the test route', () => {
  it('sends one signed webhook.test with the custom headers and answers what happened', async () => {
    const created = await create({ url: receiver.url('/test-ok'), headers: { Authorization: 'Bearer token-1', 'X-Team': 'audio' } });
    const reply = await server.request('POST', `/v1/projects/1/webhooks/${created.id}/test`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ delivered: true, status: 200, error: null, delivery_id: expect.stringMatching(/^msg_[0-9a-f]{24}$/) });

    const [request] = receiver.on('/test-ok');
    expect(receiver.on('/test-ok')).toHaveLength(1);
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer token-1', 'x-team': 'audio', 'webhook-id': reply.body.delivery_id });
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifies(created.secret, request!)).toBe(true);
    expect(request!.json).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhook_id: created.id, project_id: 1, message: 'This is a test notification.' },
    });
  });

  it('reports a failing receiver without retrying, and records every test as a delivery', async () => {
    receiver.script('/test-down', [{ status: 503 }]);
    const created = await create({ url: receiver.url('/test-down') });
    const failed = await server.request('POST', `/v1/projects/1/webhooks/${created.id}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ delivered: false, status: 503, error: 'the receiver answered 503' });

    receiver.script('/test-down', [{ status: 204 }]);
    const passed = await server.request('POST', `/v1/projects/1/webhooks/${created.id}/test`);
    expect(passed.body).toMatchObject({ delivered: true, status: 204, error: null });
    expect(receiver.on('/test-down')).toHaveLength(2);

    const deliveries = await server.request('GET', `/v1/projects/1/webhooks/${created.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual([
      {
        id: passed.body.delivery_id,
        kind: 'webhook.test',
        content_id: null,
        state: 'delivered',
        reason: null,
        attempts: [{ attempt: 1, at: expect.any(String), status: 204, error: null, duration_ms: expect.any(Number) }],
        created: expect.any(String),
        updated: expect.any(String),
      },
      expect.objectContaining({ id: failed.body.delivery_id, state: 'failed', reason: 'the receiver answered 503', attempts: [expect.objectContaining({ status: 503, error: 'the receiver answered 503' })] }),
    ]);
    const paged = await server.request('GET', `/v1/projects/1/webhooks/${created.id}/deliveries?pagination[limit]=1&pagination[offset]=1`);
    expect(paged.body.map((delivery: any) => delivery.id)).toEqual([failed.body.delivery_id]);
  });

  it('reports a receiver that cannot be reached, or answers too late', async () => {
    const closed = await create({ url: 'http://127.0.0.1:9/hook' });
    const refused = await server.request('POST', `/v1/projects/1/webhooks/${closed.id}/test`);
    expect(refused.body).toMatchObject({ delivered: false, status: null, error: expect.stringMatching(/ECONNREFUSED/) });

    receiver.script('/test-slow', ['hang']);
    const slow = await create({ url: receiver.url('/test-slow') });
    const late = await server.request('POST', `/v1/projects/1/webhooks/${slow.id}/test`);
    expect(late.body).toMatchObject({ delivered: false, status: null, error: 'no answer within 500 ms' });
    const [delivery] = (await server.request('GET', `/v1/projects/1/webhooks/${slow.id}/deliveries`)).body;
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(450);
  });

  it('tests a disabled webhook too', async () => {
    const created = await create({ url: receiver.url('/test-disabled'), enabled: false });
    const reply = await server.request('POST', `/v1/projects/1/webhooks/${created.id}/test`);
    expect(reply.body.delivered).toBe(true);
    expect(receiver.on('/test-disabled')).toHaveLength(1);
  });

  it('disables the webhook when the receiver answers 410 Gone', async () => {
    receiver.script('/test-gone', [{ status: 410 }]);
    const created = await create({ url: receiver.url('/test-gone') });
    const reply = await server.request('POST', `/v1/projects/1/webhooks/${created.id}/test`);
    expect(reply.body).toMatchObject({ delivered: false, status: 410 });
    expect((await server.request('GET', `/v1/projects/1/webhooks/${created.id}`)).body.enabled).toBe(false);
    const [delivery] = (await server.request('GET', `/v1/projects/1/webhooks/${created.id}/deliveries`)).body;
    expect(delivery).toMatchObject({ state: 'failed', reason: 'the receiver answered 410 Gone; the webhook was disabled' });
  });
});
