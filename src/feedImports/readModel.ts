// The feed import read model: its document type and the queries of the routes and the schedule.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';
import type { FeedImportFields, RunOutcome } from './events.ts';

export const FEED_IMPORTS = 'feed_imports';

export type FeedImportView = ProjectResourceDocument<FeedImportFields> & {
  lastRun: RunOutcome | null;
  /** When the last run began (finished or not): the schedule counts the next one from it. */
  runStarted: string | null;
};

export const feedImportIndexes: IndexSpec[] = [...projectResourceIndexes, { name: 'enabled', keys: { enabled: 1, id: 1 } }];

const resource = projectResource<FeedImportView>(FEED_IMPORTS);
export const findFeedImport = resource.find;

/** Every enabled import of every project, for the schedule. */
export const enabledFeedImports = (read: ReadStore) => read.collection<FeedImportView>(FEED_IMPORTS).find({ enabled: true }, { sort: { id: 1 } });

/** When an import is due: an interval after its last run began, or after it was created. */
export const dueAt = (view: FeedImportView, intervalMs: number) => Date.parse(view.runStarted ?? view.created) + intervalMs;
