import { describe, expect, it } from 'vitest';
import type { Decider } from '../../src/shared/decider.ts';
import { AppError } from '../../src/shared/errors.ts';
import { deliveryDecider, webhookDecider, type DeliveryCommand, type WebhookCommand } from '../../src/webhooks/decider.ts';
import type { AttemptRecord, DeliveryEvent, WebhookEvent } from '../../src/webhooks/events.ts';

/** Given these events, when this command: the events decided, or the kind of the error. */
function decide<S, C, E extends { type: string; data: unknown }>(decider: Decider<S, C, E>, given: E[], when: C): E[] | string {
  const decision = decider.decide(when, given.reduce(decider.evolve, decider.initialState));
  return decision instanceof AppError ? decision.kind : decision;
}

const now = '2026-03-01T10:00:00.000Z';
const fields = { url: 'https://hooks.example.com/a', enabled: true, useStaticIp: false, headers: { 'X-A': '1' } };
const created: WebhookEvent = { type: 'WebhookCreated', data: { webhookId: 7, projectId: 1, fields, secret: 'whsec_x', created: now } };
const updated: WebhookEvent = { type: 'WebhookUpdated', data: { changes: { enabled: false }, updated: now } };
const reEnabled: WebhookEvent = { type: 'WebhookUpdated', data: { changes: { enabled: true }, updated: now } };
const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { deleted: now } };
const disabled: WebhookEvent = { type: 'WebhookDisabled', data: { reason: 'the receiver answered 410 Gone', disabled: now } };

describe('webhook decider', () => {
  const cases: [string, WebhookEvent[], WebhookCommand, WebhookEvent[] | string][] = [
    ['creates a new webhook', [], { kind: 'CreateWebhook', webhookId: 7, projectId: 1, fields, secret: 'whsec_x', now }, [created]],
    ['never creates twice under one id', [created], { kind: 'CreateWebhook', webhookId: 7, projectId: 1, fields, secret: 'whsec_y', now }, 'Conflict'],
    ['updates a webhook of the project', [created], { kind: 'UpdateWebhook', projectId: 1, changes: { enabled: false }, now }, [updated]],
    ['hides a webhook of another project', [created], { kind: 'UpdateWebhook', projectId: 2, changes: { enabled: false }, now }, 'NotFound'],
    ['does not update what does not exist', [], { kind: 'UpdateWebhook', projectId: 1, changes: {}, now }, 'NotFound'],
    ['does not update a deleted webhook', [created, deleted], { kind: 'UpdateWebhook', projectId: 1, changes: {}, now }, 'NotFound'],
    ['deletes a webhook of the project', [created], { kind: 'DeleteWebhook', projectId: 1, now }, [deleted]],
    ['deletes once', [created, deleted], { kind: 'DeleteWebhook', projectId: 1, now }, 'NotFound'],
    ['does not delete for another project', [created], { kind: 'DeleteWebhook', projectId: 2, now }, 'NotFound'],
    ['disables an enabled webhook', [created], { kind: 'DisableWebhook', reason: 'the receiver answered 410 Gone', now }, [disabled]],
    ['disables once', [created, disabled], { kind: 'DisableWebhook', reason: 'again', now }, []],
    ['leaves a webhook its owner turned off', [created, updated], { kind: 'DisableWebhook', reason: 'x', now }, []],
    ['disables again after it was turned back on', [created, disabled, reEnabled], { kind: 'DisableWebhook', reason: 'the receiver answered 410 Gone', now }, [disabled]],
    ['leaves a deleted webhook alone', [created, deleted], { kind: 'DisableWebhook', reason: 'x', now }, []],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(webhookDecider, given, when)).toEqual(then);
  });

  it('folds the url, headers, secret and enabled flag an attempt needs', () => {
    const state = [created, { type: 'WebhookUpdated', data: { changes: { url: 'https://b.example.com/', headers: {} }, updated: now } } as WebhookEvent, disabled].reduce(
      webhookDecider.evolve,
      webhookDecider.initialState,
    );
    expect(state).toEqual({ status: 'active', projectId: 1, url: 'https://b.example.com/', enabled: false, headers: {}, secret: 'whsec_x' });
  });
});

