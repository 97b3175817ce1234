// Embedded workflow runner: the same lifecycle and retry policy as on Temporal, inside this process.
import { generationLifecycle, generationRetry, type GenerationActivities } from '../../generation/lifecycle.ts';
import { generationWorkflowId, type WorkflowRunner } from './port.ts';
import { retrying } from './retry.ts';

/** At most this many generations run at once; the rest wait their turn (synthesis is CPU-bound). */
const CONCURRENCY = 2;

export function createInProcessRunner(activities: GenerationActivities, log: (message: string) => void): WorkflowRunner {
  const withRetries = retrying(generationRetry, activities);
  const known = new Set<string>();
  const queue: (() => Promise<void>)[] = [];
  const inFlight = new Set<Promise<void>>();
  let closed = false;

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
    async close() {
      closed = true;
      queue.length = 0;
      await Promise.allSettled([...inFlight]);
    },
  };
}
