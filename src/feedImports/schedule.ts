// The embedded schedule of feed imports: every enabled import runs an interval after its last run began (or after it
// was created). Due times follow from stored state, so a restart picks up where the last process stopped; the
// import's stream decides each run (StartRun), so several processes checking at once never run one import twice.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { AppError } from '../shared/errors.ts';
import { dueAt, enabledFeedImports } from './readModel.ts';
import type { FeedRunner } from './run.ts';

export interface FeedSchedule {
  close(): Promise<void>;
}

/** How often due imports are looked for: a quarter of the interval, within 250 ms and 30 s. */
export const checkEveryMs = (intervalMs: number) => Math.min(30_000, Math.max(250, Math.floor(intervalMs / 4)));

/** Runs the imports that are due, one after another; answers how many ran. */
export async function runDueImports(read: ReadStore, runner: FeedRunner, intervalMs: number, now: number, log: (message: string) => void): Promise<number> {
  let ran = 0;
  for (const view of await enabledFeedImports(read)) {
    if (dueAt(view, intervalMs) > now) continue;
    try {
      if (await runner.run(view.id, intervalMs)) ran++;
    } catch (error) {
      // Running elsewhere (409) or deleted meanwhile (404): nothing to do here.
      if (!(error instanceof AppError)) log(`feed import ${view.id}: the scheduled run stopped: ${String(error)}`);
    }
  }
  return ran;
}

export function startFeedSchedule(deps: { read: ReadStore; runner: FeedRunner; intervalMs: number; now: () => Date; log: (message: string) => void }): FeedSchedule {
  let closed = false;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (closed) return;
    current = runDueImports(deps.read, deps.runner, deps.intervalMs, deps.now().getTime(), deps.log)
      .catch((error: unknown) => deps.log(`feed imports: could not look for due imports: ${String(error)}`))
      .finally(() => {
        if (!closed) timer = setTimeout(tick, checkEveryMs(deps.intervalMs));
      });
  };
  let timer = setTimeout(tick, checkEveryMs(deps.intervalMs));
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await current;
    },
  };
}
