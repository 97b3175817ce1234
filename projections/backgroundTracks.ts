// Background tracks as a read model (see organizationResources.ts); a track's project never changes, so `scope` is
// set once, when it is created.
import type { BackgroundTrackEvent } from '../src/backgroundTracks/events.ts';
import { BACKGROUND_TRACK_STREAM_PREFIX, backgroundTrackLifecycle } from '../src/backgroundTracks/events.ts';
import { BACKGROUND_TRACKS, backgroundTrackIndexes, ORGANIZATION_SCOPE, type BackgroundTrackView } from '../src/backgroundTracks/readModel.ts';
import { organizationResourceProjection } from './organizationResources.ts';

export const backgroundTracksProjection = organizationResourceProjection<BackgroundTrackEvent, BackgroundTrackView>({
  name: 'backgroundTracks',
  streamPrefix: BACKGROUND_TRACK_STREAM_PREFIX,
  collection: BACKGROUND_TRACKS,
  indexes: backgroundTrackIndexes,
  ...backgroundTrackLifecycle,
  streams: 'resource',
  derived: (fields) => ({ scope: fields.project?.id ?? ORGANIZATION_SCOPE }),
});
