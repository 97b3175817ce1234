// The background track read model: its document type and the queries of the track routes.
import type { Principal } from '../http/auth.ts';
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import type { BackgroundTrackFields } from './events.ts';

export const BACKGROUND_TRACKS = 'background_tracks';

/** `scope` is the project's id, or 0 for the organization's tracks, so one filter lists what a project key sees. */
export type BackgroundTrackView = BackgroundTrackFields & {
  _id: string;
  revision: number;
  id: number;
  organizationId: number;
  scope: number;
  created: string;
  updated: string;
};

export const ORGANIZATION_SCOPE = 0;

export const backgroundTrackIndexes: IndexSpec[] = [{ name: 'organization_scope', keys: { organizationId: 1, scope: 1, id: 1 } }];

/** By id, and only within its organization: another organization's track is as good as missing. */
export async function findBackgroundTrack(read: ReadStore, organizationId: number, id: number): Promise<BackgroundTrackView | null> {
  const found = await read.collection<BackgroundTrackView>(BACKGROUND_TRACKS).findOne({ _id: String(id) });
  return found?.organizationId === organizationId ? found : null;
}

/** Organization keys see every track; project keys their project's and the organization's. */
export const visibleTo = (principal: Principal, track: BackgroundTrackView) =>
  principal.scope === 'organization' || track.scope === ORGANIZATION_SCOPE || track.scope === principal.projectId;

export function listBackgroundTracks(read: ReadStore, principal: Principal, offset: number, limit: number) {
  const scope = principal.scope === 'organization' ? {} : { scope: { $in: [ORGANIZATION_SCOPE, principal.projectId] } };
  return read.collection<BackgroundTrackView>(BACKGROUND_TRACKS).find({ organizationId: principal.organizationId, ...scope }, { sort: { id: 1 }, skip: offset, limit });
}
