// The one mapping from the project read model to the spec's wire format.
import { snakeKeys } from '../shared/caseMapping.ts';
import type { ProjectView } from './readModel.ts';

const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

export function projectToWire(project: ProjectView, stats: { total: number; lastUpdated: string | null }) {
  const { _id, revision, organizationId, ...fields } = project;
  return {
    ...snakeKeys(fields),
    language_data: { code: project.language, name: displayNames.of(project.language.replace('_', '-')) ?? project.language },
    content_total_count: stats.total,
    content_updated: stats.lastUpdated,
  };
}
