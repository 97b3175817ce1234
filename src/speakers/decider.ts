// Business rules of speakers: pure decide/evolve.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { SpeakerEvent, SpeakerFields } from './events.ts';

export interface SpeakerState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type SpeakerCommand =
  | { kind: 'CreateSpeaker'; speakerId: number; organizationId: number; fields: SpeakerFields; now: string }
  | { kind: 'UpdateSpeaker'; organizationId: number; changes: Partial<SpeakerFields>; now: string }
  | { kind: 'DeleteSpeaker'; organizationId: number; now: string };

const isOfOrganization = (state: SpeakerState, organizationId: number) => state.status === 'active' && state.organizationId === organizationId;

export const speakerDecider: Decider<SpeakerState, SpeakerCommand, SpeakerEvent> = {
  initialState: { status: 'absent', organizationId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'SpeakerCreated':
        return { status: 'active', organizationId: event.data.organizationId };
      case 'SpeakerUpdated':
        return state;
      case 'SpeakerDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): SpeakerEvent[] | AppError {
    switch (command.kind) {
      case 'CreateSpeaker': {
        if (state.status !== 'absent') return conflict();
        const { speakerId, organizationId, fields, now } = command;
        return [{ type: 'SpeakerCreated', data: { speakerId, organizationId, fields, created: now } }];
      }
      case 'UpdateSpeaker':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'SpeakerUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteSpeaker':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'SpeakerDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
