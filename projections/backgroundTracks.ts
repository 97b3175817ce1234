// Background tracks as a read model (a track's project never changes, so `scope` is set once), guarded by stream revision so replays are idempotent.
import type { BackgroundTrackEvent } from '../src/backgroundTracks/events.ts';
import { BACKGROUND_TRACK_STREAM_PREFIX } from '../src/backgroundTracks/events.ts';
import { BACKGROUND_TRACKS, backgroundTrackIndexes, ORGANIZATION_SCOPE, type BackgroundTrackView } from '../src/backgroundTracks/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const backgroundTracksProjection: Projection = {
  name: 'backgroundTracks',
  streamPrefix: BACKGROUND_TRACK_STREAM_PREFIX,
  collections: { [BACKGROUND_TRACKS]: backgroundTrackIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const tracks = read.collection<BackgroundTrackView>(BACKGROUND_TRACKS);
    const event = recorded as unknown as BackgroundTrackEvent;
    const _id = recorded.stream.slice(BACKGROUND_TRACK_STREAM_PREFIX.length);
    if (event.type === 'BackgroundTrackCreated') {
      const { trackId, organizationId, fields, created } = event.data;
      if (await tracks.findOne({ _id })) return;
      await tracks.put({ ...fields, _id, revision: recorded.revision, id: trackId, organizationId, scope: fields.project?.id ?? ORGANIZATION_SCOPE, created, updated: created });
      return;
    }
    const track = await tracks.findOne({ _id });
    if (!track || recorded.revision <= track.revision) return;
    switch (event.type) {
      case 'BackgroundTrackUpdated':
        await tracks.put({ ...track, ...event.data.changes, revision: recorded.revision, updated: event.data.updated });
        return;
      case 'BackgroundTrackDeleted':
        await tracks.deleteOne(_id);
        return;
    }
  },
};
