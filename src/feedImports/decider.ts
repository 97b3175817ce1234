// Business rules of feed imports: pure decide/evolve. A run is started and finished by events, so runs of one
// import never overlap, across processes too; a run that never finished (its process died) is overtaken after a while.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { FeedImportEvent, FeedImportFields, RunOutcome, Validators } from './events.ts';

export interface FeedImportState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  fields: FeedImportFields | null;
  running: { runId: string; started: string } | null;
  /** When the last run began: a scheduled run is due an interval after it. */
  lastStarted: string | null;
  validators: Validators | null;
}

export type FeedImportCommand =
  | { kind: 'CreateFeedImport'; feedImportId: number; projectId: number; fields: FeedImportFields; now: string }
  | { kind: 'UpdateFeedImport'; projectId: number; changes: Partial<FeedImportFields>; now: string }
  | { kind: 'DeleteFeedImport'; projectId: number; now: string }
  /** `dueAfterMs` (scheduled runs): nothing happens until that long after the last run began. */
  | { kind: 'StartRun'; runId: string; now: string; staleAfterMs: number; dueAfterMs?: number }
  | { kind: 'FinishRun'; runId: string; outcome: RunOutcome; validators: Validators | null };

export const feedImportDecider: Decider<FeedImportState, FeedImportCommand, FeedImportEvent> = {
  initialState: { status: 'absent', projectId: null, fields: null, running: null, lastStarted: null, validators: null },

  evolve(state, event) {
    switch (event.type) {
      case 'FeedImportCreated':
        return { ...state, status: 'active', projectId: event.data.projectId, fields: event.data.fields };
      case 'FeedImportUpdated':
        // Another URL, map or mode: the next run reads the whole feed again.
        return { ...state, fields: { ...state.fields!, ...event.data.changes }, validators: null };
      case 'FeedImportDeleted':
        return { ...state, status: 'deleted', running: null };
      case 'FeedImportRunStarted':
        return { ...state, running: { runId: event.data.runId, started: event.data.started }, lastStarted: event.data.started };
      case 'FeedImportRunFinished':
        return { ...state, running: null, validators: event.data.validators };
    }
  },

  decide(command, state): FeedImportEvent[] | AppError {
    switch (command.kind) {
      case 'CreateFeedImport': {
        if (state.status !== 'absent') return conflict();
        const { feedImportId, projectId, fields, now } = command;
        return [{ type: 'FeedImportCreated', data: { feedImportId, projectId, fields, created: now } }];
      }
      case 'UpdateFeedImport':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'FeedImportUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteFeedImport':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'FeedImportDeleted', data: { deleted: command.now } }];
      case 'StartRun':
        if (state.status !== 'active') return notFound();
        if (command.dueAfterMs !== undefined && state.lastStarted && Date.parse(command.now) - Date.parse(state.lastStarted) < command.dueAfterMs) return [];
        if (state.running && Date.parse(command.now) - Date.parse(state.running.started) < command.staleAfterMs) {
          return conflict('A run of this feed import is under way');
        }
        return [{ type: 'FeedImportRunStarted', data: { runId: command.runId, started: command.now } }];
      case 'FinishRun':
        // Deleted meanwhile, or overtaken after it was thought dead: its outcome is no longer the import's.
        if (state.status !== 'active' || state.running?.runId !== command.runId) return [];
        return [{ type: 'FeedImportRunFinished', data: { runId: command.runId, outcome: command.outcome, validators: command.validators } }];
      default:
        return assertNever(command);
    }
  },
};

const isOfProject = (state: FeedImportState, projectId: number) => state.status === 'active' && state.projectId === projectId;

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
