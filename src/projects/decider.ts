// Business rules of projects: pure decide/evolve.
import { notFound, type AppError } from '../shared/errors.ts';
import type { Decider } from '../shared/decider.ts';
import type { ProjectEvent, ProjectFields } from './events.ts';

export interface ProjectState {
  status: 'absent' | 'active' | 'deleted';
  organizationId: number | null;
}

export type ProjectCommand =
  | { kind: 'CreateProject'; projectId: number; organizationId: number; fields: ProjectFields; now: string }
  | { kind: 'UpdateProject'; changes: ProjectFields; now: string }
  | { kind: 'DeleteProject'; now: string };

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: { status: 'absent', organizationId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ProjectCreated':
        return { status: 'active', organizationId: event.data.organizationId };
      case 'ProjectUpdated':
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
      case 'DeleteProject':
        if (state.status !== 'active') return notFound();
        return [{ type: 'ProjectDeleted', data: { deleted: command.now } }];
    }
  },
};
