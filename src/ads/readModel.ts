// The ad read model: its document type and the queries the service makes of it.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import type { AdFields } from './events.ts';
import { projectResource, projectResourceIndexes, type ProjectResourceDocument } from '../shared/projectResources.ts';

export const ADS = 'ads';

export type AdView = ProjectResourceDocument<AdFields>;

export const adIndexes = projectResourceIndexes;

const resource = projectResource<AdView>(ADS);
export const listAds = resource.list;

/** The enabled ads of a project, whatever their time range (players pick the running ones). */
export const enabledAdsOf = (read: ReadStore, projectId: number) => read.collection<AdView>(ADS).find({ projectId, enabled: true }, { sort: { id: 1 } });

/** Whether an ad runs at an instant: its range starts at or before it and ends after it (null ends are open). */
export const runsAt = (ad: AdView, at: number) => (ad.startsAt === null || Date.parse(ad.startsAt) <= at) && (ad.endsAt === null || at < Date.parse(ad.endsAt));

/** The first start or end of these ads after an instant, when the set of running ads changes next; null when none. */
export function nextBoundary(ads: AdView[], at: number): number | null {
  const later = ads.flatMap((ad) => [ad.startsAt, ad.endsAt]).flatMap((time) => (time === null || Date.parse(time) <= at ? [] : [Date.parse(time)]));
  return later.length > 0 ? Math.min(...later) : null;
}
