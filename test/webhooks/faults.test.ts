import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir, startServer, startWorker, usesWorker, type TestServer } from '../support/server.ts';
import { startReceiver, verifies, type Receiver } from './receiver.ts';

const env = { GENERATION_ENABLED: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_INITIAL_MS: '200' };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function setUp(server: TestServer, path: string) {
  const hook = (await server.request('POST', '/v1/projects/1/webhooks', { body: { url: receiver.url(path) } })).body;
  const item = (await server.request('POST', '/v1/projects/1/content', { body: { body: '<p>Hello.</p>' } })).body;
  return { hook, item };
}

const deliveriesOf = async (server: TestServer, webhookId: number) => (await server.request('GET', `/v1/projects/1/webhooks/${webhookId}/deliveries`)).body;

describe('faults during delivery', () => {
  it('finishes a delivery whose process was killed while it waited to retry, under the same webhook-id', async () => {
    receiver.script('/restart', [{ status: 503, headers: { 'Retry-After': '2' } }, { status: 200 }]);
    const dataDir = newDataDir();
    const server = await startServer({ dataDir, env });
    const { hook } = await setUp(server, '/restart');
    await receiver.waitFor('/restart', 1);
    await expect.poll(async () => (await deliveriesOf(server, hook.id))[0]?.attempts.length, { timeout: 10_000, interval: 50 }).toBe(1);

    let resumed = server;
    if (usesWorker(server.env)) {
      await server.stopWorker('SIGKILL');
      const worker = await startWorker(server.env);
      await receiver.waitFor('/restart', 2);
      worker.child.kill('SIGTERM');
    } else {
      await server.stop('SIGKILL');
      resumed = await startServer({ dataDir, env });
      await receiver.waitFor('/restart', 2);
    }
    const [first, second] = receiver.on('/restart');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verifies(hook.secret, second!)).toBe(true);
    await expect.poll(async () => (await deliveriesOf(resumed, hook.id))[0]?.state, { timeout: 10_000 }).toBe('delivered');
    const [delivery] = await deliveriesOf(resumed, hook.id);
    expect(delivery.attempts.map((attempt: any) => [attempt.attempt, attempt.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    await resumed.stop();
  }, 120_000);

  it('stops retrying when the webhook is turned off, and after it is deleted', async () => {
    receiver.script('/off', [{ status: 500, headers: { 'Retry-After': '1' } }]);
    receiver.script('/deleted', [{ status: 500, headers: { 'Retry-After': '1' } }]);
    const server = await startServer({ env });
    const off = await setUp(server, '/off');
    const deleted = (await server.request('POST', '/v1/projects/1/webhooks', { body: { url: receiver.url('/deleted') } })).body;
    // Both webhooks of project 1 are notified of every item; each scenario counts its own path.
    const states = async () => [(await deliveriesOf(server, off.hook.id))[0]?.state, (await deliveriesOf(server, deleted.id))[0]?.state];
    await expect.poll(states, { timeout: 60_000, interval: 50 }).toEqual(['retrying', 'retrying']);
    expect((await server.request('PUT', `/v1/projects/1/webhooks/${off.hook.id}`, { body: { enabled: false } })).status).toBe(200);
    expect((await server.request('DELETE', `/v1/projects/1/webhooks/${deleted.id}`)).status).toBe(204);

    await expect.poll(async () => (await deliveriesOf(server, off.hook.id))[0]?.state, { timeout: 10_000 }).toBe('failed');
    const [delivery] = await deliveriesOf(server, off.hook.id);
    expect(delivery).toMatchObject({ reason: 'the webhook was disabled', attempts: [expect.objectContaining({ status: 500 })] });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.on('/off')).toHaveLength(1);
    expect(receiver.on('/deleted')).toHaveLength(1);
    await server.stop();
  }, 120_000);
});
