// A process killed after an item's ContentProcessed was stored and before its webhook delivery was requested:
// the restarted service still notifies, under the webhook-id derived from that event, and only once.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/infrastructure/eventStore/port.ts';
import { withEventStore } from '../support/eventStore.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startReceiver, verifies, type Receiver } from '../webhooks/receiver.ts';

const env = { GENERATION_ENABLED: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_INITIAL_MS: '200' };
/** As docs/webhooks.md states it, for receivers to deduplicate on. */
const webhookIdOf = (eventId: string, webhookId: number) => `msg_${createHash('sha256').update(`${eventId}:${webhookId}`).digest('hex').slice(0, 24)}`;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const deliveredCount = async (server: TestServer, webhookId: number) =>
  ((await server.request('GET', `/v1/projects/1/webhooks/${webhookId}/deliveries`)).body as { state: string }[]).filter((delivery) => delivery.state === 'delivered').length;

/** The log a kill in that instant leaves: the item generated again and processed, no delivery requested for it. */
async function processAgainWithoutDelivery(server: TestServer, contentId: string): Promise<RecordedEvent> {
  return withEventStore(server.env, async (events) => {
    const stream = `content-${contentId}`;
    const history = await events.readStream(stream);
    const processed = history.find((event) => event.type === 'ContentProcessed')!;
    const now = new Date().toISOString();
    const { position } = await events.appendToStream(
      stream,
      [
        { type: 'ContentRegenerationRequested', data: { generation: 2, requested: now } },
        { type: 'ContentProcessingStarted', data: { generation: 2, started: now } },
        { type: 'ContentProcessed', data: { ...(processed.data as object), generation: 2, processed: now } },
      ],
      history.at(-1)!.revision,
    );
    return (await events.readAll(position - 1, 1))[0]!;
  });
}

describe('a kill between a processed item and its delivery request', () => {
  it('still delivers the notification after the restart, once', async () => {
    const first = await startServer({ env });
    const hook = (await first.request('POST', '/v1/projects/1/webhooks', { body: { url: receiver.url('/gap') } })).body;
    const item = (await first.request('POST', '/v1/projects/1/content', { body: { title: 'Gap', body: '<p>Mind the gap.</p>' } })).body;
    const [before] = await receiver.waitFor('/gap', 1);
    await expect.poll(() => deliveredCount(first, hook.id), { timeout: 10_000 }).toBe(1);
    await first.stop('SIGKILL');

    const processed = await processAgainWithoutDelivery(first, item.id);
    const restarted = await startServer({ dataDir: first.dataDir, env });
    const [, after] = await receiver.waitFor('/gap', 2);
    expect(after!.json).toMatchObject({ type: 'audio.updated', data: { id: item.id, status: 'processed' } });
    expect(after!.headers['webhook-id']).toBe(webhookIdOf(processed.id, hook.id));
    expect(after!.headers['webhook-id']).not.toBe(before!.headers['webhook-id']);
    expect(verifies(hook.secret, after!)).toBe(true);
    await expect.poll(() => deliveredCount(restarted, hook.id), { timeout: 10_000 }).toBe(2);
    await restarted.stop();

    // Started again on the same log, the service sends neither notification a second time.
    const again = await startServer({ dataDir: first.dataDir, env });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.on('/gap')).toHaveLength(2);
    expect(await deliveredCount(again, hook.id)).toBe(2);
    await again.stop();
  }, 180_000);
});
