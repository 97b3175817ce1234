// The facts of a project's life, stored on its stream `project-<id>`.
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { EmbedSettingsChanges } from '../player/embedSettings.ts';
import type { ExtractionSettingsChanges } from '../extraction/settings.ts';
import type { PlayerSettingsChanges } from '../player/settings.ts';
import type { VideoSettingsChanges } from '../player/videoSettings.ts';
import type { ProjectWireFields } from './commands.ts';

export type ProjectFields = CamelKeys<ProjectWireFields>;

export type ProjectCreated = {
  type: 'ProjectCreated';
  data: { projectId: number; organizationId: number; fields: ProjectFields; created: string };
};
export type ProjectUpdated = { type: 'ProjectUpdated'; data: { changes: ProjectFields; updated: string } };
export type ProjectDeleted = { type: 'ProjectDeleted'; data: { deleted: string } };

/** The settings resources a project keeps beside its own fields; each change records only the fields sent. */
export interface SettingsChanges {
  player: PlayerSettingsChanges;
  video: VideoSettingsChanges;
  embed: EmbedSettingsChanges;
  extraction: ExtractionSettingsChanges;
}
export type SettingsResource = keyof SettingsChanges;

export type PlayerSettingsUpdated = { type: 'PlayerSettingsUpdated'; data: { changes: PlayerSettingsChanges; updated: string } };
export type VideoSettingsUpdated = { type: 'VideoSettingsUpdated'; data: { changes: VideoSettingsChanges; updated: string } };
export type EmbedSettingsUpdated = { type: 'EmbedSettingsUpdated'; data: { changes: EmbedSettingsChanges; updated: string } };
export type ExtractionSettingsUpdated = { type: 'ExtractionSettingsUpdated'; data: { changes: ExtractionSettingsChanges; updated: string } };
export type SettingsUpdated = PlayerSettingsUpdated | VideoSettingsUpdated | EmbedSettingsUpdated | ExtractionSettingsUpdated;

export const settingsEventTypes = {
  player: 'PlayerSettingsUpdated',
  video: 'VideoSettingsUpdated',
  embed: 'EmbedSettingsUpdated',
  extraction: 'ExtractionSettingsUpdated',
} as const satisfies Record<SettingsResource, SettingsUpdated['type']>;

export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectDeleted | SettingsUpdated;

export const projectStream = (projectId: number) => `project-${projectId}`;
