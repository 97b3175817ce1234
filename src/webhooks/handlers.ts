// Webhook commands: allocate an id and a secret, decide, append; the test route's single signed attempt.
import { randomBytes } from 'node:crypto';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, foldStream, handleCommand } from '../shared/decider.ts';
import { notFound } from '../shared/errors.ts';
import { parseOrThrow } from '../shared/validation.ts';
import { createDeliveryActivities } from './activities.ts';
import { webhookSchemas } from './commands.ts';
import { deliveryDecider, webhookDecider } from './decider.ts';
import type { AttemptResult } from './delivery.ts';
import { deliveryStream, webhookStream, type WebhookFields } from './events.ts';
import { testNotification } from './payload.ts';
import { newSecret } from './signature.ts';

export interface WebhookSettings {
  /** WEBHOOKS_ALLOW_PRIVATE: http:// and loopback or private destinations are allowed. */
  allowPrivate: boolean;
  timeoutMs: number;
}

export interface WebhookHandlers {
  create(projectId: number, body: unknown, now: Date): Promise<{ webhookId: number; secret: string; position: number }>;
  update(projectId: number, webhookId: number, body: unknown, now: Date): Promise<number>;
  remove(projectId: number, webhookId: number, now: Date): Promise<number>;
  /** Sends one signed `webhook.test` notification now and records it as a delivery. */
  test(projectId: number, webhookId: number, now: Date): Promise<AttemptResult & { deliveryId: string }>;
}

export function createWebhookHandlers(store: EventStore, settings: WebhookSettings, clock: () => Date): WebhookHandlers {
  const schemas = webhookSchemas(settings.allowPrivate);
  const sender = createDeliveryActivities({ events: store, ...settings, now: clock });

  return {
    async create(projectId, body, now) {
      const fields = camelKeys<WebhookFields>(parseOrThrow(schemas.create, body));
      const webhookId = await allocateId(store, 'webhook');
      const secret = newSecret();
      const command = { kind: 'CreateWebhook', webhookId, projectId, fields, secret, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, webhookStream(webhookId), webhookDecider, command);
      return { webhookId, secret, position };
    },

    async update(projectId, webhookId, body, now) {
      const changes = camelKeys<Partial<WebhookFields>>(parseOrThrow(schemas.update, body));
      const command = { kind: 'UpdateWebhook', projectId, changes, now: now.toISOString() } as const;
      return (await handleCommand(store, webhookStream(webhookId), webhookDecider, command)).position;
    },

    async remove(projectId, webhookId, now) {
      const command = { kind: 'DeleteWebhook', projectId, now: now.toISOString() } as const;
      return (await handleCommand(store, webhookStream(webhookId), webhookDecider, command)).position;
    },

    async test(projectId, webhookId, now) {
      const webhook = foldStream(webhookDecider, await store.readStream(webhookStream(webhookId)));
      if (webhook.status !== 'active' || webhook.projectId !== projectId) throw notFound();
      // Each test is a new notification, so it gets a new id (not derived from any event).
      const deliveryId = `msg_${randomBytes(12).toString('hex')}`;
      const at = now.toISOString();
      const body = testNotification(webhookId, projectId, at);
      await handleCommand(store, deliveryStream(deliveryId), deliveryDecider, {
        kind: 'RequestDelivery',
        deliveryId,
        webhookId,
        projectId,
        notification: 'webhook.test',
        contentId: null,
        body,
        now: at,
      });
      return { ...(await sender.attemptDelivery({ webhookId, deliveryId }, 'once')), deliveryId };
    },
  };
}
