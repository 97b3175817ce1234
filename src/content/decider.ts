// Business rules of content items and of source-id claims: pure decide/evolve.
import { invalid, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { ContentType } from './commands.ts';
import type { ContentEvent, ContentFields, SourceIdEvent } from './events.ts';

export interface ContentState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  contentType: ContentType | null;
  sourceId: string | null;
}

export type ContentCommand =
  | { kind: 'CreateContent'; contentId: string; projectId: number; contentType: ContentType; fields: ContentFields; previewToken: string; now: string }
  | { kind: 'UpdateContent'; projectId: number; changes: Partial<ContentFields>; now: string }
  | { kind: 'DeleteContent'; projectId: number; now: string };

export const contentDecider: Decider<ContentState, ContentCommand, ContentEvent> = {
  initialState: { status: 'absent', projectId: null, contentType: null, sourceId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ContentCreated':
        return {
          status: 'active',
          projectId: event.data.projectId,
          contentType: event.data.contentType,
          sourceId: event.data.fields.sourceId ?? null,
        };
      case 'ContentUpdated':
        return 'sourceId' in event.data.changes ? { ...state, sourceId: event.data.changes.sourceId ?? null } : state;
      case 'ContentDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): ContentEvent[] | AppError {
    switch (command.kind) {
      case 'CreateContent': {
        if (state.status !== 'absent') return invalid([{ location: 'id', message: 'has already been taken' }]);
        const { contentId, projectId, contentType, fields, previewToken, now } = command;
        return [{ type: 'ContentCreated', data: { contentId, projectId, contentType, fields, previewToken, created: now } }];
      }
      case 'UpdateContent':
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        return [{ type: 'ContentUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteContent':
        if (state.status !== 'active' || state.projectId !== command.projectId) return notFound();
        return [{ type: 'ContentDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

export interface SourceIdState {
  ownerId: string | null;
  claimed: string | null;
}

export type SourceIdCommand =
  | { kind: 'ClaimSourceId'; projectId: number; sourceId: string; contentId: string; now: string; ownerAlive: boolean }
  | { kind: 'ReleaseSourceId'; contentId: string };

/** A claim whose item was never written (its creator died) is taken over after this long. */
export const CLAIM_GRACE_MS = 60_000;

export const sourceIdDecider: Decider<SourceIdState, SourceIdCommand, SourceIdEvent> = {
  initialState: { ownerId: null, claimed: null },

  evolve(state, event) {
    switch (event.type) {
      case 'SourceIdClaimed':
        return { ownerId: event.data.contentId, claimed: event.data.claimed };
      case 'SourceIdReleased':
        return state.ownerId === event.data.contentId ? { ownerId: null, claimed: null } : state;
    }
  },

  decide(command, state): SourceIdEvent[] | AppError {
    switch (command.kind) {
      case 'ClaimSourceId': {
        if (state.ownerId === command.contentId) return [];
        if (state.ownerId !== null && command.ownerAlive) {
          return invalid([{ location: 'source_id', message: 'has already been taken' }]);
        }
        const { projectId, sourceId, contentId, now } = command;
        return [{ type: 'SourceIdClaimed', data: { projectId, sourceId, contentId, claimed: now } }];
      }
      case 'ReleaseSourceId':
        return state.ownerId === command.contentId ? [{ type: 'SourceIdReleased', data: { contentId: command.contentId } }] : [];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}

