// Business rules of playlists: pure decide/evolve.
import { conflict, invalid, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { PlaylistEvent, PlaylistFields } from './events.ts';

export interface PlaylistState {
  status: 'absent' | 'active' | 'deleted';
  projectId: number | null;
  fields: PlaylistFields | null;
}

export type PlaylistCommand =
  | { kind: 'CreatePlaylist'; playlistId: number; projectId: number; fields: PlaylistFields; now: string }
  | { kind: 'UpdatePlaylist'; projectId: number; changes: Partial<PlaylistFields>; now: string }
  | { kind: 'DeletePlaylist'; projectId: number; now: string };

/** An auto playlist selects by tags, so it needs at least one. */
const problemOf = (fields: PlaylistFields): AppError | null =>
  fields.type === 'auto' && fields.tags.length === 0 ? invalid([{ location: 'tags', message: 'must name at least one tag for an auto playlist' }]) : null;

export const playlistDecider: Decider<PlaylistState, PlaylistCommand, PlaylistEvent> = {
  initialState: { status: 'absent', projectId: null, fields: null },

  evolve(state, event) {
    switch (event.type) {
      case 'PlaylistCreated':
        return { status: 'active', projectId: event.data.projectId, fields: event.data.fields };
      case 'PlaylistUpdated':
        return { ...state, fields: { ...state.fields!, ...event.data.changes } };
      case 'PlaylistDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): PlaylistEvent[] | AppError {
    switch (command.kind) {
      case 'CreatePlaylist': {
        if (state.status !== 'absent') return conflict();
        const { playlistId, projectId, fields, now } = command;
        return problemOf(fields) ?? [{ type: 'PlaylistCreated', data: { playlistId, projectId, fields, created: now } }];
      }
      case 'UpdatePlaylist': {
        if (!isOfProject(state, command.projectId)) return notFound();
        const problem = problemOf({ ...state.fields!, ...command.changes });
        return problem ?? [{ type: 'PlaylistUpdated', data: { changes: command.changes, updated: command.now } }];
      }
      case 'DeletePlaylist':
        if (!isOfProject(state, command.projectId)) return notFound();
        return [{ type: 'PlaylistDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

const isOfProject = (state: PlaylistState, projectId: number) => state.status === 'active' && state.projectId === projectId;

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
