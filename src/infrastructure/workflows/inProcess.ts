// Embedded workflow runner: the same lifecycles and retry policies as on Temporal, inside this process.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { generationLifecycle, generationRetry, type GenerationActivities } from '../../generation/lifecycle.ts';
import { deliveryLifecycle, deliveryRecordRetry, type DeliveryActivities, type DeliveryRuntime } from '../../webhooks/delivery.ts';
import { deliveryWorkflowId, generationWorkflowId, type WorkflowRunner } from './port.ts';
import { retrying } from './retry.ts';

/** At most this many generations run at once; the rest wait their turn (synthesis is CPU-bound). */
const CONCURRENCY = 2;

export function createInProcessRunner(activities: GenerationActivities, deliveries: DeliveryActivities, log: (message: string) => void): WorkflowRunner {
  const withRetries = retrying(generationRetry, activities);
  const known = new Set<string>();
  const queue: (() => Promise<void>)[] = [];
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
    while (!closed && inFlight.size < CONCURRENCY && queue.length > 0) {
      const job = queue.shift()!();
      inFlight.add(job);
      void job.finally(() => {
        inFlight.delete(job);
        pump();
      });
    }
  };

  return {
    async startGeneration(input) {
      const id = generationWorkflowId(input);
      if (known.has(id)) return;
      known.add(id);
      queue.push(async () => {
        try {
          await generationLifecycle(withRetries, input);
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
      queue.length = 0;
      closing.abort();
      await Promise.allSettled([...inFlight, ...deliveriesInFlight]);
    },
  };
}
