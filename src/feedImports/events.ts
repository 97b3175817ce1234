// The facts of feed imports (`feed_import-<id>`): the resource's lifecycle and its runs.
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { FeedImportWireFields } from './commands.ts';

/** `fieldMap` and `requestHeaders` keep the wire's keys inside: they name feed elements and HTTP headers. */
export type FeedImportFields = CamelKeys<FeedImportWireFields>;

export interface RunError {
  /** The entry's id (its source id), or null when the whole feed failed. */
  item: string | null;
  message: string;
}

export interface RunOutcome {
  started: string;
  finished: string;
  imported: number;
  updated: number;
  skipped: number;
  errors: RunError[];
}

/** What the feed's server said of its version, for the next conditional GET. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedImportCreated = { type: 'FeedImportCreated'; data: { feedImportId: number; projectId: number; fields: FeedImportFields; created: string } };
export type FeedImportUpdated = { type: 'FeedImportUpdated'; data: { changes: Partial<FeedImportFields>; updated: string } };
export type FeedImportDeleted = { type: 'FeedImportDeleted'; data: { deleted: string } };
export type FeedImportRunStarted = { type: 'FeedImportRunStarted'; data: { runId: string; started: string } };
/** `validators` null: the feed answered none (or the run failed before it answered), keep none. */
export type FeedImportRunFinished = { type: 'FeedImportRunFinished'; data: { runId: string; outcome: RunOutcome; validators: Validators | null } };

export type FeedImportEvent = FeedImportCreated | FeedImportUpdated | FeedImportDeleted | FeedImportRunStarted | FeedImportRunFinished;

export const feedImportStream = (feedImportId: number) => `feed_import-${feedImportId}`;
