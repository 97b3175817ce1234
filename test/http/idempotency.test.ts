import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, keyIn } from '../support/cli.ts';
import { startServer, uniqueId, type Reply, type TestServer } from '../support/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const env = { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1500' };
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer({ env }), startReceiver()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

const post = (path: string, body: unknown, key: string, apiKey?: string) =>
  server.request('POST', path, { body, headers: { 'Idempotency-Key': key }, ...(apiKey ? { key: apiKey } : {}) });
const article = (sourceId: string, title = 'Rivers rise') => ({ title, body: '<p>The river rose overnight.</p>', source_id: sourceId });

describe('Idempotency-Key on POST', () => {
  const key = `create-${uniqueId()}`;
  const sourceId = `idem-${uniqueId()}`;
  let first: Reply;

  beforeAll(async () => {
    first = await post('/v1/projects/1/content', article(sourceId), key);
  });

  it('answers a repeated request with the first answer, saying so, without acting twice', async () => {
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/v1/projects/1/content', article(sourceId), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // Acting twice would have met the first item's source_id: the second create would be a 422.
    const listed = await server.request('GET', `/v1/projects/1/content?pagination[limit]=100`);
    expect(listed.body.filter((item: any) => item.source_id === sourceId)).toHaveLength(1);
  });

  it('refuses the same key with another body or on another route with 422', async () => {
    const otherBody = await post('/v1/projects/1/content', article(sourceId, 'Rivers fall'), key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({
      code: 422,
      message: 'Idempotency-Key reused',
      errors: [{ location: 'Idempotency-Key', message: 'was already used with a different request (method, path or body)' }],
    });
    const otherRoute = await post('/v1/projects/1/ads', { type: 'vast', vast_url: 'https://ads.example.com/vast.xml' }, key);
    expect(otherRoute.status).toBe(422);
    expect((await server.request('GET', '/v1/projects/1/ads?pagination[limit]=100')).body.filter((ad: any) => ad.vast_url === 'https://ads.example.com/vast.xml')).toEqual([]);
  });

  it('keeps keys apart per API key', async () => {
    const made = await cli(server.env, 'keys', 'create', '--organization', '1', '--label', 'idempotency');
    const otherApiKey = keyIn(made.stdout);
    await expect.poll(async () => (await server.request('GET', '/v1/projects/1', { key: otherApiKey })).status, { timeout: 10_000 }).toBe(200);
    const sameKeyOtherClient = await post('/v1/projects/1/content', article(`idem-${uniqueId()}`), key, otherApiKey);
    expect(sameKeyOtherClient.status).toBe(201);
    expect(sameKeyOtherClient.headers.get('idempotent-replayed')).toBeNull();
    expect(sameKeyOtherClient.body.id).not.toBe(first.body.id);
  });

  it('frees the key of a request that failed, so the corrected request can use it', async () => {
    const retryKey = `fix-${uniqueId()}`;
    const refused = await post('/v1/projects/1/content', { title: 'No body' }, retryKey);
    expect(refused.status).toBe(422);
    const fixed = await post('/v1/projects/1/content', article(`idem-${uniqueId()}`), retryKey);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request with the key is still running, then its answer', async () => {
    receiver.script('/slow', ['hang']);
    const hook = await server.request('POST', '/v1/projects/1/webhooks', { body: { url: receiver.url('/slow') } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const testKey = `test-${uniqueId()}`;
    const running = post(`/v1/projects/1/webhooks/${hook.body.id}/test`, {}, testKey);
    await receiver.waitFor('/slow', 1, 10_000);
    const meanwhile = await post(`/v1/projects/1/webhooks/${hook.body.id}/test`, {}, testKey);
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body).toMatchObject({ code: 409, message: 'A request with this Idempotency-Key is still in progress; retry later' });
    const answered = await running;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ delivered: false, error: 'no answer within 1500 ms' });
    const after = await post(`/v1/projects/1/webhooks/${hook.body.id}/test`, {}, testKey);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(after.body).toEqual(answered.body);
    expect(receiver.on('/slow')).toHaveLength(1);
  });

  it('takes keys of 1 to 255 characters', async () => {
    const long = await post('/v1/projects/1/content', article(`idem-${uniqueId()}`), 'k'.repeat(256));
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ errors: [{ location: 'Idempotency-Key', message: 'must have 1 to 255 characters' }] });
    expect((await post('/v1/projects/1/content', article(`idem-${uniqueId()}`), `${'k'.repeat(247)}${uniqueId()}`)).status).toBe(201);
  });

  it('leaves GraphQL and other methods alone', async () => {
    const mutation = { query: 'mutation($body: JSONObject!) { createContent(project_id: 1, input: $body) { id } }', variables: { body: { title: 'Via GraphQL', body: '<p>Twice.</p>' } } };
    const [one, two] = [await post('/graphql', mutation, 'graphql-key'), await post('/graphql', mutation, 'graphql-key')];
    expect(one.body.data.createContent.id).not.toBe(two.body.data.createContent.id);
    const put = await server.request('PUT', `/v1/projects/1/content/${first.body.id}`, { body: { title: 'Renamed' }, headers: { 'Idempotency-Key': key } });
    expect(put.status).toBe(200);
  });

  it('still answers the first answer after a restart on the same data', async () => {
    await server.stop();
    server = await startServer({ dataDir: server.dataDir, env });
    const again = await post('/v1/projects/1/content', article(sourceId), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await post('/v1/projects/1/content', article(sourceId, 'Rivers fall'), key)).status).toBe(422);
  });
});
