// Starts one delivery per enabled webhook of the project for each content event that notifies,
// and resumes unfinished deliveries at start.
import { createHash } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { WorkflowRunner } from '../infrastructure/workflows/port.ts';
import { contentSourceOf } from '../generation/source.ts';
import { handleCommand } from '../shared/decider.ts';
import { deliveryDecider } from './decider.ts';
import type { DeliveryRetryPolicy } from './delivery.ts';
import { deliveryStream } from './events.ts';
import { contentNotification, notificationKindOf, type ContentNotificationKind } from './payload.ts';
import { enabledWebhooksOf, unfinishedDeliveries } from './readModel.ts';

export interface WebhookReactor {
  /** Called for every event the projections applied; ignored until `resume` has run. */
  onEvent(event: RecordedEvent): void;
  /** Starts every delivery the read model shows as unfinished, then follows new events. */
  resume(): Promise<void>;
}

export interface WebhookReactorDeps {
  events: EventStore;
  read: ReadStore;
  runner: WorkflowRunner;
  retry: DeliveryRetryPolicy;
  /** Base of the absolute media URLs in payloads. */
  baseUrl: () => string;
  now: () => Date;
  log: (message: string) => void;
}

/** Stable for an (event, webhook) pair: the `webhook-id` header, the delivery's stream and its workflow id. */
export const deliveryIdOf = (eventId: string, webhookId: number) =>
  `msg_${createHash('sha256').update(`${eventId}:${webhookId}`).digest('hex').slice(0, 24)}`;

export function createWebhookReactor(deps: WebhookReactorDeps): WebhookReactor {
  let live = false;
  const start = (webhookId: number, deliveryId: string, requested: string) => deps.runner.startDelivery({ webhookId, deliveryId, requested, retry: deps.retry });

  const notify = async (recorded: RecordedEvent, kind: ContentNotificationKind) => {
    const contentId = recorded.stream.slice('content-'.length);
    // The item as of this event, even when later events (or its deletion) have already been applied.
    const history = (await deps.events.readStream(recorded.stream)).filter((event) => event.revision <= recorded.revision);
    const { projectId } = contentSourceOf(history);
    const webhooks = await enabledWebhooksOf(deps.read, projectId);
    if (webhooks.length === 0) return;
    const body = contentNotification(kind, contentId, history, deps.baseUrl(), recorded.created);
    for (const webhook of webhooks) {
      const deliveryId = deliveryIdOf(recorded.id, webhook.id);
      const command = { kind: 'RequestDelivery', deliveryId, webhookId: webhook.id, projectId, notification: kind, contentId, body, now: deps.now().toISOString() } as const;
      const { state } = await handleCommand(deps.events, deliveryStream(deliveryId), deliveryDecider, command);
      if (state.status === 'pending') await start(webhook.id, deliveryId, state.requested);
    }
  };

  return {
    onEvent(recorded) {
      if (!live || !recorded.stream.startsWith('content-')) return;
      const kind = notificationKindOf(recorded.type);
      if (kind) notify(recorded, kind).catch((error: unknown) => deps.log(`could not start ${kind} deliveries for ${recorded.stream}: ${String(error)}`));
    },
    async resume() {
      live = true;
      for (const delivery of await unfinishedDeliveries(deps.read)) {
        await start(delivery.webhookId, delivery._id, delivery.created).catch((error: unknown) => deps.log(`could not resume delivery ${delivery._id}: ${String(error)}`));
      }
    },
  };
}
