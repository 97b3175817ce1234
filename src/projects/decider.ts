// Business rules of projects: pure decide/evolve.
import { notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import { settingsEventTypes, type ProjectEvent, type ProjectFields, type SettingsChanges, type SettingsResource, type SettingsUpdated } from './events.ts';

export interface ProjectState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type ProjectCommand =
  | { kind: 'CreateProject'; projectId: number; organizationId: number; fields: ProjectFields; now: string }
  | { kind: 'UpdateProject'; changes: ProjectFields; now: string }
  | { kind: 'UpdateSettings'; resource: SettingsResource; changes: SettingsChanges[SettingsResource]; now: string }
  | { kind: 'DeleteProject'; now: string };

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: { status: 'absent', organizationId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ProjectCreated':
        return { status: 'active', organizationId: event.data.organizationId };
      case 'ProjectUpdated':
      case 'PlayerSettingsUpdated':
      case 'VideoSettingsUpdated':
      case 'EmbedSettingsUpdated':
      case 'ExtractionSettingsUpdated':
        return state;
      case 'ProjectDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state): ProjectEvent[] | AppError {
    switch (command.kind) {
      case 'CreateProject': {
        if (state.status !== 'absent') return notFound();
        const { projectId, organizationId, fields, now } = command;
        return [{ type: 'ProjectCreated', data: { projectId, organizationId, fields, created: now } }];
      }
      case 'UpdateProject':
        if (state.status !== 'active') return notFound();
        return [{ type: 'ProjectUpdated', data: { changes: command.changes, updated: command.now } }];
      case 'UpdateSettings': {
        if (state.status !== 'active') return notFound();
        // A PUT that changes nothing records nothing.
        if (Object.keys(command.changes).length === 0) return [];
        const event = { type: settingsEventTypes[command.resource], data: { changes: command.changes, updated: command.now } };
        return [event as SettingsUpdated];
      }
      case 'DeleteProject':
        if (state.status !== 'active') return notFound();
        return [{ type: 'ProjectDeleted', data: { deleted: command.now } }];
    }
  },
};
