// The project read model: its document, defaults, and the queries the API makes of it.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { defaultEmbedSettings, type EmbedSettings } from '../player/embedSettings.ts';
import { defaultExtractionSettings, type ExtractionSettings } from '../extraction/settings.ts';
import { defaultPlayerSettings, type PlayerSettings } from '../player/settings.ts';
import { defaultVideoSettings, type VideoSettings } from '../player/videoSettings.ts';
import type { ProjectFields, SettingsResource } from './events.ts';

export const PROJECTS = 'projects';

export type ProjectView = Required<ProjectFields> & {
  _id: string;
  revision: number;
  id: number;
  organizationId: number;
  created: string;
  updated: string;
  /** Absent from documents a persistent read store projected before settings existed: read them with `settingsOf`. */
  playerSettings?: PlayerSettings;
  videoSettings?: VideoSettings;
  embedSettings?: EmbedSettings;
  extractionSettings?: ExtractionSettings;
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

export const settingsDefaults = { player: defaultPlayerSettings, video: defaultVideoSettings, embed: defaultEmbedSettings, extraction: defaultExtractionSettings } satisfies Record<SettingsResource, object>;
export type SettingsValues = typeof settingsDefaults;
const settingsFields = { player: 'playerSettings', video: 'videoSettings', embed: 'embedSettings', extraction: 'extractionSettings' } as const satisfies Record<SettingsResource, keyof ProjectView>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Objects that are sets of their own (header names to values): one sent replaces the whole set, so a name can be dropped. */
const replacedWhole = new Set(['requestHeaders']);

/** Applies a settings change: fields sent replace the current ones, except objects (themes), which change field by field. */
export function applySettingsChanges<T extends object>(current: T, changes: object): T {
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    next[key] = isPlainObject(value) && isPlainObject(next[key]) && !replacedWhole.has(key) ? { ...next[key], ...value } : value;
  }
  return next as T;
}

/** A project's settings resource, complete: fields the stored document lacks take their defaults. */
export const settingsOf = <R extends SettingsResource>(project: ProjectView, resource: R): SettingsValues[R] =>
  applySettingsChanges(settingsDefaults[resource], project[settingsFields[resource]] ?? {});

/** The document of a project with one settings resource changed. */
export const withSettingsChanged = (project: ProjectView, resource: SettingsResource, changes: object): ProjectView => ({
  ...project,
  [settingsFields[resource]]: applySettingsChanges(settingsOf(project, resource), changes),
});

export const findProject = (read: ReadStore, projectId: number) =>
  read.collection<ProjectView>(PROJECTS).findOne({ _id: String(projectId) });

export const listProjects = (read: ReadStore, organizationId: number, offset: number, limit: number) =>
  read.collection<ProjectView>(PROJECTS).find({ organizationId }, { sort: { id: 1 }, skip: offset, limit });
