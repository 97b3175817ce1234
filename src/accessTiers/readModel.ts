// The access tier read model: its document type and the queries the service makes of it.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { AccessTierFields } from './events.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';

export const ACCESS_TIERS = 'accessTiers';

export type AccessTierView = ProjectResourceDocument<AccessTierFields>;

export const accessTierIndexes: IndexSpec[] = [
  ...projectResourceIndexes,
  { name: 'project_name', keys: { projectId: 1, name: 1 } },
];

const resource = projectResource<AccessTierView>(ACCESS_TIERS);
export const findAccessTier = resource.find;
export const listAccessTiers = resource.list;

/** A player's `access_tier`: a tier's id, or else its name; null when the project has no such tier. */
export async function resolveAccessTier(read: ReadStore, projectId: number, ref: string): Promise<AccessTierView | null> {
  const byId = /^\d{1,12}$/.test(ref) ? await findAccessTier(read, projectId, Number(ref)) : null;
  return byId ?? (await read.collection<AccessTierView>(ACCESS_TIERS).findOne({ projectId, name: ref }));
}
