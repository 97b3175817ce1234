// Access tiers in player data: which tier a request names, which items it may see, and what keeps a cached answer valid.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { invalid } from '../shared/errors.ts';
import { ACCESS_TIERS, resolveAccessTier, type AccessTierView } from './readModel.ts';

export interface AccessTierBasis {
  /** The resolved tier and its revision (a rename changes what a name resolves to). */
  tier: [id: string, revision: number];
  /** The request named the tier by name, with digits: it would resolve to a tier of that id, should one appear. */
  numericName: string | null;
}

/** The tier a player request names (`access_tier`, an id or a name); a 422 when the project has no such tier. */
export async function playerAccessTier(read: ReadStore, projectId: number, ref: string | undefined): Promise<AccessTierView | null> {
  if (ref === undefined) return null;
  const tier = await resolveAccessTier(read, projectId, ref);
  if (!tier) throw invalid([{ location: 'access_tier', message: 'is not an access tier of this project' }], 'Invalid query parameters');
  return tier;
}

/** Unrestricted items (no tiers) are for everyone; restricted ones only for a request naming one of their tiers. */
export const accessible = (tierIds: number[] | null | undefined, tier: AccessTierView | null) =>
  !tierIds || tierIds.length === 0 || (tier !== null && tierIds.includes(tier.id));

export const accessTierBasis = (tier: AccessTierView | null, ref: string | undefined): AccessTierBasis | null =>
  tier ? { tier: [tier._id, tier.revision], numericName: ref !== undefined && ref !== String(tier.id) && /^\d{1,12}$/.test(ref) ? ref : null } : null;

export function accessTierUnchanged(read: ReadStore, projectId: number, basis: AccessTierBasis | null): Promise<boolean>[] {
  if (!basis) return [];
  const tiers = read.collection(ACCESS_TIERS);
  const [_id, revision] = basis.tier;
  return [
    tiers.count({ _id, revision }).then((count) => count === 1),
    ...(basis.numericName ? [tiers.count({ _id: basis.numericName, projectId }).then((count) => count === 0)] : []),
  ];
}
