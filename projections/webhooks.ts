// Webhooks and their deliveries as read models, guarded by stream revision so replays are idempotent.
import type { DeliveryEvent, WebhookEvent } from '../src/webhooks/events.ts';
import {
  WEBHOOKS,
  WEBHOOK_DELIVERIES,
  deliveryIndexes,
  webhookIndexes,
  type DeliveryView,
  type HeaderEntry,
  type WebhookView,
} from '../src/webhooks/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

const WEBHOOK_PREFIX = 'webhook-';
const DELIVERY_PREFIX = 'webhook_delivery-';

const headerEntries = (headers: Record<string, string>): HeaderEntry[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

async function applyWebhook(recorded: RecordedEvent, read: ReadStore) {
  const webhooks = read.collection<WebhookView>(WEBHOOKS);
  const event = recorded as unknown as WebhookEvent;
  const _id = recorded.stream.slice(WEBHOOK_PREFIX.length);
  if (event.type === 'WebhookCreated') {
    const { webhookId, projectId, fields, created } = event.data;
    if (await webhooks.findOne({ _id })) return;
    const { url, enabled, useStaticIp, headers } = fields;
    await webhooks.put({ _id, revision: recorded.revision, id: webhookId, projectId, url, enabled, useStaticIp, headers: headerEntries(headers), created, updated: created });
    return;
  }
  const webhook = await webhooks.findOne({ _id });
  if (!webhook || recorded.revision <= webhook.revision) return;
  const revision = recorded.revision;
  switch (event.type) {
    case 'WebhookUpdated': {
      const { headers, ...changes } = event.data.changes;
      await webhooks.put({ ...webhook, ...changes, ...(headers ? { headers: headerEntries(headers) } : {}), revision, updated: event.data.updated });
      return;
    }
    case 'WebhookDisabled':
      await webhooks.put({ ...webhook, enabled: false, revision, updated: event.data.disabled });
      return;
    case 'WebhookDeleted':
      await webhooks.deleteOne(_id);
      return;
  }
}

async function applyDelivery(recorded: RecordedEvent, read: ReadStore) {
  const deliveries = read.collection<DeliveryView>(WEBHOOK_DELIVERIES);
  const event = recorded as unknown as DeliveryEvent;
  const _id = recorded.stream.slice(DELIVERY_PREFIX.length);
  if (event.type === 'WebhookDeliveryRequested') {
    const { webhookId, projectId, kind, contentId, requested } = event.data;
    if (await deliveries.findOne({ _id })) return;
    const view: DeliveryView = { _id, revision: recorded.revision, position: recorded.position, webhookId, projectId, kind, contentId, state: 'pending', reason: null, attempts: [], created: requested, updated: requested };
    await deliveries.put(view);
    return;
  }
  const delivery = await deliveries.findOne({ _id });
  if (!delivery || recorded.revision <= delivery.revision) return;
  const revision = recorded.revision;
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const { attempt, status, error, durationMs, at } = event.data;
      const attempts = [...delivery.attempts, { attempt, status, error, durationMs, at }];
      await deliveries.put({ ...delivery, revision, state: 'retrying', attempts, updated: at });
      return;
    }
    case 'WebhookDelivered':
      await deliveries.put({ ...delivery, revision, state: 'delivered', updated: event.data.delivered });
      return;
    case 'WebhookDeliveryFailed':
      await deliveries.put({ ...delivery, revision, state: 'failed', reason: event.data.reason, updated: event.data.failed });
      return;
    case 'WebhookDeliveryAbandoned':
      await deliveries.put({ ...delivery, revision, state: 'abandoned', reason: event.data.reason, updated: event.data.abandoned });
      return;
  }
}

export const webhooksProjection: Projection = {
  name: 'webhooks',
  // Both `webhook-<id>` and `webhook_delivery-<id>` streams.
  streamPrefix: 'webhook',
  collections: { [WEBHOOKS]: webhookIndexes, [WEBHOOK_DELIVERIES]: deliveryIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    if (recorded.stream.startsWith(WEBHOOK_PREFIX)) await applyWebhook(recorded, read);
    else if (recorded.stream.startsWith(DELIVERY_PREFIX)) await applyDelivery(recorded, read);
  },
};
