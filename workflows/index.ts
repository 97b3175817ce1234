// Temporal workflow definitions (deterministic, no I/O): the generation lifecycle and the webhook delivery
// lifecycle over proxied activities.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { GenerationActivities, GenerationInput } from '../src/generation/lifecycle.ts';
import { generationLifecycle, generationRetry } from '../src/generation/lifecycle.ts';
import type { DeliveryActivities, DeliveryEnd, DeliveryInput } from '../src/webhooks/delivery.ts';
import { deliveryLifecycle, deliveryRecordRetry } from '../src/webhooks/delivery.ts';

const activities = proxyActivities<GenerationActivities>({
  startToCloseTimeout: '15 minutes',
  // A worker killed mid-activity is noticed after this long, and the activity runs again elsewhere.
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: generationRetry.initialIntervalMs,
    backoffCoefficient: generationRetry.backoffCoefficient,
    maximumInterval: generationRetry.maximumIntervalMs,
    maximumAttempts: generationRetry.maximumAttempts,
  },
});

export async function generateContent(input: GenerationInput): Promise<string> {
  return generationLifecycle(activities, input);
}

// One attempt is one activity run: the lifecycle, not Temporal, decides when to send again.
// The timeout bounds the request (WEBHOOK_TIMEOUT_MS, at most 60 s) plus the lookup and the recording.
const { attemptDelivery } = proxyActivities<DeliveryActivities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 } });
const { abandonDelivery } = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: deliveryRecordRetry.initialIntervalMs,
    backoffCoefficient: deliveryRecordRetry.backoffCoefficient,
    maximumInterval: deliveryRecordRetry.maximumIntervalMs,
    maximumAttempts: deliveryRecordRetry.maximumAttempts,
  },
});

export async function deliverWebhook(input: DeliveryInput): Promise<DeliveryEnd> {
  // Date.now and Math.random are Temporal's deterministic versions inside a workflow; sleep is a durable timer.
  return deliveryLifecycle({ attemptDelivery, abandonDelivery }, input, { sleep, now: Date.now, random: Math.random });
}
