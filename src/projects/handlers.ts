// Project commands: allocate an id, decide, append.
import { camelKeys } from '../shared/caseMapping.ts';
import { allocateId, handleCommand } from '../shared/decider.ts';
import { parseOrThrow } from '../shared/validation.ts';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { embedSettingsSchema } from '../player/embedSettings.ts';
import { extractionSettingsSchema } from '../extraction/settings.ts';
import { playerSettingsSchema } from '../player/settings.ts';
import { videoSettingsSchema } from '../player/videoSettings.ts';
import { createProjectSchema, updateProjectSchema } from './commands.ts';
import { projectDecider } from './decider.ts';
import { projectStream, type ProjectFields, type SettingsChanges, type SettingsResource } from './events.ts';

const settingsSchemas = { player: playerSettingsSchema, video: videoSettingsSchema, embed: embedSettingsSchema, extraction: extractionSettingsSchema } as const;

export interface ProjectHandlers {
  create(organizationId: number, body: unknown, now: Date): Promise<{ projectId: number; position: number }>;
  update(projectId: number, body: unknown, now: Date): Promise<number>;
  /** Changes the fields sent of one settings resource; answers the position to wait for (0 when nothing changed). */
  updateSettings(projectId: number, resource: SettingsResource, body: unknown, now: Date): Promise<number>;
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
    async updateSettings(projectId, resource, body, now) {
      const changes = camelKeys<SettingsChanges[typeof resource]>(parseOrThrow(settingsSchemas[resource], body));
      const command = { kind: 'UpdateSettings', resource, changes, now: now.toISOString() } as const;
      return (await handleCommand(store, projectStream(projectId), projectDecider, command)).position;
    },
    async remove(projectId, now) {
      const command = { kind: 'DeleteProject', now: now.toISOString() } as const;
      return (await handleCommand(store, projectStream(projectId), projectDecider, command)).position;
    },
  };
}
