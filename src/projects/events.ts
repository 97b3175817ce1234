// The facts of a project's life, stored on its stream `project-<id>`.
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { ProjectWireFields } from './commands.ts';

export type ProjectFields = CamelKeys<ProjectWireFields>;

export type ProjectCreated = {
  type: 'ProjectCreated';
  data: { projectId: number; organizationId: number; fields: ProjectFields; created: string };
};
export type ProjectUpdated = { type: 'ProjectUpdated'; data: { changes: ProjectFields; updated: string } };
export type ProjectDeleted = { type: 'ProjectDeleted'; data: { deleted: string } };
export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectDeleted;

export const projectStream = (projectId: number) => `project-${projectId}`;
