// The facts of webhooks (`webhook-<id>`) and of each notification delivery (`webhook_delivery-<delivery id>`).
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { WebhookWireFields } from './commands.ts';

export type WebhookFields = CamelKeys<WebhookWireFields>;

export type WebhookCreated = {
  type: 'WebhookCreated';
  data: { webhookId: number; projectId: number; fields: WebhookFields; secret: string; created: string };
};
export type WebhookUpdated = { type: 'WebhookUpdated'; data: { changes: Partial<WebhookFields>; updated: string } };
export type WebhookDeleted = { type: 'WebhookDeleted'; data: { deleted: string } };
/** The service turned the webhook off, e.g. because its receiver answered 410 Gone. */
export type WebhookDisabled = { type: 'WebhookDisabled'; data: { reason: string; disabled: string } };

export type WebhookEvent = WebhookCreated | WebhookUpdated | WebhookDeleted | WebhookDisabled;

export const webhookStream = (webhookId: number) => `webhook-${webhookId}`;

/** What a notification is about: the content kinds, and the test route's own kind. */
export const notificationKinds = ['audio.updated', 'audio.error', 'audio.deleted', 'webhook.test'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** The exact bytes every attempt sends, so each retry carries the same body under the same webhook-id. */
export type WebhookDeliveryRequested = {
  type: 'WebhookDeliveryRequested';
  data: { deliveryId: string; webhookId: number; projectId: number; kind: NotificationKind; contentId: string | null; body: string; requested: string };
};

export interface AttemptRecord {
  attempt: number;
  /** The receiver's HTTP status, or null when no answer came (timeout, network error, refused destination). */
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

export type WebhookDeliveryAttempted = { type: 'WebhookDeliveryAttempted'; data: AttemptRecord & { deliveryId: string; kind: NotificationKind } };
export type WebhookDelivered = { type: 'WebhookDelivered'; data: { deliveryId: string; delivered: string } };
/** Final without success: a permanent refusal by the receiver, a refused destination, or a webhook turned off meanwhile. */
export type WebhookDeliveryFailed = { type: 'WebhookDeliveryFailed'; data: { deliveryId: string; reason: string; failed: string } };
export type WebhookDeliveryAbandoned = { type: 'WebhookDeliveryAbandoned'; data: { deliveryId: string; reason: string; abandoned: string } };

export type DeliveryEvent = WebhookDeliveryRequested | WebhookDeliveryAttempted | WebhookDelivered | WebhookDeliveryFailed | WebhookDeliveryAbandoned;

export const deliveryStream = (deliveryId: string) => `webhook_delivery-${deliveryId}`;
