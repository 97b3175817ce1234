// The webhook and delivery wire formats: zod schemas (source of the OpenAPI document), their mappings, and page queries.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../content/wire.ts';
import { queryInt } from '../shared/wireSchemas.ts';
import { timestamp } from '../shared/wireResponses.ts';
import type { AttemptResult } from './delivery.ts';
import { notificationKinds } from './events.ts';
import { deliveryStatuses, type DeliveryView, type WebhookView } from './readModel.ts';

export const webhookWire = z
  .object({
    id: z.number().int().min(1),
    url: z.string(),
    enabled: z.boolean(),
    use_static_ip: z.boolean(),
    headers: z.record(z.string(), z.string()).describe('Header names to values, sent with every notification'),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'Webhook' });
export type WebhookWire = z.infer<typeof webhookWire>;

export const createdWebhookWire = webhookWire
  .extend({ secret: z.string().describe('Signing secret of the notifications; shown only in this answer') })
  .meta({ id: 'CreatedWebhook' });

export const deliveryWire = z
  .object({
    id: z.string(),
    kind: z.enum(notificationKinds),
    content_id: z.string().nullable(),
    state: z.enum(deliveryStatuses),
    reason: z.string().nullable(),
    attempts: z.array(
      z.object({
        attempt: z.number().int().min(1),
        at: timestamp,
        status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came"),
        error: z.string().nullable(),
        duration_ms: z.number().min(0),
      }),
    ),
    created: timestamp,
    updated: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryWire = z.infer<typeof deliveryWire>;

export const webhookTestWire = z
  .object({
    delivered: z.boolean(),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
    delivery_id: z.string(),
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestWire = z.infer<typeof webhookTestWire>;

export function webhookToWire(webhook: WebhookView): WebhookWire {
  return {
    id: webhook.id,
    url: webhook.url,
    enabled: webhook.enabled,
    use_static_ip: webhook.useStaticIp,
    headers: Object.fromEntries(webhook.headers.map(({ name, value }) => [name, value])),
    created: webhook.created,
    updated: webhook.updated,
  };
}

export function deliveryToWire(delivery: DeliveryView): DeliveryWire {
  return {
    id: delivery._id,
    kind: delivery.kind,
    content_id: delivery.contentId,
    state: delivery.state,
    reason: delivery.reason,
    attempts: delivery.attempts.map(({ attempt, at, status, error, durationMs }) => ({ attempt, at, status, error, duration_ms: durationMs })),
    created: delivery.created,
    updated: delivery.updated,
  };
}

export const webhookTestToWire = (result: AttemptResult & { deliveryId: string }): WebhookTestWire => ({
  delivered: result.outcome === 'delivered',
  status: result.status,
  error: result.error,
  delivery_id: result.deliveryId,
});

/** Pages of webhooks and deliveries, as content lists page. */
export const pageQuery = z.object({
  'pagination[limit]': queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  'pagination[offset]': queryInt(0, 1_000_000_000).default(0),
});