const body = '{"type":"audio.updated"}';
const requested: DeliveryEvent = {
  type: 'WebhookDeliveryRequested',
  data: { deliveryId: 'msg_1', webhookId: 7, projectId: 1, kind: 'audio.updated', contentId: 'c-1', body, requested: now },
};
const request: DeliveryCommand = { kind: 'RequestDelivery', deliveryId: 'msg_1', webhookId: 7, projectId: 1, notification: 'audio.updated', contentId: 'c-1', body, now };
const attempt = (n: number, status: number | null, error: string | null = null): AttemptRecord => ({ attempt: n, status, error, durationMs: 12, at: now });
const attempted = (record: AttemptRecord): DeliveryEvent => ({ type: 'WebhookDeliveryAttempted', data: { ...record, deliveryId: 'msg_1', kind: 'audio.updated' } });
const delivered: DeliveryEvent = { type: 'WebhookDelivered', data: { deliveryId: 'msg_1', delivered: now } };
const failed = (reason: string): DeliveryEvent => ({ type: 'WebhookDeliveryFailed', data: { deliveryId: 'msg_1', reason, failed: now } });
const abandoned: DeliveryEvent = { type: 'WebhookDeliveryAbandoned', data: { deliveryId: 'msg_1', reason: 'not delivered within 3 days', abandoned: now } };
const record = (record: AttemptRecord, verdict: 'delivered' | 'failed' | 'retry', reason: string | null = record.error): DeliveryCommand => ({
  kind: 'RecordAttempt',
  deliveryId: 'msg_1',
  attempt: record,
  verdict,
  reason,
});

describe('delivery decider', () => {
  const retried = attempted(attempt(1, 500, 'the receiver answered 500'));
  const cases: [string, DeliveryEvent[], DeliveryCommand, DeliveryEvent[] | string][] = [
    ['requests a delivery', [], request, [requested]],
    ['requests a delivery once: a replayed trigger is the same delivery', [requested], request, []],
    ['records an attempt to retry', [requested], record(attempt(1, 500, 'the receiver answered 500'), 'retry'), [retried]],
    ['records a successful attempt and the delivery', [requested, retried], record(attempt(2, 200), 'delivered'), [attempted(attempt(2, 200)), delivered]],
    ['records a final refusal', [requested], record(attempt(1, 404, 'the receiver answered 404'), 'failed'), [attempted(attempt(1, 404, 'the receiver answered 404')), failed('the receiver answered 404')]],
    [
      'records why a 410 ended it',
      [requested],
      record(attempt(1, 410, 'the receiver answered 410'), 'failed', 'the receiver answered 410 Gone; the webhook was disabled'),
      [attempted(attempt(1, 410, 'the receiver answered 410')), failed('the receiver answered 410 Gone; the webhook was disabled')],
    ],
    ['records nothing for an unknown delivery', [], record(attempt(1, 200), 'delivered'), 'NotFound'],
    ['records nothing after delivery', [requested, attempted(attempt(1, 200)), delivered], record(attempt(2, 200), 'delivered'), []],
    ['records nothing after abandon', [requested, retried, abandoned], record(attempt(2, 200), 'delivered'), []],
    ['stops a pending delivery', [requested, retried], { kind: 'StopDelivery', deliveryId: 'msg_1', reason: 'the webhook was disabled', now }, [failed('the webhook was disabled')]],
    ['stops nothing that has ended', [requested, attempted(attempt(1, 200)), delivered], { kind: 'StopDelivery', deliveryId: 'msg_1', reason: 'x', now }, []],
    ['abandons a delivery still retrying', [requested, retried], { kind: 'AbandonDelivery', deliveryId: 'msg_1', reason: 'not delivered within 3 days', now }, [abandoned]],
    ['abandons once', [requested, retried, abandoned], { kind: 'AbandonDelivery', deliveryId: 'msg_1', reason: 'x', now }, []],
  ];
  it.each(cases)('%s', (_, given, when, then) => {
    expect(decide(deliveryDecider, given, when)).toEqual(then);
  });

  it('counts attempts and keeps the body for the next one', () => {
    const state = [requested, retried, attempted(attempt(2, null, 'no answer within 10000 ms'))].reduce(deliveryDecider.evolve, deliveryDecider.initialState);
    expect(state).toEqual({ status: 'pending', webhookId: 7, kind: 'audio.updated', body, requested: now, attempts: 2 });
  });
});
