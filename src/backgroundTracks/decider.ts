// Business rules of background tracks: pure decide/evolve.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { BackgroundTrackEvent, BackgroundTrackFields } from './events.ts';

export interface BackgroundTrackState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type BackgroundTrackCommand =
  | { kind: 'CreateBackgroundTrack'; trackId: number; organizationId: number; fields: BackgroundTrackFields; now: string }
  | { kind: 'UpdateBackgroundTrack'; organizationId: number; changes: Partial<BackgroundTrackFields>; now: string }
  | { kind: 'DeleteBackgroundTrack'; organizationId: number; now: string };

const isOfOrganization = (state: BackgroundTrackState, organizationId: number) => state.status === 'active' && state.organizationId === organizationId;

export const backgroundTrackDecider: Decider<BackgroundTrackState, BackgroundTrackCommand, BackgroundTrackEvent> = {
  initialState: { status: 'absent', organizationId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'BackgroundTrackCreated':
        return { status: 'active', organizationId: event.data.organizationId };
      case 'BackgroundTrackUpdated':
        return state;
      case 'BackgroundTrackDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): BackgroundTrackEvent[] | AppError {
    switch (command.kind) {
      case 'CreateBackgroundTrack': {
        if (state.status !== 'absent') return conflict();
        const { trackId, organizationId, fields, now } = command;
        return [{ type: 'BackgroundTrackCreated', data: { trackId, organizationId, fields, created: now } }];
      }
      case 'UpdateBackgroundTrack':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'BackgroundTrackUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteBackgroundTrack':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'BackgroundTrackDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
