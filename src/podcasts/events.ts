// The facts of a project's podcast settings (`podcast_settings-<project id>`).
import type { CamelKeys } from '../shared/caseMapping.ts';
import type { PodcastSettingsWire } from './commands.ts';

export type PodcastSettingsFields = CamelKeys<Required<PodcastSettingsWire>>;

/** Carries only the fields that changed. */
export type PodcastSettingsUpdated = { type: 'PodcastSettingsUpdated'; data: { projectId: number; changes: Partial<PodcastSettingsFields>; updated: string } };

export type PodcastSettingsEvent = PodcastSettingsUpdated;

export const PODCAST_SETTINGS_STREAM_PREFIX = 'podcast_settings-';
export const podcastSettingsStream = (projectId: number) => `${PODCAST_SETTINGS_STREAM_PREFIX}${projectId}`;
