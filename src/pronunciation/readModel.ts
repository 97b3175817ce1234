// The pronunciation rule read model: one document per rule, with its preview, and the queries of the rule routes.
import type { Filter, IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { RuleType } from './commands.ts';
import type { RuleFields } from './events.ts';

export const PRONUNCIATION_RULES = 'pronunciationRules';

export type RuleView = RuleFields & {
  _id: string;
  /** Revision of the organization's stream the document reflects. */
  revision: number;
  id: number;
  organizationId: number;
  version: number;
  previewStatus: 'pending' | 'ready' | 'error';
  /** A path under /media/ once the preview of the current version is ready. */
  previewAudioUrl: string | null;
  created: string;
  updated: string;
};

export const ruleIndexes: IndexSpec[] = [
  { name: 'organization_id', keys: { organizationId: 1, id: 1 } },
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

const rules = (read: ReadStore) => read.collection<RuleView>(PRONUNCIATION_RULES);

/** By id, and only within its organization: another organization's rule is as good as missing. */
export async function findRule(read: ReadStore, organizationId: number, id: number): Promise<RuleView | null> {
  const found = await rules(read).findOne({ _id: String(id) });
  return found?.organizationId === organizationId ? found : null;
}

export function listRules(read: ReadStore, organizationId: number, query: RuleListQuery): Promise<RuleView[]> {
  const filter: Filter = { organizationId };
  if (query.projectId !== undefined) filter.projectId = query.projectId;
  if (query.language !== undefined) filter.language = query.language;
  if (query.type !== undefined) filter.type = query.type;
  return rules(read).find(filter, { sort: { id: 1 }, skip: query.offset, limit: query.limit });
}

/** Rules whose preview of the current version is still to be made (after a restart, or a change). */
export const rulesAwaitingPreview = (read: ReadStore) => rules(read).find({ previewStatus: 'pending' }, { sort: { id: 1 } });
