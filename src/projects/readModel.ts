// The project read model: its document, defaults, and the queries the API makes of it.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { ProjectFields } from './events.ts';

export const PROJECTS = 'projects';

export type ProjectView = Required<ProjectFields> & {
  _id: string;
  revision: number;
  id: number;
  organizationId: number;
  created: string;
  updated: string;
};

export const projectIndexes: IndexSpec[] = [{ name: 'organization_id', keys: { organizationId: 1, id: 1 } }];

/** What a project has for settings its creator left out. */
export const projectDefaults: Required<Omit<ProjectFields, 'name'>> = {
  language: 'en_US',
  environment: null,
  logoColor: null,
  title: { enabled: true, voice_id: null },
  summary: { enabled: true, voice_id: null },
  body: { enabled: true, voice_id: null },
  backgroundTrack: { enabled: false, track: null },
  autoPublishEnabled: true,
  autoVideoPublishEnabled: true,
  timeZone: 'UTC',
  avatarUrl: null,
  pauseAfterTitleSegmentsSeconds: 0.6,
  pauseAfterSegmentsSeconds: 0.3,
};

export const findProject = (read: ReadStore, projectId: number) =>
  read.collection<ProjectView>(PROJECTS).findOne({ _id: String(projectId) });

export const listProjects = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  read.collection<ProjectView>(PROJECTS).find({ organizationId }, { sort: { id: 1 }, skip: offset, limit });
