// Project commands: allocate an id, decide, append.
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { parseOrThrow } from '../shared/validation.ts';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { createProjectSchema, updateProjectSchema } from './commands.ts';
import { projectDecider } from './decider.ts';
import { projectStream, type ProjectFields } from './events.ts';

export interface ProjectHandlers {
  create(organizationId: number, body: unknown, now: Date): Promise<{ projectId: number; position: number }>;
  update(projectId: number, body: unknown, now: Date): Promise<number>;
  remove(projectId: number, now: Date): Promise<number>;
}

export function createProjectHandlers(store: EventStore): ProjectHandlers {
  return {
    async create(organizationId, body, now) {
      const fields = camelKeys<ProjectFields>(parseOrThrow(createProjectSchema, body));
      const projectId = await allocateId(store, 'project');
      const command = { kind: 'CreateProject', projectId, organizationId, fields, now: now.toISOString() } as const;
      const { position } = await handleCommand(store, projectStream(projectId), projectDecider, command);
      return { projectId, position };
    },
    async update(projectId, body, now) {
      const changes = camelKeys<ProjectFields>(parseOrThrow(updateProjectSchema, body));
      const command = { kind: 'UpdateProject', changes, now: now.toISOString() } as const;
      return (await handleCommand(store, projectStream(projectId), projectDecider, command)).position;
    },
    async remove(projectId, now) {
      const command = { kind: 'DeleteProject', now: now.toISOString() } as const;
      return (await handleCommand(store, projectStream(projectId), projectDecider, command)).position;
    },
  };
}
