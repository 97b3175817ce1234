// Business rules of video settings templates: pure decide/evolve.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { VideoTemplateEvent, VideoTemplateFields } from './events.ts';

export interface VideoTemplateState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type VideoTemplateCommand =
  | { kind: 'CreateVideoTemplate'; templateId: number; organizationId: number; fields: VideoTemplateFields; now: string }
  | { kind: 'UpdateVideoTemplate'; organizationId: number; changes: Partial<VideoTemplateFields>; now: string }
  | { kind: 'DeleteVideoTemplate'; organizationId: number; now: string };

const isOfOrganization = (state: VideoTemplateState, organizationId: number) => state.status === 'active' && state.organizationId === organizationId;

export const videoTemplateDecider: Decider<VideoTemplateState, VideoTemplateCommand, VideoTemplateEvent> = {
  initialState: { status: 'absent', organizationId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'VideoTemplateCreated':
        return { status: 'active', organizationId: event.data.organizationId };
      case 'VideoTemplateUpdated':
        return state;
      case 'VideoTemplateDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): VideoTemplateEvent[] | AppError {
    switch (command.kind) {
      case 'CreateVideoTemplate': {
        if (state.status !== 'absent') return conflict();
        const { templateId, organizationId, fields, now } = command;
        return [{ type: 'VideoTemplateCreated', data: { templateId, organizationId, fields, created: now } }];
      }
      case 'UpdateVideoTemplate':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'VideoTemplateUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'DeleteVideoTemplate':
        if (!isOfOrganization(state, command.organizationId)) return notFound();
        return [{ type: 'VideoTemplateDeleted', data: { deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
