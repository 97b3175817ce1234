// The facts of background tracks (`background-track-<id>`), owned by an organization and optionally scoped to a project.
/** Stored fields: `duration` in seconds, as probed from the audio behind `url`. */
export type BackgroundTrackFields = { name: string; url: string; volume: number; project: { id: number } | null; duration: number };

export type BackgroundTrackCreated = {
  type: 'BackgroundTrackCreated';
  data: { trackId: number; organizationId: number; fields: BackgroundTrackFields; created: string };
};
export type BackgroundTrackUpdated = { type: 'BackgroundTrackUpdated'; data: { changes: Partial<BackgroundTrackFields>; updated: string } };
export type BackgroundTrackDeleted = { type: 'BackgroundTrackDeleted'; data: { deleted: string } };

export type BackgroundTrackEvent = BackgroundTrackCreated | BackgroundTrackUpdated | BackgroundTrackDeleted;

export const BACKGROUND_TRACK_STREAM_PREFIX = 'background-track-';
export const backgroundTrackStream = (trackId: number) => `${BACKGROUND_TRACK_STREAM_PREFIX}${trackId}`;
