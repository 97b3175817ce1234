// Business rules of webhooks and of their deliveries: pure decide/evolve.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { AttemptRecord, DeliveryEvent, NotificationKind, WebhookEvent, WebhookFields } from './events.ts';

export interface WebhookState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  url: string;
  enabled: boolean;
  headers: Record<string, string>;
  secret: string;
}

export type WebhookCommand =
  | { kind: 'CreateWebhook'; webhookId: number; projectId: number; fields: WebhookFields; secret: string; now: string }
  | { kind: 'UpdateWebhook'; projectId: number; changes: Partial<WebhookFields>; now: string }
  | { kind: 'DeleteWebhook'; projectId: number; now: string }
  | { kind: 'DisableWebhook'; reason: string; now: string };

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: { status: 'absent', projectId: null, url: '', enabled: false, headers: {}, secret: '' },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const { projectId, fields, secret } = event.data;
        return { status: 'active', projectId, url: fields.url, enabled: fields.enabled, headers: fields.headers, secret };
      }
      case 'WebhookUpdated': {
        const { url, enabled, headers } = event.data.changes;
        return { ...state, url: url ?? state.url, enabled: enabled ?? state.enabled, headers: headers ?? state.headers };
      }
      case 'WebhookDeleted':
        return { ...state, status: 'deleted' };
      case 'WebhookDisabled':
        return { ...state, enabled: false };
    }
  },

  decide(command, state): WebhookEvent[] | AppError {
    switch (command.kind) {
      case 'CreateWebhook': {
        if (state.status !== 'absent') return conflict();
        const { webhookId, projectId, fields, secret, now } = command;
        return [{ type: 'WebhookCreated', data: { webhookId, projectId, fields, secret, created: now } }];
      }
      case 'UpdateWebhook':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'WebhookUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteWebhook':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'WebhookDeleted', data: { deleted: command.now } }];
      case 'DisableWebhook':
        if (state.status !== 'active' || !state.enabled) return [];
        return [{ type: 'WebhookDisabled', data: { reason: command.reason, disabled: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

export interface DeliveryState {
  status: 'absent' | 'pending' | 'delivered' | 'failed' | 'abandoned';
  webhookId: number | null;
  kind: NotificationKind | null;
  body: string;
  requested: string;
  attempts: number;
}

/** How an attempt ends its delivery: done, over for good, or to be tried again. */
export type Verdict = 'delivered' | 'failed' | 'retry';

export type DeliveryCommand =
  | { kind: 'RequestDelivery'; deliveryId: string; webhookId: number; projectId: number; notification: NotificationKind; contentId: string | null; body: string; now: string }
  | { kind: 'RecordAttempt'; deliveryId: string; attempt: AttemptRecord; verdict: Verdict; reason: string | null }
  | { kind: 'StopDelivery'; deliveryId: string; reason: string; now: string }
  | { kind: 'AbandonDelivery'; deliveryId: string; reason: string; now: string };

export const deliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> = {
  initialState: { status: 'absent', webhookId: null, kind: null, body: '', requested: '', attempts: 0 },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookDeliveryRequested': {
        const { webhookId, kind, body, requested } = event.data;
        return { ...state, status: 'pending', webhookId, kind, body, requested };
      }
      case 'WebhookDeliveryAttempted':
        return { ...state, attempts: event.data.attempt };
      case 'WebhookDelivered':
        return { ...state, status: 'delivered' };
      case 'WebhookDeliveryFailed':
        return { ...state, status: 'failed' };
      case 'WebhookDeliveryAbandoned':
        return { ...state, status: 'abandoned' };
    }
  },

  decide(command, state): DeliveryEvent[] | AppError {
    switch (command.kind) {
      case 'RequestDelivery': {
        // The id derives from the triggering event, so a second request for it is the same delivery.
        if (state.status !== 'absent') return [];
        const { deliveryId, webhookId, projectId, notification, contentId, body, now } = command;
        return [{ type: 'WebhookDeliveryRequested', data: { deliveryId, webhookId, projectId, kind: notification, contentId, body, requested: now } }];
      }
      case 'RecordAttempt': {
        if (state.status === 'absent') return notFound();
        if (state.status !== 'pending') return [];
        const { deliveryId, attempt, verdict, reason } = command;
        const attempted: DeliveryEvent = { type: 'WebhookDeliveryAttempted', data: { ...attempt, deliveryId, kind: state.kind! } };
        if (verdict === 'delivered') return [attempted, { type: 'WebhookDelivered', data: { deliveryId, delivered: attempt.at } }];
        if (verdict === 'failed') return [attempted, failed(deliveryId, reason ?? attempt.error ?? 'the delivery failed', attempt.at)];
        return [attempted];
      }
      case 'StopDelivery':
        if (state.status !== 'pending') return [];
        return [failed(command.deliveryId, command.reason, command.now)];
      case 'AbandonDelivery':
        if (state.status !== 'pending') return [];
        return [{ type: 'WebhookDeliveryAbandoned', data: { deliveryId: command.deliveryId, reason: command.reason, abandoned: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

const isOfProject = (state: WebhookState, projectId: number) => state.status === 'active' && state.projectId === projectId;
const failed = (deliveryId: string, reason: string, at: string): DeliveryEvent => ({ type: 'WebhookDeliveryFailed', data: { deliveryId, reason, failed: at } });

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
