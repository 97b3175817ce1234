// Requests one delivery per enabled webhook of the project for each content event that notifies, as a checkpointed
// reactor of the projection runner (recorded before the runner passes the event), and resumes unfinished deliveries.
import { createHash } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../infrastructure/eventStore/port.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { WorkflowRunner } from '../infrastructure/workflows/port.ts';
import type { Projection } from '../../projections/projection.ts';
import { CONTENT_ITEMS } from '../content/readModel.ts';
import { contentSourceOf } from '../generation/source.ts';
import { handleCommand } from '../shared/decider.ts';
import { deliveryDecider } from './decider.ts';
import type { DeliveryRetryPolicy } from './delivery.ts';
import { deliveryStream } from './events.ts';
import { contentNotification, notificationKindOf, type ContentNotificationKind } from './payload.ts';
import { WEBHOOKS, unfinishedDeliveries, type WebhookView } from './readModel.ts';

export interface WebhookReactor {
  /** Give it to the projection runner as a reactor: it runs after the read models have applied each event. */
  projection: Projection;
  /** Starts every delivery the read model shows as unfinished. */
  resume(): Promise<void>;
  /** Stops retrying workflow starts that failed. */
  close(): void;
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

const LONGEST_START_PAUSE_MS = 60_000;

export function createWebhookReactor(deps: WebhookReactorDeps): WebhookReactor {
  let closed = false;

  /**
   * The request is already durable: a workflow server that is away is retried in the background rather than
   * holding the runner (and every read-your-writes) back; a restart resumes it too.
   */
  const start = (webhookId: number, deliveryId: string, requested: string, pause = 1_000): void => {
    deps.runner.startDelivery({ webhookId, deliveryId, requested, retry: deps.retry }).catch((error: unknown) => {
      deps.log(`could not start delivery ${deliveryId}, retrying in ${pause} ms: ${String(error)}`);
      if (!closed) setTimeout(() => closed || start(webhookId, deliveryId, requested, Math.min(pause * 2, LONGEST_START_PAUSE_MS)), pause).unref();
    });
  };

  /** The item's project among those that have enabled webhooks, from the read model when it still holds the item. */
  const projectOf = async (read: ReadStore, candidates: number[], contentId: string, history: () => Promise<RecordedEvent[]>) => {
    for (const projectId of candidates) {
      if ((await read.collection(CONTENT_ITEMS).count({ _id: contentId, projectId })) > 0) return projectId;
    }
    return contentSourceOf(await history()).projectId;
  };

  /** `read`: the read models as the runner hands them over, up to this event (its batch's writes included). */
  const notify = async (recorded: RecordedEvent, kind: ContentNotificationKind, read: ReadStore) => {
    const enabled = await read.collection<WebhookView>(WEBHOOKS).find({ enabled: true }, { sort: { id: 1 } });
    if (enabled.length === 0) return;
    const contentId = recorded.stream.slice('content-'.length);
    let events: RecordedEvent[] | undefined;
    // The item as of this event, even when later events (or its deletion) have already been applied.
    const history = async () => (events ??= (await deps.events.readStream(recorded.stream)).filter((event) => event.revision <= recorded.revision));
    const projectId = await projectOf(read, [...new Set(enabled.map((webhook) => webhook.projectId))], contentId, history);
    for (const webhook of enabled.filter((candidate) => candidate.projectId === projectId)) {
      const deliveryId = deliveryIdOf(recorded.id, webhook.id);
      // Requested before (a replay, or a restart before the checkpoint moved): `resume` starts it if unfinished.
      if ((await deps.events.streamRevision(deliveryStream(deliveryId))) >= 0) continue;
      const body = contentNotification(kind, contentId, await history(), deps.baseUrl(), recorded.created);
      const command = { kind: 'RequestDelivery', deliveryId, webhookId: webhook.id, projectId, notification: kind, contentId, body, now: deps.now().toISOString() } as const;
      const { state } = await handleCommand(deps.events, deliveryStream(deliveryId), deliveryDecider, command);
      if (state.status === 'pending') start(webhook.id, deliveryId, state.requested);
    }
  };

  return {
    projection: {
      name: 'webhookNotifications',
      streamPrefix: 'content-',
      collections: {},
      async apply(recorded, read) {
        const kind = notificationKindOf(recorded.type);
        if (kind) await notify(recorded, kind, read);
      },
    },
    async resume() {
      for (const delivery of await unfinishedDeliveries(deps.read)) start(delivery.webhookId, delivery._id, delivery.created);
    },
    close() {
      closed = true;
    },
  };
}
