// Temporal workflow definitions (deterministic, no I/O): the generation lifecycle over proxied activities.
import { proxyActivities } from '@temporalio/workflow';
import type { GenerationActivities, GenerationInput } from '../src/generation/lifecycle.ts';
import { generationLifecycle, generationRetry } from '../src/generation/lifecycle.ts';

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
