// The one mapping from the webhook and delivery read models to the wire format, and of page queries.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../content/wire.ts';
import { queryInt } from '../shared/wireSchemas.ts';
import type { DeliveryView, WebhookView } from './readModel.ts';

export function webhookToWire(webhook: WebhookView) {
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

export function deliveryToWire(delivery: DeliveryView) {
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

/** Pages of webhooks and deliveries, as content lists page. */
export const pageQuery = z.object({
  'pagination[limit]': queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  'pagination[offset]': queryInt(0, 1_000_000_000).default(0),
});
