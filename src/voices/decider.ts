// Business rules of an organization's own voices: pure decide/evolve over its voices stream.
import { conflict, notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { CustomVoiceEvent, CustomVoiceFields } from './events.ts';

export interface CustomVoiceRecord {
  id: number;
  fields: CustomVoiceFields;
  created: string;
  updated: string;
}

export interface CustomVoicesState {
  voices: Record<number, CustomVoiceRecord>;
}

export type CustomVoiceCommand =
  | { kind: 'CreateVoice'; voiceId: number; organizationId: number; fields: CustomVoiceFields; now: string }
  | { kind: 'UpdateVoice'; voiceId: number; changes: Partial<CustomVoiceFields>; now: string }
  | { kind: 'DeleteVoice'; voiceId: number; now: string };

export const customVoiceDecider: Decider<CustomVoicesState, CustomVoiceCommand, CustomVoiceEvent> = {
  initialState: { voices: {} },

  evolve(state, event) {
    const voices = { ...state.voices };
    switch (event.type) {
      case 'CustomVoiceCreated': {
        const { voiceId, fields, created } = event.data;
        voices[voiceId] = { id: voiceId, fields, created, updated: created };
        break;
      }
      case 'CustomVoiceUpdated': {
        const current = voices[event.data.voiceId];
        if (current) voices[event.data.voiceId] = { ...current, fields: { ...current.fields, ...event.data.changes }, updated: event.data.updated };
        break;
      }
      case 'CustomVoiceDeleted':
        delete voices[event.data.voiceId];
        break;
    }
    return { voices };
  },

  decide(command, state): CustomVoiceEvent[] | AppError {
    switch (command.kind) {
      case 'CreateVoice': {
        if (state.voices[command.voiceId]) return conflict();
        const { voiceId, organizationId, fields, now } = command;
        return [{ type: 'CustomVoiceCreated', data: { voiceId, organizationId, fields, created: now } }];
      }
      case 'UpdateVoice':
        if (!state.voices[command.voiceId]) return notFound();
        return [{ type: 'CustomVoiceUpdated', data: { voiceId: command.voiceId, changes: command.changes, updated: command.now } }];
      case 'DeleteVoice':
        if (!state.voices[command.voiceId]) return notFound();
        return [{ type: 'CustomVoiceDeleted', data: { voiceId: command.voiceId, deleted: command.now } }];
      default:
        return assertNever(command);
    }
  },
};

function assertNever(value: never): never {
  throw new TypeError(`Unhandled command ${JSON.stringify(value)}`);
}
