// The pronunciation rule read model: one document per rule, with its preview, and the queries of the rule routes.
import type { Filter, IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, organizationResourceIndexes, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { RuleType } from './commands.ts';
import type { RuleFields } from './events.ts';

export const PRONUNCIATION_RULES = 'pronunciationRules';

/** `revision` is the one of the organization's stream the document reflects. */
export type RuleView = OrganizationResourceDocument<
  RuleFields & {
    version: number;
    previewStatus: 'pending' | 'ready' | 'error';
    /** A path under /media/ once the preview of the current version is ready. */
    previewAudioUrl: string | null;
  }
>;

export const ruleIndexes: IndexSpec[] = [
  ...organizationResourceIndexes,
  { name: 'organization_project_id', keys: { organizationId: 1, projectId: 1, id: 1 } },
  { name: 'organization_language_id', keys: { organizationId: 1, language: 1, id: 1 } },
  { name: 'organization_type_id', keys: { organizationId: 1, type: 1, id: 1 } },
  { name: 'preview_status', keys: { previewStatus: 1, id: 1 } },
];

export interface RuleListQuery {
  projectId?: number;
  language?: string;
  type?: RuleType;
  offset: number;
  limit: number;
}

const rules = organizationResource<RuleView>(PRONUNCIATION_RULES);

export const findRule = rules.find;

export function listRules(read: ReadStore, organizationId: number, query: RuleListQuery): Promise<RuleView[]> {
  const filter: Filter = {};
  if (query.projectId !== undefined) filter.projectId = query.projectId;
  if (query.language !== undefined) filter.language = query.language;
  if (query.type !== undefined) filter.type = query.type;
  return rules.list(read, organizationId, { skip: query.offset, limit: query.limit }, filter);
}

/** Rules whose preview of the current version is still to be made (after a restart, or a change). */
export const rulesAwaitingPreview = (read: ReadStore) => read.collection<RuleView>(PRONUNCIATION_RULES).find({ previewStatus: 'pending' }, { sort: { id: 1 } });
