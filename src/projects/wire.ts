// The one mapping from the project read model to the spec's wire format.
import { snakeKeys } from '../shared/caseMapping.ts';
import type { SettingsResource } from './events.ts';
import { settingsOf, type ProjectView } from './readModel.ts';

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

export function projectToWire(project: ProjectView, stats: { total: number; lastUpdated: string | null }) {
  const { _id, revision, organizationId, playerSettings, videoSettings, embedSettings, ...fields } = project;
  return {
    ...snakeKeys(fields),
    language_data: { code: project.language, name: displayNames.of(project.language.replace('_', '-')) ?? project.language },
    content_total_count: stats.total,
    content_updated: stats.lastUpdated,
  };
}

/** A settings resource as `GET`/`PUT /projects/{p}/<resource>_settings` answer it: every field, defaults filled in. */
export const settingsToWire = (project: ProjectView, resource: SettingsResource) => snakeKeys(settingsOf(project, resource));
