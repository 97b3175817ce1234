// Feed import commands: the resource through the project resource kit, and the start and end of runs.
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { projectResourceHandlers } from '../shared/crud/handlers.ts';
import { foldStream, handleCommand } from '../shared/decider.ts';
import { createFeedImportSchema, updateFeedImportSchema } from './commands.ts';
import { feedImportDecider, type FeedImportState } from './decider.ts';
import { feedImportStream, type FeedImportFields, type RunOutcome, type Validators } from './events.ts';

export function createFeedImportHandlers(store: EventStore) {
  return projectResourceHandlers(store, {
    sequence: 'feed_import',
    stream: feedImportStream,
    decider: feedImportDecider,
    schemas: { create: createFeedImportSchema, update: updateFeedImportSchema },
    commands: {
      create: (feedImportId, projectId, fields: FeedImportFields, now) => ({ kind: 'CreateFeedImport', feedImportId, projectId, fields, now }) as const,
      update: (projectId, changes, now) => ({ kind: 'UpdateFeedImport', projectId, changes, now }) as const,
      remove: (projectId, now) => ({ kind: 'DeleteFeedImport', projectId, now }) as const,
    },
  });
}

/**
 * Marks a run as started (409 while another runs) and answers the import as it stands; null when a scheduled run
 * (`dueAfterMs`) is not due yet, another process having run it meanwhile.
 */
export async function startRun(store: EventStore, feedImportId: number, runId: string, now: Date, staleAfterMs: number, dueAfterMs?: number): Promise<FeedImportState | null> {
  const command = { kind: 'StartRun', runId, now: now.toISOString(), staleAfterMs, dueAfterMs } as const;
  const { state, position } = await handleCommand(store, feedImportStream(feedImportId), feedImportDecider, command);
  return position === 0 ? null : state;
}

/** Records a run's outcome; the global position of the event (0 when the run was overtaken or the import deleted). */
export async function finishRun(store: EventStore, feedImportId: number, runId: string, outcome: RunOutcome, validators: Validators | null): Promise<number> {
  return (await handleCommand(store, feedImportStream(feedImportId), feedImportDecider, { kind: 'FinishRun', runId, outcome, validators })).position;
}

export const loadFeedImport = async (store: EventStore, feedImportId: number) => foldStream(feedImportDecider, await store.readStream(feedImportStream(feedImportId)));
