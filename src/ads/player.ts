// The ads a player answer carries, and what tells a cached answer that they may have changed.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { ADS, enabledAdsOf, nextBoundary, runsAt, type AdView } from './readModel.ts';

export interface AdsBasis {
  /** Revisions of the project's enabled ads, running or not. */
  revisions: [id: string, revision: number][];
  /** When the set of running ads changes next (ms since the epoch); null when no start or end lies ahead. */
  validUntil: number | null;
}

export async function loadPlayerAds(read: ReadStore, projectId: number, at: number): Promise<{ running: AdView[]; basis: AdsBasis }> {
  const ads = await enabledAdsOf(read, projectId);
  return {
    running: ads.filter((ad) => runsAt(ad, at)),
    basis: { revisions: ads.map((ad) => [ad._id, ad.revision]), validUntil: nextBoundary(ads, at) },
  };
}

/** An answer's ads are stale once a start or end has passed, without any event. */
export const adsExpired = (basis: AdsBasis | null, at: number) => basis?.validUntil != null && at >= basis.validUntil;

/** Counts, as the rest of the basis: no enabled ad came, went or changed. */
export function adsUnchanged(read: ReadStore, projectId: number, basis: AdsBasis | null): Promise<boolean>[] {
  if (!basis) return [];
  const ads = read.collection(ADS);
  const same = async (count: Promise<number>, expected: number) => (await count) === expected;
  return [
    same(ads.count({ projectId, enabled: true }), basis.revisions.length),
    ...basis.revisions.map(([_id, revision]) => same(ads.count({ _id, revision, enabled: true }), 1)),
  ];
}
