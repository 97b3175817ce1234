// The delivery activities: every effect of the delivery lifecycle, built from their dependencies.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { foldStream, handleCommand } from '../shared/decider.ts';
import { deliveryDecider, webhookDecider, type DeliveryCommand, type Verdict } from './decider.ts';
import { retryAfterMs, verdictOf, type AttemptResult, type DeliveryActivities } from './delivery.ts';
import { deliveryStream, webhookStream, type AttemptRecord } from './events.ts';
import { postJson } from './send.ts';
import { signatureHeaders } from './signature.ts';

export interface DeliveryDeps {
  events: EventStore;
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private destinations are allowed (local use and tests). */
  allowPrivate: boolean;
  timeoutMs: number;
  now: () => Date;
}

const USER_AGENT = 'narration-service-webhooks/1';
const GONE = 'the receiver answered 410 Gone';

export function createDeliveryActivities(deps: DeliveryDeps): DeliveryActivities {
  const decide = (deliveryId: string, command: DeliveryCommand) => handleCommand(deps.events, deliveryStream(deliveryId), deliveryDecider, command);

  return {
    async attemptDelivery({ deliveryId, webhookId }, mode = 'retrying') {
      const delivery = foldStream(deliveryDecider, await deps.events.readStream(deliveryStream(deliveryId)));
      const attempt = delivery.attempts + 1;
      const unsent: AttemptResult = { outcome: 'stopped', attempt, status: null, error: null, retryAfterMs: null, position: 0 };
      if (delivery.status !== 'pending') return unsent;

      const webhook = foldStream(webhookDecider, await deps.events.readStream(webhookStream(webhookId)));
      const stop = webhook.status !== 'active' ? 'the webhook was deleted' : !webhook.enabled && mode === 'retrying' ? 'the webhook was disabled' : null;
      if (stop) {
        const { position } = await decide(deliveryId, { kind: 'StopDelivery', deliveryId, reason: stop, now: deps.now().toISOString() });
        return { ...unsent, error: stop, position };
      }

      const at = deps.now();
      const signed = signatureHeaders(webhook.secret, deliveryId, Math.floor(at.getTime() / 1000), delivery.body);
      const headers = { 'user-agent': USER_AGENT, ...webhook.headers, 'content-type': 'application/json', ...signed };
      const sent = await postJson(webhook.url, headers, delivery.body, deps);

      const answer = sent.refused ? 'failed' : verdictOf(sent.status);
      if (answer === 'gone') {
        await handleCommand(deps.events, webhookStream(webhookId), webhookDecider, { kind: 'DisableWebhook', reason: GONE, now: deps.now().toISOString() });
      }
      const verdict: Verdict = answer === 'gone' || (mode === 'once' && answer === 'retry') ? 'failed' : answer;
      const error = sent.error ?? (answer === 'delivered' ? null : `the receiver answered ${sent.status}`);
      const record: AttemptRecord = { attempt, status: sent.status, error, durationMs: sent.durationMs, at: at.toISOString() };
      const reason = answer === 'gone' ? `${GONE}; the webhook was disabled` : error;
      const { position } = await decide(deliveryId, { kind: 'RecordAttempt', deliveryId, attempt: record, verdict, reason });
      return { outcome: verdict, attempt, status: sent.status, error, retryAfterMs: retryAfterMs(sent.retryAfter, deps.now().getTime()), position };
    },

    async abandonDelivery({ deliveryId }, reason) {
      await decide(deliveryId, { kind: 'AbandonDelivery', deliveryId, reason, now: deps.now().toISOString() });
    },
  };
}
