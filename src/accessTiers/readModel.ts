// The access tier read model: its document type and the queries the service makes of it.
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { AccessTierFields } from './events.ts';

export const ACCESS_TIERS = 'accessTiers';

export type AccessTierView = AccessTierFields & {
  _id: string;
  revision: number;
  id: number;
  projectId: number;
  created: string;
  updated: string;
};

export const accessTierIndexes: IndexSpec[] = [
  { name: 'project_id', keys: { projectId: 1, id: 1 } },
  { name: 'project_name', keys: { projectId: 1, name: 1 } },
];

export async function findAccessTier(read: ReadStore, projectId: number, accessTierId: number): Promise<AccessTierView | null> {
  const tier = await read.collection<AccessTierView>(ACCESS_TIERS).findOne({ _id: String(accessTierId) });
  return tier?.projectId === projectId ? tier : null;
}

export const listAccessTiers = (read: ReadStore, projectId: number, offset: number, limit: number) =>
  read.collection<AccessTierView>(ACCESS_TIERS).find({ projectId }, { sort: { id: 1 }, skip: offset, limit });

/** A player's `access_tier`: a tier's id, or else its name; null when the project has no such tier. */
export async function resolveAccessTier(read: ReadStore, projectId: number, ref: string): Promise<AccessTierView | null> {
  const byId = /^\d{1,12}$/.test(ref) ? await findAccessTier(read, projectId, Number(ref)) : null;
  return byId ?? (await read.collection<AccessTierView>(ACCESS_TIERS).findOne({ projectId, name: ref }));
}
