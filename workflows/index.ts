// Temporal workflow definitions (deterministic, no I/O): the generation lifecycle, the webhook delivery lifecycle
// and the scheduled feed imports, over proxied activities.
import { patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { GenerationActivities, GenerationInput } from '../src/generation/lifecycle.ts';
import { generationLifecycle, generationRetry } from '../src/generation/lifecycle.ts';
import type { DeliveryActivities, DeliveryEnd, DeliveryInput } from '../src/webhooks/delivery.ts';
import { deliveryLifecycle, deliveryRecordRetry } from '../src/webhooks/delivery.ts';
import type { FeedImportActivities } from '../src/feedImports/activities.ts';

const generationOptions = {
  startToCloseTimeout: '15 minutes',
  // A worker killed mid-activity is noticed after this long, and the activity runs again elsewhere; a cancelled
  // workflow's activities hear of it with their next heartbeat.
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: generationRetry.initialIntervalMs,
    backoffCoefficient: generationRetry.backoffCoefficient,
    maximumInterval: generationRetry.maximumIntervalMs,
    maximumAttempts: generationRetry.maximumAttempts,
  },
} as const;
const activities = proxyActivities<GenerationActivities>(generationOptions);
// Every size of a long article's video, renders waiting their turn behind other items' ones: longer than narration.
// Heartbeats reach the server at most every 80% of the timeout, and a cancellation reaches the render with the next
// one: a shorter timeout stops a cancelled render's ffmpeg sooner.
const { renderVideos } = proxyActivities<GenerationActivities>({ ...generationOptions, startToCloseTimeout: '2 hours', heartbeatTimeout: '5 seconds' });

export async function generateContent(input: GenerationInput): Promise<string> {
  return generationLifecycle(
    {
      startProcessing: activities.startProcessing,
      generateMedia: activities.generateMedia,
      // Workflows started before the video step existed replay without it (their history has no render to match).
      renderVideos: (input, media) => (patched('render-videos') ? renderVideos(input, media) : Promise.resolve([])),
      recordProcessed: activities.recordProcessed,
      recordSkipped: activities.recordSkipped,
      recordFailed: activities.recordFailed,
    },
    input,
  );
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

// Fired by the feed imports' schedule (src/feedImports/temporalSchedule.ts). Not retried: the next firing runs what is due.
const { runDueFeedImports: runDue } = proxyActivities<FeedImportActivities>({ startToCloseTimeout: '30 minutes', retry: { maximumAttempts: 1 } });

export async function runDueFeedImports(): Promise<number> {
  return runDue();
}
