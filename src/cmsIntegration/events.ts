// The facts of a project's CMS integration, stored on its stream `cms_integration-<project id>`.
import type { CmsSettingsChanges } from './settings.ts';

/** The fields sent that changed; the first one records when the integration was created. */
export type CmsSettingsUpdated = { type: 'CmsSettingsUpdated'; data: { projectId: number; changes: CmsSettingsChanges; updated: string } };

export type CmsIntegrationEvent = CmsSettingsUpdated;

export const cmsIntegrationStream = (projectId: number) => `cms_integration-${projectId}`;
