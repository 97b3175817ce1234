// The background track read model: its document type and the queries of the track routes.
import type { Principal } from '../http/auth.ts';
import type { IndexSpec, ReadStore } from '../infrastructure/readStore/port.ts';
import { organizationResource, type OrganizationResourceDocument } from '../shared/organizationResources.ts';
import type { BackgroundTrackFields } from './events.ts';

export const BACKGROUND_TRACKS = 'background_tracks';

/** `scope` is the project's id, or 0 for the organization's tracks, so one filter lists what a project key sees. */
export type BackgroundTrackView = OrganizationResourceDocument<BackgroundTrackFields & { scope: number }>;

export const ORGANIZATION_SCOPE = 0;

export const backgroundTrackIndexes: IndexSpec[] = [{ name: 'organization_scope', keys: { organizationId: 1, scope: 1, id: 1 } }];

const tracks = organizationResource<BackgroundTrackView>(BACKGROUND_TRACKS);

export const findBackgroundTrack = tracks.find;

/** Organization keys see every track; project keys their project's and the organization's. */
export const visibleTo = (principal: Principal, track: BackgroundTrackView) =>
  principal.scope === 'organization' || track.scope === ORGANIZATION_SCOPE || track.scope === principal.projectId;

export function listBackgroundTracks(read: ReadStore, principal: Principal, offset: number, limit: number) {
  const scope = principal.scope === 'organization' ? {} : { scope: { $in: [ORGANIZATION_SCOPE, principal.projectId] } };
  return tracks.list(read, principal.organizationId, { skip: offset, limit }, scope);
}
