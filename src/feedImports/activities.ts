// The activity of the Temporal schedule of feed imports: run the imports that are due (the worker runs it).
import type { FeedRunDeps } from './run.ts';
import { createFeedRunner } from './run.ts';
import { runDueImports } from './schedule.ts';

export interface FeedImportActivities {
  /** Runs every enabled import that is due; answers how many ran. */
  runDueFeedImports(): Promise<number>;
}

/**
 * The schedule fires every interval and the imports' own due times are an interval after their last run began: a
 * tenth of slack keeps an import that ran just after one firing from waiting for the firing after the next.
 */
export const SCHEDULE_SLACK = 0.9;

export function createFeedImportActivities(deps: FeedRunDeps & { intervalMs: number; log: (message: string) => void }): FeedImportActivities {
  const runner = createFeedRunner(deps);
  return {
    runDueFeedImports: () => runDueImports(deps.read, runner, Math.floor(deps.intervalMs * SCHEDULE_SLACK), deps.now().getTime(), deps.log),
  };
}
