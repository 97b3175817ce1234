// The facts of background tracks (`background-track-<id>`), owned by an organization and optionally scoped to a project.
import type { Lifecycle } from '../shared/crud/organizationDecider.ts';
/**
 * Stored fields: `duration` in seconds, as probed from the audio behind `url`. `file`: where an uploaded track's audio
 * is kept, under the media folder (its `url` serves it); null or absent for a track fetched from its `url`.
 */
export type BackgroundTrackFields = { name: string; url: string; volume: number; project: { id: number } | null; duration: number; file?: string | null };

export type BackgroundTrackCreated = {
  type: 'BackgroundTrackCreated';
  data: { trackId: number; organizationId: number; fields: BackgroundTrackFields; created: string };
};
export type BackgroundTrackUpdated = { type: 'BackgroundTrackUpdated'; data: { changes: Partial<BackgroundTrackFields>; updated: string } };
export type BackgroundTrackDeleted = { type: 'BackgroundTrackDeleted'; data: { deleted: string } };

export type BackgroundTrackEvent = BackgroundTrackCreated | BackgroundTrackUpdated | BackgroundTrackDeleted;

/** What the kit's decider and projection need to know of the three events. */
export const backgroundTrackLifecycle: Lifecycle<BackgroundTrackEvent> = {
  types: { created: 'BackgroundTrackCreated', updated: 'BackgroundTrackUpdated', deleted: 'BackgroundTrackDeleted' },
  idKey: 'trackId',
};

export const BACKGROUND_TRACK_STREAM_PREFIX = 'background-track-';
export const backgroundTrackStream = (trackId: number) => `${BACKGROUND_TRACK_STREAM_PREFIX}${trackId}`;
