// Embedded workflow runner: the same lifecycles and retry policies as on Temporal, inside this process.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { generationLifecycle, generationRetry, type GenerationActivities, type GenerationLane } from '../../generation/lifecycle.ts';
import { deliveryLifecycle, deliveryRecordRetry, type DeliveryActivities, type DeliveryRuntime } from '../../webhooks/delivery.ts';
import { deliveryWorkflowId, generationWorkflowId, type WorkflowRunner } from './port.ts';
import { retrying } from './retry.ts';

/** How many narrations of each lane may be made at once (GENERATION_CONCURRENCY, GENERATION_BULK_CONCURRENCY). */
export type LaneConcurrency = Record<GenerationLane, number>;

/** A generation waiting for a slot; it calls `release` when its narration no longer needs the slot. */
type Waiting = (release: () => void) => Promise<void>;

/**
 * Generations wait in the queue of their lane in order of arrival, and a freed slot goes to interactive work first.
 * A generation holds a slot of its lane from its start until its narration is made (its videos wait for the render
 * slots, elsewhere). Interactive and bulk work have slots of their own, so a new item never waits for bulk work to
 * make room, and a backlog of bulk work runs a few at a time however long it is (synthesis is CPU-bound); within a
 * process the speech engines serve interactive sentences first too (src/generation/render.ts).
 */
export function createInProcessRunner(
  activities: GenerationActivities,
  deliveries: DeliveryActivities,
  log: (message: string) => void,
  concurrency: LaneConcurrency = { interactive: 2, bulk: 1 },
): WorkflowRunner {
  const withRetries = retrying(generationRetry, activities);
  const known = new Set<string>();
  const queues: Record<GenerationLane, Waiting[]> = { interactive: [], bulk: [] };
  const running: Record<GenerationLane, number> = { interactive: 0, bulk: 0 };
  const inFlight = new Set<Promise<void>>();
  const deliveriesInFlight = new Set<Promise<void>>();
  let closed = false;
  // Deliveries wait between attempts for up to hours; closing ends their waits (a restart resumes them).
  const closing = new AbortController();
  setMaxListeners(0, closing.signal);
  const runtime: DeliveryRuntime = { sleep: (ms) => sleep(ms, undefined, { signal: closing.signal }), now: Date.now, random: Math.random };
  // Sending is never retried by the runner: the lifecycle decides when to attempt again.
  const delivery: DeliveryActivities = { attemptDelivery: deliveries.attemptDelivery, abandonDelivery: retrying(deliveryRecordRetry, deliveries).abandonDelivery };

  const pump = () => {
    for (const lane of ['interactive', 'bulk'] as const) {
      while (!closed && running[lane] < concurrency[lane] && queues[lane].length > 0) {
        running[lane]++;
        let held = true;
        const release = () => {
          if (!held) return;
          held = false;
          running[lane]--;
          pump();
        };
        const job = queues[lane].shift()!(release);
        inFlight.add(job);
        void job.finally(() => {
          inFlight.delete(job);
          release();
        });
      }
    }
  };

  return {
    async startGeneration(input) {
      const id = generationWorkflowId(input);
      if (known.has(id)) return;
      known.add(id);
      const lane = input.lane ?? 'interactive';
      queues[lane].push(async (release) => {
        // The slot is given back once the narration is made (or failed for good): rendering videos and recording
        // the outcome need no synthesis.
        const narrating: GenerationActivities = {
          ...withRetries,
          generateMedia: (given) => withRetries.generateMedia(given).finally(release),
        };
        try {
          await generationLifecycle(narrating, input);
        } catch (error) {
          // Recording the outcome itself failed (the store went away); a restart resumes the item.
          log(`generation ${id} stopped: ${String(error)}`);
          known.delete(id);
        }
      });
      pump();
    },
    async startDelivery(input) {
      const id = deliveryWorkflowId(input);
      if (closed || known.has(id)) return;
      known.add(id);
      // Deliveries are I/O-bound and mostly waiting: they run at once, outside the generation queue.
      const job = deliveryLifecycle(delivery, input, runtime).then(
        () => undefined,
        (error: unknown) => {
          if (!closed) log(`delivery ${id} stopped: ${String(error)}`);
          known.delete(id);
        },
      );
      deliveriesInFlight.add(job);
      void job.finally(() => deliveriesInFlight.delete(job));
    },
    async close() {
      closed = true;
      queues.interactive.length = 0;
      queues.bulk.length = 0;
      closing.abort();
      await Promise.allSettled([...inFlight, ...deliveriesInFlight]);
    },
  };
}
