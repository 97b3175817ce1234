import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { startReceiver, verifies, type Receiver } from './receiver.ts';

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startServer({ env: { GENERATION_ENABLED: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_INITIAL_MS: '200' } }),
    startReceiver(),
  ]);
});
afterAll(() => Promise.all([server.stop(), receiver.close()]));

/** Each scenario has its own project, so one scenario's items never notify another's webhooks. */
async function projectWithWebhook(path: string, extra: Record<string, unknown> = {}) {
  const project = await server.request('POST', '/v1/projects', { body: { name: `Webhooks ${path}` } });
  expect(project.status).toBe(201);
  const hook = await server.request('POST', `/v1/projects/${project.body.id}/webhooks`, { body: { url: receiver.url(path), ...extra } });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  return { projectId: project.body.id as number, webhook: hook.body };
}

async function createItem(projectId: number, body: Record<string, unknown>) {
  const reply = await server.request('POST', `/v1/projects/${projectId}/content`, { body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const deliveriesOf = async (projectId: number, webhookId: number) => (await server.request('GET', `/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`)).body;

/** Waits until every delivery of the webhook has ended, then returns them. */
async function endedDeliveries(projectId: number, webhookId: number, count: number) {
  await expect
    .poll(async () => (await deliveriesOf(projectId, webhookId)).filter((delivery: any) => !['pending', 'retrying'].includes(delivery.state)).length, {
      timeout: 60_000,
      interval: 100,
    })
    .toBe(count);
  return deliveriesOf(projectId, webhookId);
}

describe('audio.updated', () => {
  it('reaches a receiver exactly once for a processed item, signed, with the item and absolute media URLs', async () => {
    const { projectId, webhook } = await projectWithWebhook('/updated', { headers: { Authorization: 'Bearer abc' } });
    const item = await createItem(projectId, { title: 'Hello', body: '<p>Hello.</p>', source_id: 'hello-1', metadata: { section: 'news' }, image_url: 'https://example.com/a.jpg' });
    const [request] = await receiver.waitFor('/updated', 1);
    const [delivery] = await endedDeliveries(projectId, webhook.id, 1);
    expect(receiver.on('/updated')).toHaveLength(1);

    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer abc' });
    expect(request!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120);
    expect(verifies(webhook.secret, request!)).toBe(true);
    expect(verifies('whsec_' + Buffer.alloc(24).toString('base64'), request!)).toBe(false);

    const { type, timestamp, data } = request!.json;
    expect(type).toBe('audio.updated');
    expect(new Date(timestamp).toISOString()).toBe(timestamp);
    expect(data).toMatchObject({
      id: item.id,
      external_id: 'hello-1',
      source_id: 'hello-1',
      project_id: projectId,
      status: 'processed',
      state: 'processed',
      published: true,
      title: 'Hello',
      deleted: false,
      action_type: 'audio.updated',
      metadata: { section: 'news' },
      image_url: 'https://example.com/a.jpg',
      video: [],
      error: null,
    });
    expect(data.audio.map((file: any) => file.content_type)).toEqual(['audio/mpeg', 'application/x-mpegURL']);
    expect(data.media).toEqual(data.audio);
    const port = new URL(server.baseUrl).port;
    for (const file of data.media) {
      expect(file).toMatchObject({ id: expect.any(Number), duration: expect.any(Number) });
      expect(file.url).toMatch(new RegExp(`^http://localhost:${port}/media/${item.id}/1/`));
    }
    const mp3 = await fetch(data.media[0].url.replace('localhost', '127.0.0.1'));
    expect(mp3.status).toBe(200);

    expect(delivery).toMatchObject({ id: request!.headers['webhook-id'], kind: 'audio.updated', content_id: item.id, state: 'delivered', reason: null });
    expect(delivery.attempts).toEqual([{ attempt: 1, at: expect.any(String), status: 200, error: null, duration_ms: expect.any(Number) }]);
  }, 90_000);

  it('keeps the same webhook-id and body through 500, 500, 500 and then 200', async () => {
    receiver.script('/flaky', [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 200 }]);
    const { projectId, webhook } = await projectWithWebhook('/flaky');
    const item = await createItem(projectId, { body: '<p>Hello.</p>' });
    const requests = await receiver.waitFor('/flaky', 4);
    const [delivery] = await endedDeliveries(projectId, webhook.id, 1);

    expect(receiver.on('/flaky')).toHaveLength(4);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    for (const request of requests) expect(verifies(webhook.secret, request)).toBe(true);
    expect(requests[0]!.json.data.id).toBe(item.id);

    expect(delivery).toMatchObject({ id: requests[0]!.headers['webhook-id'], state: 'delivered', content_id: item.id });
    expect(delivery.attempts.map((attempt: any) => [attempt.attempt, attempt.status, attempt.error])).toEqual([
      [1, 500, 'the receiver answered 500'],
      [2, 500, 'the receiver answered 500'],
      [3, 500, 'the receiver answered 500'],
      [4, 200, null],
    ]);
  }, 90_000);

  it('waits as long as Retry-After says after a 429', async () => {
    receiver.script('/busy', [{ status: 429, headers: { 'Retry-After': '1' } }, { status: 200 }]);
    const { projectId, webhook } = await projectWithWebhook('/busy');
    await createItem(projectId, { body: '<p>Hello.</p>' });
    const [first, second] = await receiver.waitFor('/busy', 2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    const [delivery] = await endedDeliveries(projectId, webhook.id, 1);
    expect(delivery.attempts.map((attempt: any) => attempt.status)).toEqual([429, 200]);
  }, 90_000);

  it('disables the webhook and stops when the receiver answers 410 Gone', async () => {
    receiver.script('/gone', [{ status: 410 }, { status: 200 }]);
    const { projectId, webhook } = await projectWithWebhook('/gone');
    await createItem(projectId, { body: '<p>Hello.</p>' });
    await receiver.waitFor('/gone', 1);
    const [delivery] = await endedDeliveries(projectId, webhook.id, 1);
    expect(delivery).toMatchObject({ state: 'failed', reason: 'the receiver answered 410 Gone; the webhook was disabled' });
    expect(delivery.attempts.map((attempt: any) => attempt.status)).toEqual([410]);
    expect((await server.request('GET', `/v1/projects/${projectId}/webhooks/${webhook.id}`)).body.enabled).toBe(false);

    // A later item notifies no one: the webhook stays off until someone turns it on again.
    const later = await createItem(projectId, { body: '<p>Later.</p>' });
    await expect.poll(async () => (await server.request('GET', `/v1/projects/${projectId}/content/${later.id}`)).body.status, { timeout: 60_000 }).toBe('processed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.on('/gone')).toHaveLength(1);
    expect(await deliveriesOf(projectId, webhook.id)).toHaveLength(1);
  }, 90_000);
});

describe('audio.deleted and audio.error', () => {
  it('sends audio.deleted with no media when an item is deleted', async () => {
    const { projectId, webhook } = await projectWithWebhook('/deleted');
    const item = await createItem(projectId, { title: 'Short lived', body: '<p>Hello.</p>', source_id: 'gone-1' });
    const [updated] = await receiver.waitFor('/deleted', 1);
    expect(updated!.json.type).toBe('audio.updated');
    expect((await server.request('DELETE', `/v1/projects/${projectId}/content/${item.id}`)).status).toBe(204);
    const [, deleted] = await receiver.waitFor('/deleted', 2);

    expect(deleted!.headers['webhook-id']).not.toBe(updated!.headers['webhook-id']);
    expect(verifies(webhook.secret, deleted!)).toBe(true);
    expect(deleted!.json.type).toBe('audio.deleted');
    expect(deleted!.json.data).toMatchObject({
      id: item.id,
      source_id: 'gone-1',
      external_id: 'gone-1',
      project_id: projectId,
      title: 'Short lived',
      deleted: true,
      action_type: 'audio.deleted',
      media: [],
      audio: [],
      video: [],
    });
    const deliveries = await endedDeliveries(projectId, webhook.id, 2);
    expect(deliveries.map((delivery: any) => [delivery.kind, delivery.state])).toEqual([
      ['audio.deleted', 'delivered'],
      ['audio.updated', 'delivered'],
    ]);
  }, 90_000);

  it('sends audio.error with the reason when an item cannot be generated', async () => {
    const { projectId, webhook } = await projectWithWebhook('/error');
    const item = await createItem(projectId, { type: 'manual_segment', segments: [{ content_type: 'audio', audio_url: 'http://127.0.0.1:9/x.mp3' }] });
    const [request] = await receiver.waitFor('/error', 1, 90_000);
    expect(verifies(webhook.secret, request!)).toBe(true);
    expect(request!.json.type).toBe('audio.error');
    expect(request!.json.data).toMatchObject({ id: item.id, status: 'error', state: 'error', action_type: 'audio.error', deleted: false, media: [] });
    expect(request!.json.data.error).toMatch(/x\.mp3|ECONNREFUSED|fetch/i);
  }, 100_000);
});
