// Business rules of content filters: pure decide/evolve; a filter belongs to one project and is created once.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { ContentFilterEvent, ContentFilterFields } from './events.ts';

export interface ContentFilterState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  fields: ContentFilterFields | null;
}

export type ContentFilterCommand =
  | { kind: 'CreateContentFilter'; contentFilterId: number; projectId: number; fields: ContentFilterFields; now: string }
  | { kind: 'UpdateContentFilter'; projectId: number; changes: Partial<ContentFilterFields>; now: string }
  | { kind: 'DeleteContentFilter'; projectId: number; now: string };

export const contentFilterDecider: Decider<ContentFilterState, ContentFilterCommand, ContentFilterEvent> = {
  initialState: { status: 'absent', projectId: null, fields: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ContentFilterCreated':
        return { status: 'active', projectId: event.data.projectId, fields: event.data.fields };
      case 'ContentFilterUpdated':
        return { ...state, fields: { ...state.fields!, ...event.data.changes } };
      case 'ContentFilterDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): ContentFilterEvent[] | AppError {
    switch (command.kind) {
      case 'CreateContentFilter': {
        if (state.status !== 'absent') return conflict();
        const { contentFilterId, projectId, fields, now } = command;
        return [{ type: 'ContentFilterCreated', data: { contentFilterId, projectId, fields, created: now } }];
      }
      case 'UpdateContentFilter':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'ContentFilterUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteContentFilter':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'ContentFilterDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

const isOfProject = (state: ContentFilterState, projectId: number) => state.status === 'active' && state.projectId === projectId;

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
