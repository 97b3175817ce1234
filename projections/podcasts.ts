// Podcast settings as a read model, one document per project, guarded by stream revision so replays are idempotent.
import { PODCAST_SETTINGS_STREAM_PREFIX, type PodcastSettingsEvent } from '../src/podcasts/events.ts';
import { PODCAST_SETTINGS, podcastSettingsIndexes, type PodcastSettingsView } from '../src/podcasts/readModel.ts';
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import type { Projection } from './projection.ts';

export const podcastsProjection: Projection = {
  name: 'podcasts',
  streamPrefix: PODCAST_SETTINGS_STREAM_PREFIX,
  collections: { [PODCAST_SETTINGS]: podcastSettingsIndexes },

  async apply(recorded: RecordedEvent, read: ReadStore) {
    const documents = read.collection<PodcastSettingsView>(PODCAST_SETTINGS);
    const event = recorded as unknown as PodcastSettingsEvent;
    const _id = recorded.stream.slice(PODCAST_SETTINGS_STREAM_PREFIX.length);
    const current = await documents.findOne({ _id });
    if (current && recorded.revision <= current.revision) return;
    const { projectId, changes, updated } = event.data;
    await documents.put({ _id, revision: recorded.revision, projectId, settings: { ...current?.settings, ...changes }, updated });
  },
};
