// The webhook and delivery read models: their document types and the queries the service makes of them.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { AttemptRecord, NotificationKind } from './events.ts';
import { projectResource, projectResourceIndexes } from '../shared/projectResources.ts';

export const WEBHOOKS = 'webhooks';
export const WEBHOOK_DELIVERIES = 'webhookDeliveries';

/** Header names are kept as values, not keys: a name may hold characters a document key may not (`.`, `$`). */
export interface HeaderEntry {
  name: string;
  value: string;
}

export type WebhookView = {
  _id: string;
  revision: number;
  id: number;
  projectId: number;
  url: string;
  enabled: boolean;
  useStaticIp: boolean;
  headers: HeaderEntry[];
  created: string;
  updated: string;
};

export const deliveryStatuses = ['pending', 'retrying', 'delivered', 'failed', 'abandoned'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export type DeliveryView = {
  _id: string;
  revision: number;
  /** Global position of the request, for newest-first pages that stay stable. */
  position: number;
  webhookId: number;
  projectId: number;
  kind: NotificationKind;
  contentId: string | null;
  state: DeliveryStatus;
  reason: string | null;
  attempts: AttemptRecord[];
  created: string;
  updated: string;
};

export const webhookIndexes = projectResourceIndexes;
export const deliveryIndexes: IndexSpec[] = [
  { name: 'webhook_position', keys: { webhookId: 1, position: -1 } },
  { name: 'state', keys: { state: 1 } },
];

const resource = projectResource<WebhookView>(WEBHOOKS);
export const findWebhook = resource.find;
export const listWebhooks = resource.list;

export const enabledWebhooksOf = (read: ReadStore, projectId: number) =>
  read.collection<WebhookView>(WEBHOOKS).find({ projectId, enabled: true }, { sort: { id: 1 } });

export const listDeliveries = (read: ReadStore, webhookId: number, offset: number, limit: number) =>
  read.collection<DeliveryView>(WEBHOOK_DELIVERIES).find({ webhookId }, { sort: { position: -1 }, skip: offset, limit });

/** Deliveries that have not ended, for resuming them after a restart; a test left pending is not sent late. */
export const unfinishedDeliveries = (read: ReadStore) =>
  read
    .collection<DeliveryView>(WEBHOOK_DELIVERIES)
    .find({ state: { $in: ['pending', 'retrying'] }, kind: { $ne: 'webhook.test' } }, { sort: { position: 1 } });
